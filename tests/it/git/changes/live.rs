//! The engine follows a session's work tree: read off the loop when it
//! appears, again when a file in its top folders is saved, when the index
//! or HEAD changes, and when its pane moves.

use chrono::Utc;
use greenroom::engine::Engine;
use greenroom::model::Session;
use greenroom::sources::sidecar::{Sidecar, SidecarStore};

use super::{git_in, repo_with};
use crate::support::World;
use crate::support::live::Live;

fn counts(r: &Session) -> Option<String> {
    r.changes.as_ref().map(|c| c.compact())
}

#[test]
fn a_sessions_work_tree_is_read_and_followed() {
    let world = World::new();
    let root = repo_with(
        &world.path("api"),
        &[("src/lib.rs", "fn a() {}\n"), ("README", "r\n")],
    );
    let store = SidecarStore::new(world.path("sessions"));
    store.ensure_dir().unwrap();
    store
        .create(&Sidecar::new("api", &root, "sleep 600", Utc::now()))
        .unwrap();
    let mut live = Live::start(&world.config(None, &[]));

    let r = live.row("api", "a clean read", |r| counts(r).as_deref() == Some(""));
    assert_eq!(r.branch.as_deref(), Some("main"));

    // A save in a direct subfolder of the top folder is seen by the watcher.
    std::fs::write(root.join("src/lib.rs"), "fn a() {}\nfn b() {}\n").unwrap();
    let r = live.row("api", "the saved file", |r| {
        counts(r).as_deref() == Some("~1")
    });
    assert_eq!(r.changes.as_ref().unwrap().unstaged.added, 1);

    // Staging touches the index only.
    git_in(&root, &["add", "src/lib.rs"]);
    let r = live.row("api", "the staged file", |r| {
        r.changes.as_ref().is_some_and(|c| c.staged.files == 1)
    });
    assert_eq!(r.changes.as_ref().unwrap().unstaged.files, 0);

    // A commit moves HEAD's branch: the tree is clean again.
    git_in(&root, &["commit", "-q", "-m", "b"]);
    live.row("api", "the commit", |r| counts(r).as_deref() == Some(""));

    // A new branch checked out is seen through HEAD.
    git_in(&root, &["checkout", "-q", "-b", "feat"]);
    live.row("api", "the new branch", |r| {
        r.branch.as_deref() == Some("feat")
    });
}

#[test]
fn a_folder_outside_git_has_no_changes() {
    let world = World::new();
    let plain = world.path("api");
    std::fs::create_dir_all(&plain).unwrap();
    let store = SidecarStore::new(world.path("sessions"));
    store.ensure_dir().unwrap();
    store
        .create(&Sidecar::new("api", &plain, "sleep 600", Utc::now()))
        .unwrap();
    let engine = Engine::start(&world.config(None, &[]), false, |_| {}).unwrap();
    let rows = engine.rows(Utc::now());
    assert!(rows.iter().all(|r| r.changes.is_none()));
    assert_eq!(engine.git_reads(), 0);
}

#[test]
fn a_broken_repository_is_a_problem() {
    let world = World::new();
    let broken = world.path("api");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(broken.join(".git"), "gitdir: /nowhere\n").unwrap();
    let store = SidecarStore::new(world.path("sessions"));
    store.ensure_dir().unwrap();
    store
        .create(&Sidecar::new("api", &broken, "sleep 600", Utc::now()))
        .unwrap();
    let mut live = Live::start(&world.config(None, &[]));
    let r = live.row("api", "the read", |r| r.changes.is_some());
    assert!(
        r.changes
            .unwrap()
            .problem
            .as_deref()
            .unwrap()
            .contains("not a git folder")
    );
    let problems = live.engine.problems();
    assert!(
        problems
            .iter()
            .any(|p| p.path == broken && p.error.starts_with("git: ")),
        "{problems:?}"
    );
}
