//! Cost: greenroom's figure against Claude Code's own `cost-state`.

use serde_json::Value;

use super::harness::Claude;
use super::standin::{Reply, StandIn};
use super::{allow, health, tokens};
use crate::it_support::wait_for;

/// Four API calls (two texts, a Bash tool_use the operator allows, its
/// follow-up) on Claude Code's default model: greenroom's figure while the
/// session runs (from the transcript and the price table) is within 1 % of
/// the `totalCostUSD` Claude Code records at exit, and after exit greenroom
/// shows Claude Code's own figure.
#[test]
fn cost_matches_claude_codes_own_cost_state() {
    let api = StandIn::start();
    api.script([
        Reply::Text("First answer.".into(), tokens(3_000, 120, 1_500, 2_000)),
        Reply::Bash(
            "touch greenroom-was-here".into(),
            tokens(3_200, 80, 4_000, 300),
        ),
        Reply::Text("Done touching.".into(), tokens(3_500, 60, 4_200, 150)),
        Reply::Text("Last answer.".into(), tokens(3_700, 200, 4_500, 90)),
    ]);
    let c = Claude::start(api.clone());
    c.prompt("Answer once.");
    c.pane()
        .until(30, "the first answer", |s| s.contains("First answer."));
    c.prompt("Touch a file.");
    c.pane().until(30, "the permission question", |s| {
        s.contains("Do you want to proceed?")
    });
    c.until_row(20, "waiting for permission", |r| health(r) == "waiting");
    allow(&c);
    c.pane()
        .until(30, "the tool's follow-up", |s| s.contains("Done touching."));
    assert!(
        c.work().join("greenroom-was-here").exists(),
        "the Bash call ran"
    );
    c.prompt("Answer again.");
    c.pane()
        .until(30, "the last answer", |s| s.contains("Last answer."));
    assert_eq!(api.pending(), 0, "every scripted turn was asked for");
    let calls: Vec<String> = api
        .requests()
        .iter()
        .map(|r| {
            format!(
                "{} {} {:?} stream={} turn={}",
                r.method, r.path, r.model, r.stream, r.turn
            )
        })
        .collect();
    eprintln!("requests: {calls:#?}");
    // What the binary asks for: its default model, streamed, on /v1/messages.
    for r in api.requests().iter().filter(|r| r.turn) {
        assert_eq!(r.method, "POST");
        assert!(r.path.starts_with("/v1/messages"), "{r:?}");
        assert_eq!(r.model.as_deref(), Some("claude-opus-5-5"), "{r:?}");
        assert!(r.stream, "{r:?}");
    }
    let live = c.until_row(20, "the usage of four calls", |r| {
        r["usage"]["input"].as_u64() == Some(13_400)
    });
    let model = live["usage"]["by_model"]
        .as_object()
        .and_then(|m| m.keys().next().cloned());
    assert_eq!(
        model.as_deref(),
        Some("claude-opus-5-5"),
        "the default model"
    );
    let live_cost = cost(&live).unwrap_or_else(|| panic!("a cost while live: {live:#}"));

    c.exit();
    let oracle = cost_state(&c);
    let theirs = oracle["totalCostUSD"].as_f64().expect("totalCostUSD");
    eprintln!("cost: greenroom live {live_cost:.6} USD, Claude Code's cost-state {theirs:.6} USD");
    assert!(
        (live_cost - theirs).abs() <= theirs * 0.01,
        "greenroom {live_cost} vs Claude Code {theirs}: {oracle:#}"
    );
    let after = c.until_row(20, "Claude Code's own total", |r| {
        r["usage"]["cost_source"] == "claude-code"
    });
    assert!((cost(&after).unwrap() - theirs).abs() < 1e-9, "{after:#}");
    c.keep("cost-state");
}

/// `claude --resume` after `/exit`: Claude Code carries its running total
/// on, and its next `cost-state` covers both runs; greenroom shows that
/// figure (its own sum of the second run's messages is added only until the
/// new record arrives).
#[test]
fn a_resumed_session_shows_claude_codes_running_total() {
    let api = StandIn::start();
    api.script([
        Reply::Text("Before the break.".into(), tokens(2_000, 100, 0, 500)),
        Reply::Text("After the break.".into(), tokens(2_500, 150, 1_000, 0)),
    ]);
    let c = Claude::start(api);
    c.prompt("First run.");
    c.pane()
        .until(30, "the first answer", |s| s.contains("Before the break."));
    c.exit();
    let first = cost_state(&c)["totalCostUSD"].as_f64().unwrap();
    let id = c.sidecar()["agent_session_id"].as_str().unwrap().to_owned();
    let script = c.dir.path().join("run-claude");
    c.pane()
        .until(30, "Claude Code gone", |s| !s.contains("for shortcuts"));
    c.tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "again",
        "-x",
        "80",
        "-y",
        "24",
        "-c",
        c.work().to_str().unwrap(),
        &format!("{} --resume {id}", script.display()),
    ]);
    let again = crate::it_support::Pane::new(&c.tmux, "again");
    again.until(60, "the resumed prompt", |s| s.contains("for shortcuts"));
    again.keys(&["-l", "Second run."]);
    again.until(10, "typed", |s| s.contains("Second run."));
    again.keys(&["Enter"]);
    again.until(30, "the second answer", |s| s.contains("After the break."));
    again.keys(&["-l", "/exit"]);
    again.until(10, "typed", |s| s.contains("/exit"));
    again.keys(&["Enter"]);
    let files: Vec<_> = std::fs::read_dir(c.transcript().parent().unwrap())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    let totals = wait_for(30, "a second cost-state", || {
        let totals: Vec<f64> = files
            .iter()
            .flat_map(|f| {
                std::fs::read_to_string(f)
                    .unwrap_or_default()
                    .lines()
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            })
            .filter_map(|l| serde_json::from_str::<Value>(&l).ok())
            .filter(|r| r["type"] == "cost-state")
            .filter_map(|r| r["totalCostUSD"].as_f64())
            .collect();
        totals
            .iter()
            .any(|t| (t - first).abs() > 1e-12)
            .then_some(totals)
    });
    eprintln!(
        "resume: {} transcript file(s), cost-states {totals:?}",
        files.len()
    );
    let last = *totals.last().unwrap();
    assert!(last > first, "the running total carries on: {totals:?}");
    let r = c.until_row(20, "the running total", |r| {
        cost(r).is_some_and(|x| (x - last).abs() < 1e-9)
    });
    assert_eq!(r["usage"]["cost_source"], "claude-code");
}

/// The cost-state record Claude Code writes when the session ends.
fn cost_state(c: &Claude) -> Value {
    c.records()
        .into_iter()
        .rev()
        .find(|r| r["type"] == "cost-state")
        .expect("a cost-state record")
}

fn cost(row: &Value) -> Option<f64> {
    row["usage"]["cost_usd"].as_f64()
}
