//! An agent cannot take the user's inotify watches: a work tree whose top
//! folder holds more subfolders than greenroom watches per tree is watched
//! at its top only (and its git folder), greenroom says so once, and a
//! change to the index still reaches the row.

use std::path::Path;
use std::sync::mpsc::Receiver;
use std::time::Duration;

use chrono::Utc;
use greenroom::engine::{Change, Engine};
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use greenroom::watch::MAX_TREE_CHILDREN;

use crate::support::World;
use crate::support::git::{git_in, repo_with};
use crate::support::live::{Live, row_until};

/// Applies whatever the watcher has sent until it has been quiet a moment.
fn drain(engine: &mut Engine, rx: &Receiver<Change>) {
    while let Ok(first) = rx.recv_timeout(Duration::from_millis(300)) {
        let mut batch = vec![first];
        batch.extend(rx.try_iter());
        engine.apply_changes(batch);
    }
}

fn notes_about(engine: &Engine, root: &Path) -> usize {
    engine
        .problems()
        .iter()
        .filter(|p| p.path == root && p.error.contains("subfolders"))
        .count()
}

fn subfolders(root: &Path, from: usize, to: usize) {
    for n in from..to {
        std::fs::create_dir(root.join(format!("d{n}"))).unwrap();
    }
}

#[test]
fn a_work_tree_with_more_subfolders_than_the_cap_is_watched_at_its_top_and_says_so_once() {
    let world = World::new();
    let root = repo_with(&world.path("api"), &[("src/lib.rs", "fn a() {}\n")]);
    subfolders(&root, 0, MAX_TREE_CHILDREN + 50);
    let store = SidecarStore::new(world.path("sessions"));
    store.ensure_dir().unwrap();
    store
        .create(&Sidecar::new("api", &root, "sleep 600", Utc::now()))
        .unwrap();
    let Live { mut engine, rx } = Live::start(&world.config(None, &[]));
    row_until(&mut engine, &rx, 20, "api", "a clean read", |r| {
        r.changes.as_ref().is_some_and(|c| c.compact().is_empty())
    });
    let watches = engine.os_watches_under(&root);
    assert!(
        watches <= MAX_TREE_CHILDREN,
        "{watches} watches in the tree"
    );
    assert_eq!(notes_about(&engine, &root), 1, "{:#?}", engine.problems());

    // More folders come: still no watch for them, and nothing said again.
    subfolders(&root, MAX_TREE_CHILDREN + 50, MAX_TREE_CHILDREN + 80);
    drain(&mut engine, &rx);
    let watches = engine.os_watches_under(&root);
    assert!(
        watches <= MAX_TREE_CHILDREN,
        "{watches} watches in the tree"
    );
    assert_eq!(notes_about(&engine, &root), 1, "{:#?}", engine.problems());

    // The index is still followed: staging reaches the row.
    std::fs::write(root.join("new.rs"), "fn b() {}\n").unwrap();
    git_in(&root, &["add", "new.rs"]);
    row_until(&mut engine, &rx, 20, "api", "the staged file", |r| {
        r.changes.as_ref().is_some_and(|c| c.staged.files == 1)
    });
}

#[test]
fn a_work_tree_that_grows_past_the_cap_gives_its_watches_back() {
    let world = World::new();
    let root = repo_with(&world.path("api"), &[("src/lib.rs", "fn a() {}\n")]);
    let store = SidecarStore::new(world.path("sessions"));
    store.ensure_dir().unwrap();
    store
        .create(&Sidecar::new("api", &root, "sleep 600", Utc::now()))
        .unwrap();
    let Live { mut engine, rx } = Live::start(&world.config(None, &[]));
    row_until(&mut engine, &rx, 20, "api", "a clean read", |r| {
        r.changes.as_ref().is_some_and(|c| c.compact().is_empty())
    });
    // The top folder, `src`, `.git`.
    assert_eq!(engine.os_watches_under(&root), 3);
    assert_eq!(notes_about(&engine, &root), 0);

    subfolders(&root, 0, MAX_TREE_CHILDREN + 50);
    drain(&mut engine, &rx);
    let watches = engine.os_watches_under(&root);
    assert!(
        watches <= MAX_TREE_CHILDREN,
        "{watches} watches in the tree"
    );
    assert_eq!(notes_about(&engine, &root), 1, "{:#?}", engine.problems());

    std::fs::write(root.join("src/lib.rs"), "fn b() {}\n").unwrap();
    git_in(&root, &["add", "src/lib.rs"]);
    row_until(&mut engine, &rx, 20, "api", "the staged file", |r| {
        r.changes.as_ref().is_some_and(|c| c.staged.files == 1)
    });
}
