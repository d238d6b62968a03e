//! Dismissed and archived sessions: where their records go, how they read,
//! and how they come back. The real binary on a private tmux server.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use crate::support;
use crate::support::actions as actions_support;

use std::path::Path;

use actions_support::{Greenroom, has_session, path_str, server, sidecar_files};
use greenroom::model::Status;
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use support::{World, wait_for};

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

fn ls_json(gr: &Greenroom, all: bool) -> serde_json::Value {
    let args: &[&str] = if all {
        &["ls", "--json", "--all"]
    } else {
        &["ls", "--json"]
    };
    serde_json::from_str(&gr.ok(args)).unwrap()
}

fn json_row<'a>(json: &'a serde_json::Value, name: &str) -> Option<&'a serde_json::Value> {
    json["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
}

#[test]
fn a_session_archived_at_start_up_reads_archived_and_restore_brings_it_back() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let cwd = world.path("gone");
    std::fs::create_dir_all(&cwd).unwrap();
    // It ran before; its folder vanished while nothing watched.
    let store = SidecarStore::new(world.path("sessions"));
    let mut s = Sidecar::new("homeless", &cwd, "sleep 600", chrono::Utc::now());
    s.tmux_session = Some("gr-homeless".into());
    store.create(&s).unwrap();
    std::fs::remove_dir(&cwd).unwrap();
    let config = world.config(Some(&tmux), &[]);
    let mut engine = greenroom::engine::Engine::load(&config, false, |_| {}).unwrap();
    assert_eq!(engine.recover().archived.len(), 1);

    // Archived everywhere: not a live row, not counted, flagged with --all.
    assert!(json_row(&ls_json(&gr, false), "homeless").is_none());
    assert_eq!(gr.ok(&["status"]), "\n");
    let all = ls_json(&gr, true);
    let row = json_row(&all, "homeless").unwrap();
    assert_eq!(row["status"], "Archived", "{row}");
    assert_eq!(row["archived"], true);
    assert_eq!(row["health"], "dormant");
    let table = gr.ok(&["ls", "--all"]);
    let line = table.lines().find(|l| l.contains("homeless")).unwrap();
    assert!(line.contains("Archived"), "{table}");

    // Restore says which folder is missing, and the record stays archived.
    let err = gr.refused(&["restore", "homeless"]);
    assert_eq!(
        err,
        format!("greenroom: folder {} does not exist\n", cwd.display())
    );
    assert!(sidecar_files(&world).is_empty());
    assert!(!has_session(&tmux, "gr-homeless"));
    std::fs::create_dir_all(&cwd).unwrap();
    let out = gr.ok(&["restore", "homeless"]);
    assert_eq!(
        out,
        "restarted homeless: sleep 600\nits record is back from the archive\n"
    );
    assert!(has_session(&tmux, "gr-homeless"));
    assert_eq!(sidecar_files(&world), [store.path_for(s.id)]);
    let row = json_row(&ls_json(&gr, false), "homeless").cloned().unwrap();
    assert_eq!(row["status"], "Running");
    assert_eq!(row["archived"], false);
    assert_eq!(store.read(s.id).unwrap().status, Status::Running);
}

#[test]
fn a_dismissed_worktree_session_comes_back_with_its_worktree() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let repo = actions_support::git_repo(&world.path("src/api"));
    gr.ok(&[
        "spawn",
        "-n",
        "wt",
        "--cwd",
        path_str(&repo),
        "--worktree",
        "fix",
        "--",
        "sleep 600",
    ]);
    gr.ok(&["kill", "wt", "--yes"]);
    gr.ok(&["dismiss", "wt", "--yes"]);
    let worktree = world.path("src/api-fix");
    std::fs::remove_dir_all(&worktree).unwrap();
    let err = gr.refused(&["dismiss", "wt", "--yes"]);
    assert!(err.contains("no session matches"), "{err}");

    let out = gr.ok(&["restore", "wt"]);
    assert!(
        out.contains("its worktree was gone and was made again"),
        "{out}"
    );
    assert!(out.contains("its record is back from the archive"), "{out}");
    assert!(worktree.is_dir());
    assert!(has_session(&tmux, "gr-wt"));
}

#[test]
fn dismiss_clears_the_dead_pane_so_the_name_can_be_used_again() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let cwd = world.path("work");
    std::fs::create_dir_all(&cwd).unwrap();
    gr.crashed("crash", &cwd);
    assert!(has_session(&tmux, "gr-crash"), "the dead pane is kept");
    gr.ok(&["dismiss", "crash", "--yes"]);
    assert!(
        !has_session(&tmux, "gr-crash"),
        "dismiss took the dead pane"
    );
    let out = gr.ok(&[
        "spawn",
        "-n",
        "crash",
        "--cwd",
        path_str(&cwd),
        "--",
        "sleep 600",
    ]);
    assert!(out.starts_with("spawned crash in "), "{out}");

    // Both read right: the old one archived, the new one running.
    let all = ls_json(&gr, true);
    let mut crashes: Vec<(String, bool)> = all["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["name"] == "crash")
        .map(|s| {
            (
                s["status"].as_str().unwrap().to_owned(),
                s["archived"].as_bool().unwrap(),
            )
        })
        .collect();
    crashes.sort();
    assert_eq!(
        crashes,
        [("Archived".to_owned(), true), ("Running".to_owned(), false)]
    );
    // A name that is live and archived means the live one.
    let err = gr.refused(&["restore", "crash"]);
    assert!(err.contains("crash is running"), "{err}");
}

#[test]
fn the_dashboard_follows_an_archived_record_back_out_of_the_archive() {
    let world = World::new();
    let tmux = server();
    let cwd = world.path("work");
    std::fs::create_dir_all(&cwd).unwrap();
    let store = SidecarStore::new(world.path("sessions"));
    store.ensure_dir().unwrap();
    // A record dismissed more than once carries a time stamp in its name.
    let mut s = Sidecar::new("again", &cwd, "sleep 600", chrono::Utc::now());
    s.tmux_session = Some("gr-again".into());
    let archived = world.path(&format!(
        "sessions/archive/{}.20260101T000000.000Z.json",
        s.id
    ));
    std::fs::write(&archived, serde_json::to_string(&s).unwrap()).unwrap();

    let config = world.config(Some(&tmux), &[]);
    let mut engine = greenroom::engine::Engine::load(&config, false, |_| {}).unwrap();
    engine.poll_tmux();
    assert!(engine.rows(chrono::Utc::now()).is_empty());
    assert!(engine.follow_sidecar_archive());
    let rows = engine.rows(chrono::Utc::now());
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (rows[0].status.as_str(), rows[0].archived),
        ("Archived", true)
    );

    let t = greenroom::tmux::Tmux::new(config.tmux_socket.clone());
    greenroom::ops::restore(&t, &config, &rows[0]).unwrap();
    engine.apply_changes(vec![archived.clone(), store.path_for(s.id)]);
    engine.poll_tmux();
    let rows = engine.rows(chrono::Utc::now());
    let seen: Vec<(&str, bool)> = rows
        .iter()
        .map(|r| (r.status.as_str(), r.archived))
        .collect();
    assert_eq!(seen, [("Running", false)], "no stale archived row");
}

#[test]
fn spawn_clears_a_dead_pane_an_older_dismiss_left_behind_and_nothing_else() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let cwd = world.path("work");
    std::fs::create_dir_all(&cwd).unwrap();
    for name in ["gr-old", "gr-other"] {
        tmux.spawn(name, &["sh", "-c", "read line; exit 3"]);
        tmux.run(&[
            "set-option",
            "-w",
            "-t",
            &format!("={name}:"),
            "remain-on-exit",
            "on",
        ]);
        tmux.run(&["send-keys", "-t", &format!("={name}:"), "Enter"]);
    }
    wait_for(15, "both panes to die", || {
        let dead = tmux.run(&["list-panes", "-a", "-F", "#{session_name} #{pane_dead}"]);
        (dead.contains("gr-old 1") && dead.contains("gr-other 1")).then_some(())
    });
    // gr-old was a session of greenroom's own, dismissed; gr-other is not.
    let store = SidecarStore::new(world.path("sessions"));
    let s = dormant(&world, "old", &cwd);
    store.archive(s.id).unwrap();

    let out = gr.ok(&[
        "spawn",
        "-n",
        "old",
        "--cwd",
        path_str(&cwd),
        "--",
        "sleep 600",
    ]);
    assert!(out.starts_with("spawned old in "), "{out}");
    let err = gr.refused(&[
        "spawn",
        "-n",
        "other",
        "--cwd",
        path_str(&cwd),
        "--",
        "sleep 600",
    ]);
    assert_eq!(
        err,
        "greenroom: tmux session gr-other already exists; choose another name\n"
    );
    assert!(has_session(&tmux, "gr-other"), "not ours: left alone");
}
