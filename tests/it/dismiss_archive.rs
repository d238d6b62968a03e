//! Dismissed and archived sessions: where their records go, how they read,
//! and how they come back. The real binary on a private tmux server.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use crate::support;
use crate::support::actions as actions_support;

use std::path::Path;

use actions_support::{Greenroom, server, sidecar_files};
use greenroom::model::Status;
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use support::World;

fn dormant(world: &World, name: &str, cwd: &Path) -> Sidecar {
    let store = SidecarStore::new(world.path("sessions"));
    let mut s = Sidecar::new(name, cwd, "sleep 600", chrono::Utc::now());
    s.tmux_session = Some(format!("gr-{name}"));
    s.status = Status::Dormant;
    store.create(&s).unwrap();
    s
}

#[test]
fn dismiss_does_not_follow_an_archive_symlink() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let cwd = world.path("work");
    std::fs::create_dir_all(&cwd).unwrap();
    let s = dormant(&world, "old", &cwd);
    let elsewhere = world.path("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::remove_dir(world.path("sessions/archive")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, world.path("sessions/archive")).unwrap();

    let err = gr.refused(&["dismiss", "old", "--yes"]);
    assert_eq!(
        err,
        format!(
            "greenroom: {}: is a symbolic link, which greenroom does not follow; make it a folder\n",
            world.path("sessions/archive").display()
        )
    );
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    assert_eq!(
        sidecar_files(&world),
        [world.path(&format!("sessions/{}.json", s.id))]
    );
    // Reading the archive does not follow it either: it is a problem.
    std::fs::write(
        elsewhere.join(format!("{}.json", uuid::Uuid::new_v4())),
        "{}",
    )
    .unwrap();
    let json: serde_json::Value = serde_json::from_str(&gr.ok(&["ls", "--json", "--all"])).unwrap();
    assert_eq!(json["sessions"].as_array().unwrap().len(), 1, "{json}");
    assert!(
        json["problems"].to_string().contains("is a symbolic link"),
        "{json}"
    );
}
