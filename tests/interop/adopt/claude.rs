//! The real Claude Code, started by hand in a plain window, reporting
//! through the user-level hooks `greenroom hooks install` put in its home.

use std::time::Duration;

use super::harness::{Claude, claude_bin};
use super::standin::{Reply, StandIn, Tokens};
use super::user;
use crate::it_support::{Pane, wait_for};

fn tokens(input: u64, output: u64) -> Tokens {
    Tokens {
        input,
        output,
        cache_read: 0,
        cache_write: 0,
    }
}

/// Claude Code in `work`'s first window; the user's other window beside it.
pub(super) fn by_hand(api: StandIn) -> (Claude, String) {
    let c = Claude::prepare(api);
    user::plain_session(&c.tmux, &c.home(), &c.work());
    c.tmux.run(&[
        "new-window",
        "-d",
        "-t",
        "=work:",
        "-n",
        "mine",
        "sleep",
        "600",
    ]);
    let pane = user::first_pane(&c.tmux);
    let p = Pane::new(&c.tmux, "work");
    user::type_line(&p, &c.dir.path().join("run-claude").to_string_lossy());
    p.until(60, "Claude Code's prompt", |s| {
        s.contains("Claude Code v2.1.328") && s.contains("for shortcuts")
    });
    (c, pane)
}

#[test]
fn claude_code_started_by_hand_appears_within_a_second_of_each_hook() {
    assert!(claude_bin().is_file());
    let api = StandIn::start();
    api.script([Reply::Slow(Duration::from_secs(3), tokens(900, 12))]);
    let (c, pane) = by_hand(api.clone());
    let row = || user::row(&c.tmux, &c.home(), &pane);
    let r = user::within_a_second_of(|| c.payloads(), "SessionStart", 1, row, "idle");
    assert_eq!(r["source"], "tmux");
    assert_eq!(r["name"], "claude@work");
    assert_eq!(r["tmux_session"], "work");
    assert_eq!(r["adopted"]["hooks"], true);
    assert_eq!(r["activity"]["reported"], true);
    let started = c
        .payloads()
        .into_iter()
        .find(|p| p["hook_event_name"] == "SessionStart")
        .unwrap();
    assert_eq!(r["agent_session_id"], started["session_id"]);
    assert_eq!(r["cwd"], c.work().to_str().unwrap());

    let p = Pane::new(&c.tmux, "work");
    p.keys(&["-l", "Take your time."]);
    p.until(10, "the prompt typed", |s| s.contains("Take your time."));
    p.keys(&["Enter"]);
    user::within_a_second_of(|| c.payloads(), "UserPromptSubmit", 1, row, "active");
    user::within_a_second_of(|| c.payloads(), "Stop", 1, row, "idle");
    // Usage from its transcript, like any of greenroom's own sessions.
    let r = wait_for(10, "usage from the transcript", || {
        row().filter(|r| r["usage"]["input"].as_u64().unwrap_or(0) >= 900)
    });
    assert!(r["usage"]["output"].as_u64().unwrap() >= 12, "{r:#}");
}

#[test]
fn kill_on_an_adopted_claude_closes_only_its_pane() {
    let (c, pane) = by_hand(StandIn::start());
    let row = || user::row(&c.tmux, &c.home(), &pane);
    user::within_a_second_of(|| c.payloads(), "SessionStart", 1, row, "idle");
    user::ok(&c.tmux, &c.home(), &["kill", &pane, "--yes"]);
    let panes = c.tmux.run(&[
        "list-panes",
        "-s",
        "-t",
        "=work",
        "-F",
        "#{pane_id} #{window_name}",
    ]);
    assert!(!panes.contains(&format!("{pane} ")), "{panes}");
    assert!(
        panes.contains(" mine"),
        "the user's other window stays: {panes}"
    );
    wait_for(10, "the row gone", || row().is_none().then_some(()));
}
