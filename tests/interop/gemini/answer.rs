//! Answering Gemini CLI's "Allow execution?" without attaching: `greenroom
//! send ID --key Enter` allows the command once (the highlighted first
//! choice), `--key Escape` refuses it; the row shows the command it waits
//! on, and moves on once answered.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::cli::Setup;

const DIALOG: &str = "Allow execution";

/// Presses `key` with `greenroom send --key` until the dialog goes (a key
/// that lands while the dialog is being drawn may be lost); returns how
/// many presses it took.
fn answer(setup: &Setup, key: &str) -> usize {
    let gr = setup.greenroom();
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut presses = 0;
    while setup.pane("gem").contains(DIALOG) {
        assert!(
            Instant::now() < deadline,
            "the dialog stayed:\n{}",
            setup.pane("gem")
        );
        let said = gr.ok(&["send", "gem", "--key", key]);
        assert!(said.starts_with(&format!("sent {key} to gem")), "{said}");
        presses += 1;
        let pressed = Instant::now();
        while pressed.elapsed() < Duration::from_secs(3) && setup.pane("gem").contains(DIALOG) {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    presses
}

fn ask(setup: &Setup, command: &str) {
    setup
        .greenroom()
        .ok(&["send", "gem", &format!("RUN: {command}")]);
    setup.until_pane("gem", 30, "Allow execution?", |p| p.contains(DIALOG));
    let r = setup.until_row("gem", 20, "waiting on the command", |r| {
        r["health"] == "waiting"
    });
    let w = &r["activity"]["waiting_for"];
    assert_eq!(w["question"], command, "{r:#}");
    assert_eq!(r["activity"]["source"], "hook");
}

#[test]
fn enter_from_greenroom_allows_the_command_once() {
    let setup = Setup::new();
    setup.install_hooks();
    setup.spawn("gem");
    ask(&setup, "touch allowed-by-key");
    let presses = answer(&setup, "Enter");
    eprintln!("allowed with {presses} press(es) of Enter");
    let made = setup.project().join("allowed-by-key");
    crate::it_support::wait_for(20, "the command to run", || made.exists().then_some(()));
    // Idle, or ready when the turn ended over 5 s after the answer (the
    // look it was).
    let r = setup.until_row("gem", 30, "idle after the answer", |r| {
        r["health"] == "idle" || r["health"] == "ready"
    });
    assert_eq!(r["activity"]["waiting_for"], Value::Null, "{r:#}");
}

#[test]
fn escape_from_greenroom_refuses_the_command() {
    let setup = Setup::new();
    setup.install_hooks();
    setup.spawn("gem");
    ask(&setup, "touch refused-by-key");
    let presses = answer(&setup, "Escape");
    let refused = Instant::now();
    eprintln!("refused with {presses} press(es) of Escape");
    let r = setup.until_row("gem", 30, "no longer waiting", |r| r["health"] != "waiting");
    eprintln!(
        "after Escape: {} in {:.1} s: {:#}",
        r["health"],
        refused.elapsed().as_secs_f64(),
        r["activity"]
    );
    assert!(
        !setup.project().join("refused-by-key").exists(),
        "the refused command did not run"
    );
    assert_eq!(r["health"], "idle", "{r:#}");
    assert_eq!(r["activity"]["source"], "answer", "{r:#}");
}
