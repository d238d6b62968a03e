//! An OpenCode started by hand in a plain window (a shell, then `opencode`
//! typed in), no plugin: greenroom finds it with its defaults (no preset,
//! no setting), its permission prompt for a bash call makes the row
//! waiting for that command, and `greenroom send --key y` allows it. Its
//! row then shows OpenCode's own session id and totals (from OpenCode's
//! database, as `opencode session list` and `opencode export` say them).

use super::harness::Opencode;
use super::standin::{Reply, StandIn, Usage};
use super::user;
use crate::it_support::{Pane, wait_for};
use serde_json::Value;

const COMMAND: &str = "touch greenroom-by-hand";

#[test]
fn an_opencode_started_by_hand_is_found_waits_and_is_answered() {
    let api = StandIn::start();
    let asked = Usage {
        prompt: 1_200,
        cached: 200,
        completion: 30,
        reasoning: 4,
    };
    let done = Usage {
        prompt: 1_400,
        cached: 1_200,
        completion: 20,
        reasoning: 0,
    };
    api.script([
        Reply::Shell(COMMAND.into(), asked),
        Reply::Text("stand-in reply: done by hand".into(), done),
    ]);
    let c = Opencode::prepare(api.clone());
    let work = c.work();
    user::plain_session(&c.tmux, &c.home(), &work);
    let pane_id = user::first_pane(&c.tmux);
    let pane = Pane::new(&c.tmux, "work");
    user::type_line(&pane, &c.launcher().to_string_lossy());
    Opencode::until_ready(&pane);
    let row = c.until_row(&pane, "opencode@work", "the pane found as opencode", |r| {
        r["id"] == pane_id.as_str()
    });
    assert_eq!(row["source"], "tmux", "{row:#}");
    assert_eq!(row["adopted"]["hooks"], false);
    assert_eq!(row["cwd"], work.to_str().unwrap());
    assert_eq!(c.rows().len(), 1, "one row per agent");

    Opencode::prompt(&pane, "make the file");
    Opencode::until_permission(&pane, COMMAND);
    let row = c.until_row(&pane, "opencode@work", "the row waiting", |r| {
        r["health"] == "waiting"
    });
    let w = &row["activity"]["waiting_for"];
    assert_eq!(w["command"], COMMAND, "{row:#}");
    assert_eq!(w["question"], "Permission required", "{row:#}");
    assert_eq!(w["tool"], "bash", "{row:#}");
    assert!(
        !work.join("greenroom-by-hand").exists(),
        "not before the answer"
    );
    // A key that lands while the prompt is still being drawn is lost:
    // pressed again until the prompt goes (polled, with a deadline).
    wait_for(30, "the prompt answered", || {
        if pane.text().contains("Permission required") {
            c.run(&["send", &pane_id, "--key", "y"]);
            None
        } else {
            Some(())
        }
    });
    super::until_answered(&api, &pane, 2, "done by hand");
    assert!(work.join("greenroom-by-hand").exists());
    c.until_row(&pane, "opencode@work", "the row no longer waiting", |r| {
        r["health"] != "waiting"
    });

    // OpenCode's own session (its only one) and totals, once both turns
    // are in: the row's id and usage are those.
    let row = c.until_row(&pane, "opencode@work", "OpenCode's id and totals", |r| {
        r["agent_session_id"].is_string() && r["usage"]["cache_read"] == 1_400
    });
    let sessions = c.sessions();
    assert_eq!(sessions.len(), 1, "{sessions:#?}");
    let id = sessions[0]["id"].as_str().unwrap();
    assert_eq!(row["agent_session_id"], id, "{row:#}");
    let info = c.export(id)["info"].clone();
    let t = &info["tokens"];
    let n = |v: &Value| v.as_u64().unwrap();
    let u = &row["usage"];
    assert_eq!(n(&u["input"]), n(&t["input"]), "{row:#}\n{info:#}");
    assert_eq!(n(&t["input"]), 1_200, "without the cache reads");
    assert_eq!(n(&u["cache_read"]), n(&t["cache"]["read"]));
    assert_eq!(n(&u["cache_write"]), n(&t["cache"]["write"]));
    // greenroom's output holds the reasoning; OpenCode's does not.
    assert_eq!(n(&u["output"]), n(&t["output"]) + n(&t["reasoning"]));
    assert_eq!(n(&u["reasoning"]), n(&t["reasoning"]));
    let cost = info["cost"].as_f64().unwrap();
    assert!(cost > 0.0, "{info:#}");
    assert!(
        (u["cost_usd"].as_f64().unwrap() - cost).abs() < 1e-12,
        "{row:#}\n{info:#}"
    );
    assert_eq!(u["cost_source"], "opencode");

    // Quit, then resume it by hand by its id: the row names that session
    // from the command line before anything is written to it.
    let id = id.to_owned();
    wait_for(30, "OpenCode quit", || {
        pane.keys(&["C-c"]);
        let gone = !c.rows().iter().any(|r| r["name"] == "opencode@work");
        gone.then_some(())
    });
    let resume = format!("{} --session {id}", c.launcher().to_string_lossy());
    user::type_line(&pane, &resume);
    pane.until(180, "the resumed conversation", |s| {
        s.contains("done by hand") && s.contains("ctrl+p commands")
    });
    let row = c.until_row(&pane, "opencode@work", "the resumed session's id", |r| {
        r["agent_session_id"] == id.as_str()
    });
    assert_eq!(row["usage"]["input"], 1_200, "{row:#}");
    assert_eq!(c.sessions().len(), 1, "resumed, not a new session");
}
