//! Twelve workspaces whose state folders do not exist yet, each given an
//! orchestration by its own Maestro server at the same moment: the server
//! creates the folder and writes the state file milliseconds later, so the
//! watcher must read each folder once it is watched. All twelve show.

use serde_json::json;

use super::{Live, idle_session, ls_json, named, sessions};
use crate::it_support::{TmuxServer, World};
use crate::maestro::server::MaestroServer;
use greenroom::sources::sidecar::SidecarStore;

const WORKSPACES: usize = 12;

#[test]
fn twelve_workspaces_created_and_written_at_once_all_show() {
    let world = World::new();
    let tmux = TmuxServer::new();
    let store = SidecarStore::new(world.path("sessions"));
    let names: Vec<String> = (0..WORKSPACES).map(|i| format!("w{i}")).collect();
    for name in &names {
        let ws = world.path(name);
        std::fs::create_dir_all(&ws).unwrap();
        idle_session(&store, &tmux, name, &ws);
    }
    let mut live = Live::start(&world.config(Some(&tmux), &[]));
    live.until(10, "every session", |doc| sessions(doc).len() == WORKSPACES);

    // Servers start slowly (node); start them all first, then let each
    // create its workspace and session at once.
    let mut servers: Vec<MaestroServer> = names
        .iter()
        .map(|n| MaestroServer::start(&world.path(n)))
        .collect();
    std::thread::scope(|scope| {
        for (i, server) in servers.iter_mut().enumerate() {
            scope.spawn(move || {
                server.call("initialize_workspace", json!({}));
                server.call(
                    "create_session",
                    json!({"session_id": format!("s-{i}"), "task": "t",
                           "phases": [{"id": 1, "name": "Only", "agent": "coder"}]}),
                );
            });
        }
    });
    let doc = live.until(10, "all twelve orchestrations", |doc| {
        names
            .iter()
            .all(|n| named(doc, n)["orchestration"]["session_id"].is_string())
    });
    for (i, n) in names.iter().enumerate() {
        assert_eq!(
            named(&doc, n)["orchestration"]["session_id"],
            format!("s-{i}")
        );
    }
    let listed = ls_json(&world, &tmux, false, &[]);
    assert!(
        names
            .iter()
            .all(|n| named(&listed, n)["orchestration"]["session_id"].is_string())
    );
}
