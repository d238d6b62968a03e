//! Interop with Agent Orchestrator's own metadata writer (ao-core 0.2.0):
//! a session moved through its lifecycle by AO's code shows each state as
//! AO spells it, with its branch, issue, PR link and summary, and the health
//! AO's judgement implies, in the live catalog and in `ls --json`; AO's own
//! archive takes it off the live list.

mod writer;

use serde_json::{Value, json};
use writer::AoProject;

use crate::it_support::{TmuxServer, World};
use crate::maestro::{Live, ls_json, named, sessions};

/// The health each state must show; `None`: from tmux (the session is live
/// and quiet or busy, so active or idle).
const LIFECYCLE: [(&str, Option<&str>); 8] = [
    ("working", None),
    ("pr_open", None),
    ("needs_input", Some("waiting")),
    ("stuck", Some("stuck")),
    ("ci_failed", Some("errored")),
    ("review_pending", None),
    ("merged", Some("done")),
    ("killed", Some("killed")),
];

const PR: &str = "https://github.com/o/my-app/pull/42";

fn check(row: &Value, state: &str, health: Option<&str>, pr: bool, when: &str) {
    assert_eq!(row["source"], "agent-orchestrator", "{when}: {row:#}");
    let ao = &row["agent_orchestrator"];
    assert_eq!(ao["status"], state, "{when}: {row:#}");
    assert_eq!(ao["issue"], "INT-7", "{when}");
    assert_eq!(ao["summary"], "Add the export API", "{when}");
    assert_eq!(row["branch"], "feat/INT-7", "{when}");
    if pr {
        assert_eq!(ao["pr"], PR, "{when}");
    }
    match health {
        Some(h) => assert_eq!(row["health"], h, "{when}: {row:#}"),
        None => assert!(
            row["health"] == "active" || row["health"] == "idle",
            "{when}: from tmux: {row:#}"
        ),
    }
}

#[test]
fn a_session_moved_through_its_lifecycle_by_aos_own_writer_shows_every_state() {
    let world = World::new();
    let tmux = TmuxServer::new();
    let ao = AoProject::new(&world.path("ao"), &world.path("aoconf"));
    let tmux_name = ao.tmux_name("ma", 1);
    tmux.spawn(&tmux_name, &["sleep", "100000"]);
    let mut live = Live::start(&world.config(Some(&tmux), &[]));

    let dir = ao.write(
        "ma-1",
        &json!({"worktree": world.path("aoconf/repos/my-app"), "branch": "feat/INT-7",
                "status": "spawning", "tmuxName": tmux_name, "issue": "INT-7",
                "summary": "Add the export API", "project": "my-app",
                "agent": "claude-code", "createdAt": "2026-12-01T09:00:00.000Z"}),
    );
    assert!(dir.starts_with(world.path("ao")), "{}", dir.display());
    live.until(10, "the spawning session", |doc| {
        sessions(doc)
            .iter()
            .any(|s| s["agent_orchestrator"]["status"] == "spawning")
    });
    for (i, (state, health)) in LIFECYCLE.iter().enumerate() {
        let mut update = json!({"status": state});
        if *state == "pr_open" {
            update["pr"] = json!(PR);
        }
        ao.update("ma-1", &update);
        let pr = i >= 1;
        let doc = live.until(10, state, |doc| {
            named(doc, "ma-1")["agent_orchestrator"]["status"] == *state
        });
        check(
            named(&doc, "ma-1"),
            state,
            *health,
            pr,
            &format!("{state} (live)"),
        );
        let listed = ls_json(&world, &tmux, false, &[]);
        check(
            named(&listed, "ma-1"),
            state,
            *health,
            pr,
            &format!("{state} (ls --json)"),
        );
        assert_eq!(named(&listed, "ma-1")["tmux_session"], tmux_name.as_str());
    }

    // AO's cleanup archives the record: off the live list, kept with --all.
    ao.delete("ma-1");
    let archive = dir.join("archive");
    assert!(std::fs::read_dir(&archive).unwrap().count() == 1);
    let doc = live.until(10, "the archived session to go", |doc| {
        sessions(doc).is_empty()
    });
    assert!(doc["problems"].as_array().unwrap().is_empty(), "{doc:#}");
    assert!(sessions(&ls_json(&world, &tmux, false, &[])).is_empty());
    let all = ls_json(&world, &tmux, true, &[]);
    assert_eq!(
        named(&all, "ma-1")["agent_orchestrator"]["status"],
        "killed"
    );
}
