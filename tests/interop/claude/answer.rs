//! Answering Claude Code's permission dialog without attaching: `greenroom
//! send ID --key Enter` allows the tool (the highlighted "1. Yes"), `--key
//! Escape` refuses it; what the dialog asks is on the row while it waits,
//! and the row moves on once answered.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::harness::{Claude, SESSION};
use super::standin::{Reply, StandIn};
use super::{health, tokens};

const DIALOG: &str = "Do you want to proceed?";

/// Waits for the dialog and for greenroom to show the session waiting on it.
fn until_asked(c: &Claude, command: &str) -> Value {
    c.pane()
        .until(40, "the permission dialog", |s| s.contains(DIALOG));
    c.until_row(20, "waiting on the dialog", |r| {
        health(r) == "waiting" && r["activity"]["waiting_for"]["command"] == command
    })
}

/// Presses `key` with `greenroom send --key` until the dialog goes (a key
/// that lands while the dialog is still being drawn is lost); returns how
/// many presses it took.
fn answer(c: &Claude, key: &str) -> usize {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut presses = 0;
    while c.pane().text().contains(DIALOG) {
        assert!(
            Instant::now() < deadline,
            "the dialog stayed:\n{}",
            c.pane().text()
        );
        let out = c
            .greenroom()
            .args(["send", SESSION, "--key", key])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            said.starts_with(&format!("sent {key} to {SESSION}")),
            "{said}"
        );
        presses += 1;
        let pressed = Instant::now();
        while pressed.elapsed() < Duration::from_secs(3) && c.pane().text().contains(DIALOG) {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    presses
}

/// Keeps the dialog's real payloads under `target/interop-captures/answer/`
/// (the source of tests/fixtures/real's PermissionRequest and
/// Notification files).
fn keep_payloads(c: &Claude) {
    c.keep_payloads("answer");
}

#[test]
fn enter_from_greenroom_allows_the_tool_and_the_turn_goes_on() {
    let api = StandIn::start();
    api.script([
        Reply::Bash("touch allowed-by-key".into(), tokens(100, 10, 0, 0)),
        Reply::Text("Touched it.".into(), tokens(100, 10, 0, 0)),
    ]);
    let c = Claude::start(api);
    c.prompt("Touch the file.");
    let r = until_asked(&c, "touch allowed-by-key");
    assert_eq!(r["activity"]["waiting_for"]["tool"], "Bash");
    // PermissionRequest comes first ("permission to use Bash"); the
    // Notification's own words follow once Claude Code sends it (2.1.328
    // says "Claude needs your permission", naming no tool).
    let r = c.until_row(20, "the Notification's words", |r| {
        r["activity"]["waiting_for"]["question"] == "Claude needs your permission"
    });
    keep_payloads(&c);
    assert_eq!(
        r["activity"]["waiting_for"]["command"],
        "touch allowed-by-key"
    );
    assert_eq!(r["activity"]["source"], "hook");
    let presses = answer(&c, "Enter");
    eprintln!("allowed with {presses} press(es) of Enter");
    crate::it_support::wait_for(20, "the tool to run", || {
        c.work().join("allowed-by-key").exists().then_some(())
    });
    c.pane()
        .until(30, "the follow-up", |s| s.contains("Touched it."));
    // Idle, or ready when the turn ended over 5 s after the answer (the
    // look it was).
    let r = c.until_row(20, "idle after Stop", |r| {
        (health(r) == "idle" || health(r) == "ready") && r["activity"]["reported"] == true
    });
    assert_eq!(r["activity"]["waiting_for"], Value::Null, "{r:#}");
}

#[test]
fn escape_from_greenroom_refuses_the_tool_and_the_session_stops_waiting() {
    let api = StandIn::start();
    api.script([
        Reply::Bash("touch refused-by-key".into(), tokens(100, 10, 0, 0)),
        Reply::Text("Understood.".into(), tokens(100, 10, 0, 0)),
    ]);
    let c = Claude::start(api);
    c.prompt("Touch the file.");
    until_asked(&c, "touch refused-by-key");
    let presses = answer(&c, "Escape");
    let refused = Instant::now();
    eprintln!("refused with {presses} press(es) of Escape");
    let r = c.until_row(30, "no longer waiting", |r| health(r) != "waiting");
    eprintln!(
        "after Escape: {} in {:.1} s: {:#}\nhooks: {:?}",
        health(&r),
        refused.elapsed().as_secs_f64(),
        r["activity"],
        c.payloads()
            .iter()
            .map(|p| p["hook_event_name"].as_str().unwrap_or_default().to_owned())
            .collect::<Vec<_>>()
    );
    assert!(
        !c.work().join("refused-by-key").exists(),
        "the refused tool did not run"
    );
    assert_eq!(health(&r), "idle", "{r:#}");
    assert_eq!(r["activity"]["source"], "answer", "{r:#}");
    assert_eq!(r["activity"]["waiting_for"], Value::Null, "{r:#}");
    // Claude Code fired no hook on the refusal: the row says who decided.
    let after_answer: Vec<String> = c
        .payloads()
        .iter()
        .map(|p| p["hook_event_name"].as_str().unwrap_or_default().to_owned())
        .skip_while(|h| h != "PermissionRequest" && h != "Notification")
        .collect();
    eprintln!("hooks from the dialog on: {after_answer:?}");
}
