//! Codex's approval question, answered from greenroom: `greenroom send
//! --key 1` picks "1. Yes, proceed", the command runs and the conversation
//! goes on; the spend of every turn reaches the row. Without hooks, the
//! question on Codex's screen makes the row waiting for its command, for
//! greenroom's own Codex and one started by hand (answered with `--key y`).

use super::harness::Codex;
use super::standin::{Reply, StandIn, Usage};
use super::user;
use std::time::Duration;

use crate::harness::press_until_gone;
use crate::it_support::Pane;

const SESSION: &str = "ask";
const QUESTION: &str = "Would you like to run the following command?";

#[test]
fn codexs_approval_is_answered_with_send_key() {
    let api = StandIn::start();
    let asked = Usage {
        input: 2_000,
        cached: 0,
        output: 30,
        reasoning: 5,
    };
    let done = Usage {
        input: 2_500,
        cached: 2_000,
        output: 20,
        reasoning: 0,
    };
    api.script([
        Reply::Shell("touch greenroom-approved".into(), asked),
        Reply::Text("stand-in reply: the file is there".into(), done),
    ]);
    let c = Codex::prepare(api.clone());
    let pane = c.spawn(SESSION);
    let work = c.work();
    Codex::prompt(&pane, "make the file");
    let screen = pane.until(60, "Codex's approval question", |s| {
        s.contains(QUESTION) && s.contains("touch greenroom-approved")
    });
    assert!(screen.contains("1. Yes, proceed (y)"), "{screen}");
    keep_screen(&screen);
    assert!(
        !work.join("greenroom-approved").exists(),
        "not before the answer"
    );
    waits_for_the_command(&c, &pane, SESSION);
    press_until_gone(&pane, 20, QUESTION, Duration::ZERO, || {
        c.run(&["send", SESSION, "--key", "1"]);
    });
    super::until_answered(&api, &pane, 2, "the file is there");
    assert!(work.join("greenroom-approved").exists());
    c.until_row(&pane, SESSION, "both turns' spend", |r| {
        r["usage"]["output"] == 50 && r["usage"]["cache_read"] == 2_000
    });
}

/// Keeps the question's screen under `target/interop-captures/codex/`.
fn keep_screen(screen: &str) {
    let out = crate::harness::captures("codex");
    std::fs::write(out.join("codex-0.169.0__approval-screen.txt"), screen).unwrap();
}

/// The row of `name` waiting for Codex's command, from its screen alone.
fn waits_for_the_command(c: &Codex, pane: &Pane<'_>, name: &str) {
    let row = c.until_row(pane, name, "the row waiting for the command", |r| {
        r["health"] == "waiting"
    });
    let w = &row["activity"]["waiting_for"];
    assert_eq!(w["command"], "touch greenroom-approved", "{row:#}");
    assert_eq!(w["question"], QUESTION, "{row:#}");
}

#[test]
fn a_codex_started_by_hand_asking_waits_and_send_key_y_approves() {
    let api = StandIn::start();
    api.script([
        Reply::Shell("touch greenroom-approved".into(), Usage::default()),
        Reply::Text("stand-in reply: done by hand".into(), Usage::default()),
    ]);
    let c = Codex::prepare(api.clone());
    let work = c.work();
    user::plain_session(&c.tmux, &c.home(), &work);
    let pane_id = user::first_pane(&c.tmux);
    let pane = Pane::new(&c.tmux, "work");
    user::type_line(&pane, &c.launcher().to_string_lossy());
    Codex::until_ready(&pane);
    Codex::prompt(&pane, "make the file");
    pane.until(60, "Codex's approval question", |s| {
        s.contains(QUESTION) && s.contains("touch greenroom-approved")
    });
    waits_for_the_command(&c, &pane, "codex@work");
    press_until_gone(&pane, 20, QUESTION, Duration::ZERO, || {
        c.run(&["send", &pane_id, "--key", "y"]);
    });
    super::until_answered(&api, &pane, 2, "done by hand");
    assert!(work.join("greenroom-approved").exists());
    c.until_row(&pane, "codex@work", "the row no longer waiting", |r| {
        r["health"] != "waiting"
    });
}
