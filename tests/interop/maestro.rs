//! Interop with Maestro's own state server and hooks (vendored 1.4.0): every
//! step of an orchestration, as the server reports it with
//! `get_session_status`, is what greenroom shows, both in `ls --json` of the
//! built binary and in the live catalog the dashboard draws from.

mod observe;
mod server;
mod workspaces;

pub use observe::{Live, ls_json, ls_json_default_hooks, named, sessions};

use chrono::Utc;
use greenroom::config::Config;
use greenroom::model::Activity;
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use serde_json::{Value, json};
use server::{MaestroServer, run_hook};

use crate::it_support::{TmuxServer, World};

/// greenroom's `orchestration` says what the server's status says.
fn assert_same(server: &Value, session: &Value, when: &str) {
    let o = &session["orchestration"];
    assert!(o.is_object(), "{when}: no orchestration in {session:#}");
    for key in [
        "session_id",
        "status",
        "workflow_mode",
        "current_phase",
        "total_phases",
    ] {
        assert_eq!(o[key], server[key], "{when}: {key}; greenroom {o:#}");
    }
    let theirs = server["phases"].as_array().unwrap();
    let ours = o["phases"].as_array().unwrap();
    assert_eq!(ours.len(), theirs.len(), "{when}: phases");
    for (a, b) in ours.iter().zip(theirs) {
        assert_eq!(a["id"], b["id"], "{when}");
        assert_eq!(a["name"], b["name"], "{when}");
        assert_eq!(a["status"], b["status"], "{when}: phase {}", b["id"]);
        assert_eq!(a["agents"][0], b["agent"], "{when}: phase {}", b["id"]);
    }
    let t = &server["token_usage"];
    let u = &o["token_usage"];
    assert_eq!(u["input"], t["total_input"], "{when}: input tokens");
    assert_eq!(u["output"], t["total_output"], "{when}: output tokens");
    assert_eq!(u["cached"], t["total_cached"], "{when}: cached tokens");
}

/// One greenroom session in `workspace`, live in tmux, whose agent last
/// reported it is idle (as Gemini CLI's AfterAgent hook does).
pub fn idle_session(
    store: &SidecarStore,
    tmux: &TmuxServer,
    name: &str,
    ws: &std::path::Path,
) -> Sidecar {
    let now = Utc::now();
    let mut s = Sidecar::new(name, ws, "gemini", now);
    s.agent = Some("gemini".into());
    s.tmux_session = Some(format!("gr-{name}"));
    s.agent_session_id = Some(format!("gem-{name}"));
    s.activity = Some(Activity::Idle);
    s.activity_since = Some(now);
    s.activity_reported_at = Some(now);
    store.create(&s).unwrap();
    tmux.spawn(&format!("gr-{name}"), &["sleep", "100000"]);
    s
}

fn config(world: &World, tmux: &TmuxServer) -> Config {
    world.config(Some(tmux), &[])
}

/// Both views agree with the server, and with each other.
fn check(
    live: &mut Live,
    world: &World,
    tmux: &TmuxServer,
    server: &mut MaestroServer,
    when: &str,
) -> Value {
    let status = server.status();
    assert_eq!(status["exists"], true, "{when}: {status:#}");
    let phase = status["current_phase"].clone();
    let phases = status["phases"].clone();
    let row = live.until(10, when, |doc| {
        let o = &named(doc, "m1")["orchestration"];
        o["current_phase"] == phase
            && o["phases"]
                .as_array()
                .zip(phases.as_array())
                .is_some_and(|(a, b)| a.iter().zip(b).all(|(a, b)| a["status"] == b["status"]))
    });
    assert_same(&status, named(&row, "m1"), &format!("{when} (live)"));
    let doc = ls_json(world, tmux, false, &[]);
    assert_same(&status, named(&doc, "m1"), &format!("{when} (ls --json)"));
    assert_eq!(sessions(&doc).len(), 1, "{when}: one row: {doc:#}");
    status
}

#[test]
fn an_orchestration_through_maestros_own_server_is_shown_at_every_step() {
    let world = World::new();
    let tmux = TmuxServer::new();
    let ws = world.path("ws");
    std::fs::create_dir_all(&ws).unwrap();
    let store = SidecarStore::new(world.path("sessions"));
    idle_session(&store, &tmux, "m1", &ws);
    let mut live = Live::start(&config(&world, &tmux));
    live.until(10, "the session", |doc| sessions(doc).len() == 1);

    let mut server = MaestroServer::start(&ws);
    server.call("initialize_workspace", json!({}));
    assert_eq!(server.status()["exists"], false);
    let phases = json!([
        {"id": 1, "name": "Design", "agent": "architect", "blocked_by": [], "parallel": false},
        {"id": 2, "name": "API", "agent": "coder", "blocked_by": [1], "parallel": true},
        {"id": 3, "name": "Docs", "agent": "technical_writer", "blocked_by": [1], "parallel": true},
        {"id": 4, "name": "Review", "agent": "code_reviewer", "blocked_by": [2, 3], "parallel": false},
    ]);
    server.call(
        "create_session",
        json!({"session_id": "2026-12-01-interop", "task": "Add the export API",
               "phases": phases, "workflow_mode": "standard", "task_complexity": "medium"}),
    );
    check(&mut live, &world, &tmux, &mut server, "created");

    // Maestro's own hook records the agent the prompt delegates to.
    run_hook(
        "before-agent",
        Some(&world.path("maestro-hooks")),
        &json!({"session_id": "gem-m1", "cwd": ws, "hook_event_name": "BeforeAgent",
                "prompt": "agent: architect\nDesign the export API."}),
    );
    let doc = live.until(10, "the active agent", |doc| {
        named(doc, "m1")["orchestration"]["active_agent"] == "architect"
    });
    assert_eq!(
        named(&doc, "m1")["health"],
        "active",
        "a phase runs: {doc:#}"
    );
    let doc = ls_json(&world, &tmux, false, &[]);
    assert_eq!(
        named(&doc, "m1")["orchestration"]["active_agent"],
        "architect"
    );

    server.call(
        "transition_phase",
        json!({"session_id": "2026-12-01-interop", "completed_phase_id": 1,
               "next_phase_ids": [2, 3], "batch_id": "batch-1",
               "token_usage": {"input": 1200, "output": 300, "cached": 100}}),
    );
    let status = check(
        &mut live,
        &world,
        &tmux,
        &mut server,
        "parallel phases started",
    );
    assert_eq!(status["phases"][1]["status"], "in_progress");
    assert_eq!(status["phases"][2]["status"], "in_progress");

    server.call(
        "update_session",
        json!({"session_id": "2026-12-01-interop", "execution_mode": "parallel",
               "current_batch": "batch-1"}),
    );
    check(&mut live, &world, &tmux, &mut server, "updated");

    server.call(
        "transition_phase",
        json!({"session_id": "2026-12-01-interop", "completed_phase_id": 2,
               "token_usage": {"input": 800, "output": 200, "cached": 0}}),
    );
    check(
        &mut live,
        &world,
        &tmux,
        &mut server,
        "one parallel phase done",
    );
    server.call(
        "transition_phase",
        json!({"session_id": "2026-12-01-interop", "completed_phase_id": 3,
               "next_phase_id": 4, "token_usage": {"input": 500, "output": 100, "cached": 50}}),
    );
    check(&mut live, &world, &tmux, &mut server, "review started");
    server.call(
        "transition_phase",
        json!({"session_id": "2026-12-01-interop", "completed_phase_id": 4,
               "token_usage": {"input": 300, "output": 60, "cached": 10}}),
    );
    let mut last = check(&mut live, &world, &tmux, &mut server, "every phase done");

    // Maestro's default on completion: archive. The session keeps showing
    // the orchestration it finished, done while its agent is idle.
    let archived = server.call(
        "archive_session",
        json!({"session_id": "2026-12-01-interop"}),
    );
    assert_eq!(archived["success"], true);
    assert_eq!(server.status()["exists"], false);
    last["status"] = json!("completed");
    let doc = live.until(10, "the finished orchestration", |doc| {
        named(doc, "m1")["orchestration"]["archived"] == true
    });
    for (doc, view) in [
        (doc, "live"),
        (ls_json(&world, &tmux, false, &[]), "ls --json"),
    ] {
        let row = named(&doc, "m1");
        assert_same(&last, row, &format!("archived ({view})"));
        // Done while its agent runs, and nobody looked: ready for you.
        assert_eq!(row["health"], "ready", "{view}: {row:#}");
        assert_eq!(row["source"], "greenroom");
        assert_eq!(sessions(&doc).len(), 1, "{view}: no detached row: {doc:#}");
        let t = &row["orchestration"]["token_usage"];
        assert_eq!(
            (t["input"].as_u64(), t["output"].as_u64()),
            (Some(2800), Some(660))
        );
    }
    let all = ls_json(&world, &tmux, true, &[]);
    assert_eq!(
        sessions(&all).len(),
        1,
        "--all: no duplicate maestro row: {all:#}"
    );

    // A new orchestration replaces the finished one.
    server.call(
        "create_session",
        json!({"session_id": "2026-12-01-next", "task": "Next",
               "phases": [{"id": 1, "name": "Only", "agent": "coder"}]}),
    );
    let doc = live.until(10, "the next orchestration", |doc| {
        named(doc, "m1")["orchestration"]["session_id"] == "2026-12-01-next"
    });
    assert_eq!(named(&doc, "m1")["health"], "active");
    assert_eq!(named(&doc, "m1")["orchestration"]["archived"], false);
}

/// Maestro 1.4.0's hooks write `/tmp/maestro-hooks` when MAESTRO_HOOKS_DIR
/// is unset (later releases a per-user folder): greenroom, also left to its
/// defaults, reads the agent there.
#[test]
fn the_hook_state_of_maestro_140s_default_folder_is_read() {
    let world = World::new();
    let tmux = TmuxServer::new();
    let ws = world.path("ws");
    std::fs::create_dir_all(&ws).unwrap();
    let store = SidecarStore::new(world.path("sessions"));
    let s = idle_session(&store, &tmux, "m1", &ws);
    let id = format!("greenroom-interop-{}", s.id.simple());
    store
        .update(s.id, std::time::Duration::from_secs(1), |s| {
            s.agent_session_id = Some(id.clone());
            true
        })
        .unwrap();
    let mut server = MaestroServer::start(&ws);
    server.call(
        "create_session",
        json!({"session_id": "s-default-hooks", "task": "t",
               "phases": [{"id": 1, "name": "Only", "agent": "tester"}]}),
    );
    run_hook(
        "before-agent",
        None,
        &json!({"session_id": id, "cwd": ws, "hook_event_name": "BeforeAgent",
                "prompt": "agent: tester\nRun the tests."}),
    );
    let folder = std::path::Path::new("/tmp/maestro-hooks").join(&id);
    let doc = ls_json_default_hooks(&world, &tmux);
    let _ = std::fs::remove_dir_all(&folder);
    assert_eq!(
        named(&doc, "m1")["orchestration"]["active_agent"],
        "tester",
        "{doc:#}"
    );
}
