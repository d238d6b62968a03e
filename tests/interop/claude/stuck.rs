//! An API call that hangs: Claude Code's spinner and timer tick on, no
//! hook fires and nothing is written, so the agent itself is silent.

use std::time::{Duration, Instant};

use super::harness::Claude;
use super::standin::{Reply, StandIn};
use super::{health, tokens};
use crate::it_support::wait_for;

/// How long the stand-in holds its answer back: well past
/// `stuck_after_seconds` (5 s here), short enough for the suite.
const HANG: Duration = Duration::from_secs(20);

/// With `stuck_after_seconds = 5`, the hung turn reads stuck within
/// seconds of the agent's last word (its UserPromptSubmit hook) while
/// Claude Code's screen still moves, and its why line names the silence;
/// when the answer comes at last, the turn ends idle as its Stop hook says.
#[test]
fn a_hung_api_call_is_stuck_while_the_spinner_ticks() {
    let api = StandIn::start();
    api.script([Reply::Slow(HANG, tokens(900, 10, 0, 0))]);
    let c = Claude::start(api.clone());
    std::fs::write(
        c.dir.path().join("config.toml"),
        "stuck_after_seconds = 5\n",
    )
    .unwrap();
    c.prompt("Take your time.");
    let asked = Instant::now();
    c.until_row(20, "the turn active", |r| health(r) == "active");
    wait_for(20, "the hanging request", || {
        (api.turns() >= 1).then_some(())
    });
    let r = c.until_row(15, "the session stuck", |r| health(r) == "stuck");
    let stuck_after = asked.elapsed();
    eprintln!(
        "stuck after {:.1} s: {:#}",
        stuck_after.as_secs_f64(),
        r["activity"]
    );
    assert!(stuck_after < HANG, "stuck before the answer came");
    let why = r["activity"]["why"].as_str().unwrap_or_default();
    assert!(why.starts_with("no word from the agent for "), "{why}");
    assert!(why.ends_with(": stuck after 5s"), "{why}");
    // Claude Code's screen still moves: the spinner and timer of the turn.
    let before = c.pane().text();
    assert!(before.contains("esc to interrupt"), "{before}");
    c.pane().until(5, "the screen moving", |s| s != before);
    let r = c.row();
    assert_eq!(
        health(&r),
        "stuck",
        "still stuck while the screen moves: {r:#}"
    );
    // The answer at last: the turn ends, as the Stop hook says.
    c.pane()
        .until(40, "the slow answer", |s| s.contains("Slowly, at last."));
    // Its turn ended by its hook's word, and nobody looked: ready.
    c.until_row(20, "ready after Stop", |r| {
        health(r) == "ready" && r["activity"]["reported"] == true
    });
}
