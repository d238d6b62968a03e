//! A Codex greenroom spawned (`greenroom spawn --agent codex`), with
//! greenroom's hooks: its own row is reported by them (active during a
//! turn, idle after Stop), as Codex, with the rollout's session id and
//! totals.

use std::time::Duration;

use super::harness::Codex;
use super::hooked;
use super::standin::{Reply, StandIn, Usage};

const SESSION: &str = "cxh";

#[test]
fn a_spawned_codex_with_hooks_reports_its_turns() {
    let api = StandIn::start();
    let slow = Usage {
        input: 7_000,
        cached: 2_000,
        output: 210,
        reasoning: 60,
    };
    api.script([Reply::Slow(
        Duration::from_secs(4),
        "stand-in reply after a while".into(),
        slow,
    )]);
    let c = Codex::prepare(api.clone());
    hooked::install(&c);
    let pane = c.spawn(SESSION);
    Codex::prompt(&pane, "Take your time.");
    let r = c.until_row(&pane, SESSION, "the turn reported active", |r| {
        r["activity"]["state"] == "active" && r["activity"]["reported"] == true
    });
    assert_eq!(hooked::recorded_agent(&c, &r), "codex", "{r:#}");
    assert_eq!(r["source"], "greenroom", "{r:#}");
    assert!(
        !pane.text().contains("stand-in reply after a while"),
        "the turn still under way"
    );
    super::until_answered(&api, &pane, 1, "stand-in reply after a while");
    let r = c.until_row(&pane, SESSION, "idle after Stop", |r| {
        r["activity"]["state"] == "idle" && r["activity"]["reported"] == true
    });
    let total = hooked::rollouts_total(&c, &r, "Take your time.");
    let r = c.until_row(&pane, SESSION, "the rollout's totals", |r| {
        r["usage"]["output"] == total["output_tokens"]
    });
    hooked::usage_is_the_rollouts(&r, &total);
    assert_eq!(total["input_tokens"], 7_000);
}
