//! An OpenCode greenroom spawned with its first prompt (`greenroom spawn
//! --agent opencode --prompt …`, greenroom's own preset), no plugin: its
//! permission prompt makes the row waiting and `greenroom send --key Enter`
//! allows it; the row's session id, tokens and cost are OpenCode's own (as
//! `opencode export` gives them, from its database); killed and restored,
//! it runs `opencode --session <id>` and the conversation goes on.

use std::time::Duration;

use serde_json::Value;

use super::harness::{MODEL, Opencode};
use super::standin::{Reply, StandIn, Usage};
use crate::harness::press_until_gone;

const SESSION: &str = "oc";
const FIRST: &str = "Remember the word pelican, then make the file.";
const COMMAND: &str = "touch greenroom-spawned";

#[test]
fn a_spawned_opencode_shows_its_own_totals_and_resumes_its_session() {
    let api = StandIn::start();
    let asked = Usage {
        prompt: 1_500,
        cached: 300,
        completion: 40,
        reasoning: 8,
    };
    let noted = Usage {
        prompt: 1_800,
        cached: 1_500,
        completion: 25,
        reasoning: 0,
    };
    api.script([
        Reply::Shell(COMMAND.into(), asked),
        Reply::Text("stand-in reply: noted".into(), noted),
        Reply::Text("stand-in reply: it was pelican".into(), noted),
    ]);
    let c = Opencode::prepare(api.clone());
    let pane = c.spawn(SESSION, FIRST);
    Opencode::until_permission(&pane, COMMAND);
    let row = c.until_row(&pane, SESSION, "the row waiting", |r| {
        r["health"] == "waiting"
    });
    assert_eq!(
        row["activity"]["waiting_for"]["command"], COMMAND,
        "{row:#}"
    );
    press_until_gone(&pane, 30, "Permission required", Duration::ZERO, || {
        c.run(&["send", SESSION, "--key", "Enter"]);
    });
    super::until_answered(&api, &pane, 2, "stand-in reply: noted");
    assert!(c.work().join("greenroom-spawned").exists());

    // OpenCode's own totals, once its session has both turns.
    let row = c.until_row(&pane, SESSION, "the session's id and tokens", |r| {
        r["agent_session_id"].is_string() && r["usage"]["cache_read"] == 1_800
    });
    let id = row["agent_session_id"].as_str().unwrap().to_owned();
    assert!(id.starts_with("ses_"), "{row:#}");
    let info = c.export(&id)["info"].clone();
    assert_eq!(info["id"], id.as_str());
    Opencode::keep(&c.db(), "opencode-1.18.33__spawned-two-turns");
    let t = &info["tokens"];
    let n = |v: &Value| v.as_u64().unwrap();
    let u = &row["usage"];
    assert_eq!(n(&u["input"]), n(&t["input"]), "{row:#}\n{info:#}");
    assert_eq!(
        n(&t["input"]),
        1_500,
        "OpenCode counts input without cache reads"
    );
    assert_eq!(n(&u["cache_read"]), n(&t["cache"]["read"]));
    assert_eq!(n(&u["cache_write"]), n(&t["cache"]["write"]));
    // greenroom's output holds the reasoning; OpenCode's does not.
    assert_eq!(n(&u["output"]), n(&t["output"]) + n(&t["reasoning"]));
    assert_eq!(n(&u["reasoning"]), n(&t["reasoning"]));
    assert_eq!(n(&u["by_model"][MODEL]["input"]), 1_500);
    // OpenCode priced its model (the config's `cost`): its own cost.
    let cost = info["cost"].as_f64().unwrap();
    assert!(cost > 0.0, "{info:#}");
    assert!(
        (u["cost_usd"].as_f64().unwrap() - cost).abs() < 1e-12,
        "{row:#}"
    );
    assert_eq!(u["cost_source"], "opencode");

    c.run(&["kill", SESSION, "--yes"]);
    let said = c.run(&["restore", SESSION]);
    assert_eq!(
        said,
        format!("resumed {SESSION}: opencode --session '{id}'\n")
    );
    // The session, not OpenCode's first screen: its messages and footer.
    pane.until(180, "the resumed conversation", |s| {
        s.contains("stand-in reply: noted") && s.contains("ctrl+p commands")
    });
    Opencode::prompt(&pane, "Which word was it?");
    super::until_answered(&api, &pane, 3, "it was pelican");
    let bodies = api.turn_bodies();
    let messages = bodies.last().unwrap()["messages"].to_string();
    assert!(
        messages.contains(FIRST),
        "the earlier turn is not in: {messages}"
    );
    assert!(messages.contains("stand-in reply: noted"), "{messages}");
    c.until_row(&pane, SESSION, "the same session, three turns", |r| {
        r["agent_session_id"] == id.as_str() && r["usage"]["input"] == 1_800
    });
}
