//! Spend over `/compact` and `/clear` with the real Claude Code: greenroom's
//! figure for the session never goes down, and agrees with Claude Code's own
//! `/cost` (which starts again from zero at `/clear`: the session's total is
//! greenroom's sum of both conversations).

use serde_json::Value;

use super::harness::Claude;
use super::standin::{Reply, StandIn};
use super::tokens;
use crate::it_support::wait_for;

/// `/cost` shows four decimals.
const SHOWN: f64 = 0.000_05 + 1e-9;

/// Claude Code 2.1.328's `/compact` appends a `compact_boundary` to the
/// same transcript and writes nothing of its own API calls there: greenroom
/// keeps what it counted, and once Claude Code writes its `cost-state` (at
/// `/exit`) shows Claude Code's own total, compaction included, the figure
/// its `/cost` showed.
#[test]
fn compact_keeps_the_sessions_spend_and_ends_at_claudes_own_cost() {
    let api = StandIn::start();
    api.script([
        Reply::Text("First answer.".into(), tokens(3_000, 120, 1_500, 2_000)),
        Reply::Text("Compact summary.".into(), tokens(5_000, 300, 0, 1_000)),
        Reply::Text("Compaction aside.".into(), tokens(3_200, 80, 4_000, 300)),
    ]);
    let c = Claude::start(api);
    c.prompt("Answer once.");
    c.pane()
        .until(30, "the first answer", |s| s.contains("First answer."));
    let before = c.until_row(20, "the first answer's usage", |r| {
        r["usage"]["input"].as_u64() == Some(3_000)
    });
    let first = claude_cost(&c);
    assert!((cost(&before) - first).abs() <= SHOWN, "{before:#}");
    c.prompt("/compact");
    wait_for(60, "the compact boundary", || {
        c.records()
            .into_iter()
            .find(|r| r["subtype"] == "compact_boundary")
    });
    let after = c.row();
    assert!(cost(&after) >= cost(&before) - 1e-12, "{after:#}");
    assert!(after["usage"]["input"].as_u64() >= Some(3_000), "{after:#}");
    let compacted = claude_cost(&c);
    assert!(
        compacted > first,
        "compaction's calls cost money: {compacted}"
    );
    c.exit();
    let end = c.until_row(20, "Claude Code's own total", |r| {
        r["usage"]["cost_source"] == "claude-code"
    });
    eprintln!(
        "compact: /cost {first} -> {compacted}; greenroom {} -> {} -> {}",
        cost(&before),
        cost(&after),
        cost(&end)
    );
    assert!((cost(&end) - compacted).abs() <= SHOWN, "{end:#}");
    c.keep("spend-compact");
}

/// `/clear` starts a new conversation (a new session id and transcript;
/// Claude Code writes the old one's `cost-state` and its `/cost` starts
/// from zero): the row keeps what the first conversation spent and adds
/// the second's, live and after exit.
#[test]
fn clear_carries_the_sessions_spend_on() {
    let api = StandIn::start();
    api.script([
        Reply::Text("First answer.".into(), tokens(3_000, 120, 1_500, 2_000)),
        Reply::Text("After clear.".into(), tokens(3_700, 200, 4_500, 90)),
    ]);
    let c = Claude::start(api);
    c.prompt("Answer once.");
    c.pane()
        .until(30, "the first answer", |s| s.contains("First answer."));
    let before = c.until_row(20, "the first answer's usage", |r| {
        r["usage"]["input"].as_u64() == Some(3_000)
    });
    let first = claude_cost(&c);
    let old_id = c.sidecar()["agent_session_id"].clone();
    c.prompt("/clear");
    wait_for(30, "the new conversation reported", || {
        (c.sidecar()["agent_session_id"] != old_id).then_some(())
    });
    let cleared = c.row();
    assert!(cost(&cleared) >= cost(&before) - 1e-12, "{cleared:#}");
    assert_eq!(claude_cost(&c), 0.0, "Claude Code's /cost starts again");
    c.prompt("Answer after clear.");
    c.pane()
        .until(30, "the second answer", |s| s.contains("After clear."));
    let second = claude_cost(&c);
    let live = c.until_row(20, "both conversations' usage", |r| {
        r["usage"]["input"].as_u64() == Some(6_700)
    });
    assert!(
        (cost(&live) - (first + second)).abs() <= 2.0 * SHOWN,
        "{first} + {second}: {live:#}"
    );
    c.exit();
    let states = cost_states(&c);
    assert_eq!(
        states.len(),
        2,
        "one cost-state per conversation: {states:?}"
    );
    let total: f64 = states.iter().sum();
    let end = c.until_row(20, "both of Claude Code's totals", |r| {
        r["usage"]["cost_source"] == "claude-code" && (cost(r) - total).abs() < 1e-9
    });
    eprintln!(
        "clear: /cost {first} then {second}; cost-states {states:?}; greenroom {} -> {} -> {} -> {}",
        cost(&before),
        cost(&cleared),
        cost(&live),
        cost(&end)
    );
    c.keep("spend-clear");
}

/// Claude Code's own `/cost`: the "Estimated cost" its dialog shows.
fn claude_cost(c: &Claude) -> f64 {
    c.prompt("/cost");
    let text = c
        .pane()
        .until(20, "the /cost dialog", |s| s.contains("Estimated cost:"));
    let shown = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Estimated cost:"))
        .and_then(|v| v.trim().trim_start_matches('$').parse().ok())
        .unwrap_or_else(|| panic!("no figure in:\n{text}"));
    c.pane().keys(&["Escape"]);
    c.pane()
        .until(10, "the dialog closed", |s| !s.contains("Esc to close"));
    shown
}

/// The last `cost-state` of each of the session's transcripts.
fn cost_states(c: &Claude) -> Vec<f64> {
    let sidecar = c.sidecar();
    let earlier = sidecar["earlier_transcripts"].as_array().cloned();
    let files = earlier
        .unwrap_or_default()
        .into_iter()
        .filter_map(|p| p.as_str().map(std::path::PathBuf::from))
        .chain([c.transcript()]);
    files
        .filter_map(|f| {
            std::fs::read_to_string(f)
                .unwrap_or_default()
                .lines()
                .rev()
                .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                .filter(|r| r["type"] == "cost-state")
                .find_map(|r| r["totalCostUSD"].as_f64())
        })
        .collect()
}

fn cost(row: &Value) -> f64 {
    row["usage"]["cost_usd"].as_f64().unwrap_or(0.0)
}
