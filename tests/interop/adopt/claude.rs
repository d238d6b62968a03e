//! The real Claude Code, started by hand in a plain window, reporting
//! through the user-level hooks `greenroom hooks install` put in its home.

use std::time::Duration;

use super::harness::{Claude, claude_bin};
use super::standin::{Reply, StandIn, Tokens};
use super::user;
use crate::it_support::{Pane, wait_for};
use serde_json::Value;

pub(super) fn tokens(input: u64, output: u64) -> Tokens {
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
    c.by_hand(&p);
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

/// Types `text` into Claude Code's prompt; keys that land while it is
/// still redrawing its first screen are lost, so they are typed again until
/// the text shows (polled, with a deadline).
pub(super) fn type_until_shown(p: &Pane<'_>, text: &str) {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !p.text().contains(text) {
        assert!(
            std::time::Instant::now() < deadline,
            "{text:?} never showed:\n{}",
            p.text()
        );
        p.keys(&["-l", text]);
        let typed = std::time::Instant::now();
        while typed.elapsed() < Duration::from_secs(3) && !p.text().contains(text) {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// What `claude agents --json` says of the one Claude Code running.
pub(super) fn claude_agents(c: &Claude) -> Value {
    let out = std::process::Command::new(c.dir.path().join("run-claude"))
        .args(["agents", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "claude agents: {out:?}");
    let all: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(all.as_array().map(Vec::len), Some(1), "{all:#}");
    all[0].clone()
}

/// Claude Code with no greenroom hooks at all: its own session record
/// (`~/.claude/sessions/<pid>.json`) gives the row what `claude agents
/// --json` says: waiting at the permission prompt, idle after Esc, and its
/// session id.
#[test]
fn claude_code_without_hooks_is_what_claude_agents_says() {
    let api = StandIn::start();
    api.script([Reply::Bash("touch x".into(), tokens(900, 12))]);
    let c = Claude::prepare(api.clone());
    c.without_hooks();
    user::plain_session(&c.tmux, &c.home(), &c.work());
    let pane = user::first_pane(&c.tmux);
    let p = Pane::new(&c.tmux, "work");
    c.by_hand(&p);
    let row = || user::row(&c.tmux, &c.home(), &pane);

    type_until_shown(&p, "Make x.");
    p.keys(&["Enter"]);
    p.until(30, "the permission dialog", |s| {
        s.contains("Do you want to proceed?")
    });
    let agent = wait_for(10, "claude agents: waiting", || {
        Some(claude_agents(&c)).filter(|a| a["status"] == "waiting")
    });
    let r = wait_for(5, "the row waiting, from the record", || {
        row().filter(|r| r["health"] == "waiting")
    });
    assert_eq!(r["agent_session_id"], agent["sessionId"], "{r:#}");
    assert_eq!(r["activity"]["source"], "claude-registry", "{r:#}");
    assert_eq!(r["activity"]["detail"], agent["waitingFor"], "{r:#}");
    assert_eq!(r["adopted"]["hooks"], false, "{r:#}");

    // Esc refuses the call; Claude Code says idle, and so does the row.
    p.keys(&["Escape"]);
    wait_for(10, "claude agents: idle", || {
        Some(claude_agents(&c)).filter(|a| a["status"] == "idle")
    });
    let r = wait_for(5, "the row idle, from the record", || {
        row().filter(|r| r["activity"]["state"] == "idle")
    });
    assert_eq!(r["activity"]["source"], "claude-registry", "{r:#}");
    assert_eq!(r["agent_session_id"], agent["sessionId"], "{r:#}");
}
