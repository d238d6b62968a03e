//! How a Claude Code started by hand ends, with the real Claude Code
//! typed into a shell: killed with `kill -9` (no SessionEnd: the row says
//! it died and keeps what it spent), then started again in the same pane
//! and ended with `/exit` (the row says so; the pane's spend counts both
//! conversations). Every row stays until dismissed; a snooze holds until
//! the agent's next state.

use serde_json::Value;

use super::claude::{by_hand, tokens, type_until_shown};
use super::standin::{Reply, StandIn};
use super::user;
use crate::it_support::{Pane, wait_for};

fn cost(row: &Value) -> f64 {
    row["usage"]["cost_usd"].as_f64().unwrap_or(0.0)
}

/// The pid of the program the pane's shell runs in front (Claude Code:
/// `run-claude` execs it).
fn agent_pid(c: &super::harness::Claude, pane: &str) -> String {
    let shell = c
        .tmux
        .run(&["display-message", "-p", "-t", pane, "#{pane_pid}"])
        .trim()
        .to_owned();
    let out = std::process::Command::new("pgrep")
        .args(["-P", &shell])
        .output()
        .unwrap();
    let pids = String::from_utf8_lossy(&out.stdout).into_owned();
    let pid = pids.lines().next().unwrap_or_default().to_owned();
    assert!(!pid.is_empty(), "no process under the shell {shell}");
    pid
}

#[test]
fn a_hand_started_claude_killed_then_exited_is_shown_as_it_ended() {
    let api = StandIn::start();
    api.script([
        Reply::Text("First answer.".into(), tokens(2_000, 40)),
        Reply::Text("Second answer.".into(), tokens(3_000, 60)),
    ]);
    let (c, pane) = by_hand(api);
    let row = || user::row(&c.tmux, &c.home(), &pane);
    let p = Pane::new(&c.tmux, "work");
    type_until_shown(&p, "Answer once.");
    p.keys(&["Enter"]);
    p.until(30, "the first answer", |s| s.contains("First answer."));
    let first = wait_for(20, "the first conversation's usage", || {
        row().filter(|r| r["usage"]["input"].as_u64() >= Some(2_000))
    });
    let spent = cost(&first);
    assert!(spent > 0.0, "{first:#}");

    // kill -9: Claude Code says nothing; the pane is back at its shell.
    let killed = std::process::Command::new("kill")
        .args(["-9", &agent_pid(&c, &pane)])
        .status()
        .unwrap();
    assert!(killed.success());
    let died = wait_for(15, "the row to say the agent died", || {
        row().filter(|r| r["health"] == "errored")
    });
    assert_eq!(died["status"], "Exited", "{died:#}");
    let how = died["activity"]["detail"].as_str().unwrap_or_default();
    assert!(
        how.starts_with("died without ending its session"),
        "{died:#}"
    );
    assert!(
        (cost(&died) - spent).abs() < 1e-9,
        "its spend stays: {died:#}"
    );

    // Claude Code again in the same pane, one turn, then /exit. Killed,
    // it left the terminal raw (Enter is no newline to the shell), as a
    // person finds it: they reset it first.
    p.keys(&["-l", "stty sane; clear"]);
    p.keys(&["C-j"]);
    p.until(10, "the shell's clean screen", |s| {
        !s.contains("First answer.")
    });
    // Started again in the same pane: a new conversation.
    c.by_hand(&p);
    let again = wait_for(20, "the new conversation's row", || {
        row().filter(|r| r["status"] == "Running")
    });
    assert!(cost(&again) >= spent, "the pane's spend goes on: {again:#}");
    assert!(
        again["snoozed_until"].is_null(),
        "a new agent wakes it: {again:#}"
    );
    type_until_shown(&p, "Answer again.");
    p.keys(&["Enter"]);
    p.until(30, "the second answer", |s| s.contains("Second answer."));
    let both = wait_for(20, "both conversations' usage", || {
        row().filter(|r| r["usage"]["input"].as_u64() >= Some(5_000))
    });
    let total = cost(&both);
    assert!(total > spent, "{both:#}");
    type_until_shown(&p, "/exit");
    p.keys(&["Enter"]);
    let ended = wait_for(20, "the row to say it ended", || {
        row().filter(|r| r["status"] == "Exited" && r["health"] == "exited")
    });
    assert_eq!(ended["activity"]["detail"], "agent session ended (/exit)");
    assert!(cost(&ended) >= total - 1e-9, "{ended:#}");

    // Dismissed: the row goes; its record is archived, not deleted.
    user::ok(&c.tmux, &c.home(), &["dismiss", &pane, "--yes"]);
    assert!(row().is_none());
}
