//! A Codex greenroom spawned (the `codex` preset), no hooks: its row's
//! usage is the rollout's own last running total, priced where the model
//! has a price and "no price" where it has none.

use super::harness::{Codex, MODEL};
use super::standin::{Reply, StandIn, Usage};
use crate::it_support::wait_for;

const SESSION: &str = "cx";

#[test]
fn a_spawned_codex_shows_the_rollouts_own_totals() {
    let api = StandIn::start();
    let first = Usage {
        input: 12_000,
        cached: 3_000,
        output: 400,
        reasoning: 150,
    };
    let second = Usage {
        input: 13_500,
        cached: 11_000,
        output: 250,
        reasoning: 0,
    };
    api.script([
        Reply::Text("stand-in reply one".into(), first),
        Reply::Text("stand-in reply two".into(), second),
    ]);
    let c = Codex::prepare(api.clone());
    let pane = c.spawn(SESSION);
    Codex::prompt(&pane, "say one");
    super::until_answered(&api, &pane, 1, "stand-in reply one");
    Codex::prompt(&pane, "say two");
    super::until_answered(&api, &pane, 2, "stand-in reply two");
    let rollout = wait_for(30, "Codex's rollout with two totals", || {
        let r = c.rollouts().into_iter().next()?;
        let total = Codex::last_total(&r)?;
        (total["output_tokens"] == 650).then_some((r, total))
    });
    let (path, total) = rollout;
    Codex::keep(&path, "codex-0.169.0__two-turns");
    let n = |k: &str| total[k].as_u64().unwrap();
    let row = c.until_row(&pane, SESSION, "the rollout's totals", |r| {
        r["usage"]["output"].as_u64() == Some(n("output_tokens"))
    });
    super::hooked::usage_is_the_rollouts(&row, &total);
    let u = &row["usage"];
    assert_eq!(u["cache_write"].as_u64(), Some(0));
    assert_eq!(n("input_tokens"), 25_500, "Codex adds the turns up itself");
    assert_eq!(u["by_model"][MODEL]["cache_read"], 14_000);
    // No price for Codex's model in greenroom's table: said, not guessed.
    assert_eq!(u["cost_usd"], serde_json::Value::Null);
    assert_eq!(u["unpriced_models"], serde_json::json!([MODEL]));
    // With a price in config.toml, the cost is the rollout's tokens priced.
    let config = c.dir.path().join("config.toml");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str(&format!(
        "\n[prices.{MODEL:?}]\ninput = 2.0\noutput = 10.0\ncache_write = 0.0\ncache_read = 0.5\n"
    ));
    std::fs::write(&config, text).unwrap();
    let row = c.until_row(&pane, SESSION, "the priced row", |r| {
        r["usage"]["cost_usd"].is_number()
    });
    let want = (11_500.0 * 2.0 + 650.0 * 10.0 + 14_000.0 * 0.5) / 1_000_000.0;
    let cost = row["usage"]["cost_usd"].as_f64().unwrap();
    assert!((cost - want).abs() < 1e-9, "{cost} != {want}");
    // The session id is the rollout's own (what `codex resume` takes).
    let meta = Codex::records(&path).into_iter().next().unwrap();
    assert_eq!(meta["type"], "session_meta");
    assert_eq!(row["agent_session_id"], meta["payload"]["id"], "{row:#}");
}
