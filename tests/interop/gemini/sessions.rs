//! Hooks, activity and usage with the real CLI: `greenroom hooks install
//! --agent gemini` writes hooks Gemini CLI runs; "Allow execution?" shows
//! as waiting with the command, the end of the turn as idle, and the
//! tokens of Gemini's own session file as the row's usage.

use serde_json::Value;

use super::cli::{MODEL, Setup};
use super::standin::USAGE;

/// What one stand-in reply costs in greenroom's terms (see
/// `src/sources/gemini.rs`): input less cached plus tool, output plus
/// thoughts, cached as cache reads.
fn per_call() -> (u64, u64, u64) {
    let [prompt, candidates, cached, thoughts, tool] = USAGE;
    (prompt - cached + tool, candidates + thoughts, cached)
}

fn usage_of(row: &Value) -> Option<(u64, u64, u64)> {
    let u = row.get("usage").filter(|u| !u.is_null())?;
    Some((
        u["input"].as_u64()?,
        u["output"].as_u64()?,
        u["cache_read"].as_u64()?,
    ))
}

fn times((i, o, c): (u64, u64, u64), n: u64) -> (u64, u64, u64) {
    (i * n, o * n, c * n)
}

/// The session id Gemini wrote in the first line of its session file.
fn file_session_id(path: &std::path::Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    first["sessionId"].as_str().unwrap().to_owned()
}

#[test]
fn hooks_show_waiting_on_allow_execution_then_idle_with_usage() {
    let setup = Setup::new();
    setup.install_hooks();
    let settings = std::fs::read_to_string(setup.gemini_dir().join("settings.json")).unwrap();
    assert!(
        settings.contains("AfterAgent") && settings.contains(" report"),
        "{settings}"
    );
    setup.spawn("gem");
    let gr = setup.greenroom();

    // SessionStart told greenroom Gemini's own session id.
    let row = setup.until_row("gem", 20, "the session id", |r| {
        r["agent_session_id"].is_string()
    });
    let files = setup.session_files();
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(row["agent_session_id"], file_session_id(&files[0]));

    gr.ok(&["send", "gem", "RUN: touch made-by-tool"]);
    setup.until_pane("gem", 20, "Allow execution?", |p| {
        p.contains("Allow execution")
    });
    let row = setup.until_row("gem", 10, "waiting on the command", |r| {
        r["health"] == "waiting"
    });
    assert_eq!(row["activity"]["state"], "awaiting_input");
    assert_eq!(row["activity"]["detail"], "touch made-by-tool");
    assert_eq!(row["activity"]["reported"], true);

    // Allow once (the first choice is selected): the tool runs, the model
    // answers, the turn ends.
    setup.tmux.run(&["send-keys", "-t", "=gr-gem:", "Enter"]);
    let made = setup.project().join("made-by-tool");
    crate::it_support::wait_for(20, "the tool to run", || made.exists().then_some(()));
    let row = setup.until_row("gem", 20, "idle with the usage of every call", |r| {
        let calls = setup.api.model_calls().len() as u64;
        r["activity"]["state"] == "idle" && usage_of(r) == Some(times(per_call(), calls))
    });
    let calls = setup.api.model_calls().len() as u64;
    assert_eq!(calls, 2, "the function call, then the answer");
    // Its turn ended by its hook's word, and nobody looked: ready.
    assert_eq!(row["health"], "ready");
    let by_model = &row["usage"]["by_model"];
    assert_eq!(by_model.as_object().unwrap().len(), 1, "{by_model}");
    assert_eq!(by_model[MODEL]["input"], per_call().0 * calls);
    assert!(row["usage"]["cost_usd"].as_f64().unwrap() > 0.0, "priced");
    // The dashboard shows it like a Claude session's: the detail pane's usage.
    let line = setup.world.greenroom_line(&setup.tmux.name);
    let dash = crate::harness::dashboard(&setup.tmux, setup.world.dir.path(), &line);
    dash.until(20, "the usage in the detail pane", |s| {
        s.contains("gem") && s.contains("out 84 · cache 400 read, 0 written · $0.00")
    });
    dash.keys(&["q"]);
    if let Ok(dir) = std::env::var("GREENROOM_GEMINI_CAPTURE") {
        std::fs::copy(&files[0], std::path::Path::new(&dir).join("session.jsonl")).unwrap();
    }

    // `/clear` starts a new conversation: greenroom follows it, the row
    // stays a running session, and its spend carries on: the new file's
    // usage adds to the first conversation's (money spent stays spent).
    let first = row["agent_session_id"].clone();
    gr.ok(&["send", "gem", "/clear"]);
    let row = setup.until_row("gem", 20, "the new conversation", |r| {
        r["agent_session_id"] != first && r["agent_session_id"].is_string()
    });
    assert_eq!(row["status"], "Running", "{row:#}");
    // Gemini redraws and resets its input once the new conversation runs.
    setup.until_pane("gem", 20, "the cleared screen", |p| {
        p.contains("Type your message") && !p.contains("stand-in reply")
    });
    gr.ok(&["send", "gem", "after clear"]);
    setup.until_asked("gem", "after clear");
    setup.until_row("gem", 20, "both conversations' usage", |r| {
        r["activity"]["state"] == "idle" && usage_of(r) == Some(times(per_call(), calls + 1))
    });
}
