//! A Codex started by hand in a plain window (a shell, then `codex`
//! typed in), no hooks: greenroom finds it from the poll alone, and once a
//! turn is answered its row shows the thread id and the running totals of
//! the rollout Codex holds open.

use super::harness::{Codex, MODEL};
use super::standin::{Reply, StandIn, Usage};
use super::user;
use crate::it_support::{Pane, wait_for};

#[test]
fn a_codex_started_by_hand_is_found_as_codex() {
    let api = StandIn::start();
    let usage = Usage {
        input: 9_000,
        cached: 2_500,
        output: 320,
        reasoning: 40,
    };
    api.script([Reply::Text("stand-in reply by hand".into(), usage)]);
    let c = Codex::prepare(api.clone());
    user::plain_session(&c.tmux, &c.home(), &c.work());
    let pane_id = user::first_pane(&c.tmux);
    let pane = Pane::new(&c.tmux, "work");
    user::type_line(&pane, &c.launcher().to_string_lossy());
    Codex::until_ready(&pane);
    let row = c.until_row(&pane, "codex@work", "the pane found as codex", |r| {
        r["id"] == pane_id.as_str()
    });
    assert_eq!(row["source"], "tmux", "{row:#}");
    assert_eq!(row["adopted"]["hooks"], false);
    assert_eq!(row["cwd"], c.work().to_str().unwrap());
    // No rollout before the first prompt: nothing to show yet.
    assert_eq!(row["agent_session_id"], serde_json::Value::Null, "{row:#}");
    assert_eq!(row["usage"], serde_json::Value::Null, "{row:#}");
    Codex::prompt(&pane, "say hello");
    super::until_answered(&api, &pane, 1, "stand-in reply by hand");
    assert_eq!(c.rows().len(), 1, "one row per agent");
    let (path, total) = wait_for(30, "Codex's rollout with its total", || {
        let r = c.rollouts().into_iter().next()?;
        let total = Codex::last_total(&r)?;
        (total["output_tokens"] == 320).then_some((r, total))
    });
    let n = |k: &str| total[k].as_u64().unwrap();
    let row = c.until_row(&pane, "codex@work", "the rollout's id and totals", |r| {
        r["usage"]["output"].as_u64() == Some(n("output_tokens"))
    });
    let meta = Codex::records(&path).into_iter().next().unwrap();
    assert_eq!(meta["type"], "session_meta");
    assert_eq!(row["agent_session_id"], meta["payload"]["id"], "{row:#}");
    super::hooked::usage_is_the_rollouts(&row, &total);
    let u = &row["usage"];
    assert_eq!(u["cache_write"].as_u64(), Some(0));
    assert_eq!(u["by_model"][MODEL]["cache_read"], n("cached_input_tokens"));
    // Priced as greenroom's own Codex rows are: no price for this model.
    assert_eq!(u["cost_usd"], serde_json::Value::Null);
    assert_eq!(u["unpriced_models"], serde_json::json!([MODEL]));
}
