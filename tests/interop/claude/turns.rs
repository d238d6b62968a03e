//! Turns that end without a hook: an interrupt (Esc), and a long tool
//! call that must not be taken for one.

use std::time::{Duration, Instant};

use super::harness::Claude;
use super::standin::{Reply, StandIn};
use super::{allow, health, tokens};
use crate::it_support::wait_for;

/// Esc during a slow reply: no hook fires, yet within seconds greenroom no
/// longer calls the session active, because Claude Code's own record of
/// the session (`sessions/<pid>.json`) turns idle. While the reply is
/// merely slow (nothing on the wire for longer than a screen's pause) the
/// session stays active.
#[test]
fn an_interrupted_turn_is_no_longer_active_within_seconds() {
    let api = StandIn::start();
    api.script([Reply::Slow(Duration::from_secs(120), tokens(900, 10, 0, 0))]);
    let c = Claude::start(api.clone());
    c.prompt("Take your time.");
    c.until_row(20, "the turn active", |r| health(r) == "active");
    wait_for(20, "the slow request", || (api.turns() >= 1).then_some(()));
    // A silent wire for twice the silence window: still active.
    let asked = Instant::now();
    while asked.elapsed() < Duration::from_secs(12) {
        let r = c.row();
        assert_eq!(health(&r), "active", "a slow reply is still a turn: {r:#}");
        std::thread::sleep(Duration::from_millis(500));
    }
    c.pane().keys(&["Escape"]);
    let esc = Instant::now();
    // The turn is over on screen: no more "esc to interrupt" (with nothing
    // streamed yet, Claude Code puts the prompt back in its input box).
    c.pane().until(10, "the turn over on screen", |s| {
        !s.contains("esc to interrupt")
    });
    let r = c.until_row(15, "the session no longer active", |r| {
        health(r) != "active"
    });
    eprintln!(
        "interrupt -> {} after {:.1} s: {:#}",
        health(&r),
        esc.elapsed().as_secs_f64(),
        r["activity"]
    );
    // Claude Code's record says the turn ended, and nobody looked: ready.
    assert_eq!(health(&r), "ready");
    assert_eq!(r["activity"]["state"], "idle");
    assert_eq!(r["activity"]["source"], "claude-registry", "{r:#}");
    let hooks: Vec<String> = c
        .payloads()
        .iter()
        .map(|p| p["hook_event_name"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert!(
        !hooks.iter().any(|h| h == "Stop" || h == "StopFailure"),
        "Claude Code fired no hook on the interrupt: {hooks:?}"
    );
}

/// The silence rule must not end a turn that is merely busy: while an
/// allowed Bash call runs for seconds, Claude Code's screen keeps moving, so
/// the session never turns idle before the turn ends. (It shows waiting
/// until the tool finishes: Claude Code 2.1.328 fires no hook between the
/// operator's "Yes" and PostToolUse, and its permission dialog redraws every
/// second like a working screen, so neither hooks nor tmux tell the two
/// apart.)
#[test]
fn a_long_tool_call_never_ends_the_turn_early() {
    let api = StandIn::start();
    api.script([
        Reply::Bash("sleep 12 && touch slept".into(), tokens(100, 10, 0, 0)),
        Reply::Text("Slept well.".into(), tokens(100, 10, 0, 0)),
    ]);
    let c = Claude::start(api);
    c.prompt("Sleep a while.");
    c.pane().until(30, "the permission question", |s| {
        s.contains("Do you want to proceed?")
    });
    allow(&c);
    let started = Instant::now();
    while !c.work().join("slept").exists() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the tool never finished"
        );
        let r = c.row();
        assert!(
            matches!(health(&r), "waiting" | "active"),
            "a running tool is not the end of the turn: {r:#}\n{}",
            c.pane().text()
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    assert!(
        started.elapsed() >= Duration::from_secs(10),
        "the tool ran its time"
    );
    c.pane()
        .until(30, "the follow-up", |s| s.contains("Slept well."));
    // Its turn ended by its hook's word, and nobody looked: ready.
    c.until_row(20, "ready after Stop", |r| {
        health(r) == "ready" && r["activity"]["reported"] == true
    });
}
