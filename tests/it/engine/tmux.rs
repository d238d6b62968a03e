//! The catalog against a real tmux server on a private socket: recovery,
//! a server that dies, a pane that exits with a status.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use crate::support;

use std::path::Path;

use chrono::Utc;
use greenroom::engine::Engine;
use greenroom::model::{Health, Session, Status};
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use support::{TmuxServer, World, wait_for};

fn sidecar(store: &SidecarStore, name: &str, cwd: &Path) -> Sidecar {
    let mut s = Sidecar::new(name, cwd, "sleep 600", Utc::now());
    s.tmux_session = Some(format!("gr-{name}"));
    store.create(&s).unwrap();
    s
}

fn row<'a>(rows: &'a [Session], name: &str) -> &'a Session {
    rows.iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("no row {name}"))
}

fn engine(world: &World, tmux: &TmuxServer) -> Engine {
    Engine::start(&world.config(Some(tmux), &[]), false, |_| {}).unwrap()
}

#[test]
fn recovery_adopts_live_sessions_marks_the_rest_dormant_and_archives_the_homeless() {
    let world = World::new();
    let tmux = TmuxServer::new();
    let store = SidecarStore::new(world.path("sessions"));
    let home = world.path("work");
    std::fs::create_dir_all(&home).unwrap();
    let live = sidecar(&store, "live", &home);
    let mut orphan = sidecar(&store, "orphan", &home);
    orphan.status = Status::Running;
    let gone_dir = world.path("deleted-worktree");
    std::fs::create_dir_all(&gone_dir).unwrap();
    let homeless = sidecar(&store, "homeless", &gone_dir);
    std::fs::remove_dir_all(&gone_dir).unwrap();
    tmux.spawn("gr-live", &["sleep", "600"]);
    // A session that is not ours, with a name that prefixes ours.
    tmux.spawn("gr-live0", &["sleep", "600"]);

    let mut engine = engine(&world, &tmux);
    let report = engine.recover();
    assert_eq!(report.adopted, 1);
    assert_eq!(report.dormant, 1);
    assert_eq!(report.archived.len(), 1);
    assert!(report.archived[0].starts_with(store.archive_dir()));

    assert_eq!(store.read(live.id).unwrap().status, Status::Running);
    assert_eq!(store.read(orphan.id).unwrap().status, Status::Dormant);
    assert!(
        store.read(homeless.id).is_err(),
        "homeless sidecar left the live folder"
    );
    assert_eq!(store.load_archived().0.len(), 1);

    let rows = engine.rows(Utc::now());
    assert_eq!(rows.len(), 2);
    assert_eq!(row(&rows, "live").status, Status::Running);
    assert_eq!(row(&rows, "orphan").status, Status::Dormant);
    assert_eq!(row(&rows, "orphan").health, Health::Dormant);
}

#[test]
fn killing_the_server_makes_every_session_dormant_in_one_poll() {
    let world = World::new();
    let tmux = TmuxServer::new();
    let store = SidecarStore::new(world.path("sessions"));
    let cwd = world.path("w");
    std::fs::create_dir_all(&cwd).unwrap();
    let a = sidecar(&store, "a", &cwd);
    let b = sidecar(&store, "b", &cwd);
    tmux.spawn("gr-a", &["sleep", "600"]);
    tmux.spawn("gr-b", &["sleep", "600"]);
    let mut engine = engine(&world, &tmux);
    engine.poll_tmux();
    let rows = engine.rows(Utc::now());
    assert!(
        rows.iter().all(|r| r.status == Status::Running),
        "{rows:#?}"
    );

    tmux.kill();
    // kill-server returns before the server is gone; wait until it is.
    wait_for(10, "the server to go", || {
        let out = tmux.cmd().arg("list-sessions").output().unwrap();
        (!out.status.success()).then_some(())
    });
    assert!(
        engine.poll_tmux(),
        "the first poll after must report a change"
    );
    let rows = engine.rows(Utc::now());
    for r in &rows {
        assert_eq!(r.status, Status::Dormant, "{}", r.name);
        assert_eq!(r.health, Health::Dormant, "{}", r.name);
    }
    assert_eq!(store.read(a.id).unwrap().status, Status::Dormant);
    assert_eq!(store.read(b.id).unwrap().status, Status::Dormant);
    // Polling a dead server again changes nothing and does not fail.
    assert!(!engine.poll_tmux());
}

#[test]
fn a_pane_that_exits_with_status_three_is_exited_and_errored() {
    let world = World::new();
    let tmux = TmuxServer::new();
    let store = SidecarStore::new(world.path("sessions"));
    let cwd = world.path("w");
    std::fs::create_dir_all(&cwd).unwrap();
    let s = sidecar(&store, "failing", &cwd);
    // The command waits for a line, so remain-on-exit is set before it exits.
    // A background child keeps the pty open a moment after `exit 3`: tmux
    // 3.3 loses the exit status when it sees the pty close before it reaps
    // the process, which is tmux's race, not greenroom's.
    tmux.spawn("gr-failing", &["sh", "-c", "read line; sleep 1 & exit 3"]);
    tmux.run(&[
        "set-option",
        "-w",
        "-t",
        "=gr-failing:",
        "remain-on-exit",
        "on",
    ]);
    let mut engine = engine(&world, &tmux);
    engine.poll_tmux();
    assert_eq!(
        row(&engine.rows(Utc::now()), "failing").status,
        Status::Running
    );

    tmux.run(&["send-keys", "-t", "=gr-failing:", "Enter"]);
    // tmux may mark the pane dead a moment before it has reaped the exit
    // status, so wait for both.
    let rows = wait_for(10, "the pane to die with its status", || {
        engine.poll_tmux();
        let rows = engine.rows(Utc::now());
        let r = row(&rows, "failing");
        (r.status == Status::Exited && r.health == Health::Errored).then_some(rows)
    });
    let r = row(&rows, "failing");
    assert_eq!(r.health, Health::Errored);
    let stored = store.read(s.id).unwrap();
    assert_eq!(stored.status, Status::Exited);
    assert_eq!(stored.exit_status, Some(3));
}

#[test]
fn tmux_not_installed_or_no_server_are_normal_states() {
    let world = World::new();
    let store = SidecarStore::new(world.path("sessions"));
    let cwd = world.path("w");
    std::fs::create_dir_all(&cwd).unwrap();
    sidecar(&store, "x", &cwd);
    // A server name nobody runs: no server.
    let mut engine = Engine::start(&world.config(None, &[]), false, |_| {}).unwrap();
    engine.poll_tmux();
    assert_eq!(
        engine.tmux_state(),
        Some(&greenroom::tmux::ServerState::NoServer)
    );
    assert_eq!(engine.rows(Utc::now())[0].status, Status::Dormant);
}

#[test]
fn attached_time_from_tmux_counts_as_focus() {
    let world = World::new();
    let tmux = TmuxServer::new();
    let store = SidecarStore::new(world.path("sessions"));
    let cwd = world.path("w");
    std::fs::create_dir_all(&cwd).unwrap();
    sidecar(&store, "one", &cwd);
    tmux.spawn("gr-one", &["sleep", "600"]);
    let mut engine = engine(&world, &tmux);
    engine.poll_tmux();
    let rows = engine.rows(Utc::now());
    // Never attached: tmux reports 0, which is no focus at all.
    assert_eq!(row(&rows, "one").last_focused_at, None);
}

#[test]
fn a_tmux_that_never_answers_is_an_error_not_a_hang() {
    use std::os::unix::fs::PermissionsExt;
    let world = World::new();
    let stub = world.path("tmux-hangs");
    std::fs::write(&stub, "#!/bin/sh\nexec sleep 600\n").unwrap();
    std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).unwrap();
    let tmux =
        greenroom::tmux::Tmux::with_program(greenroom::config::TmuxSocket::Name("x".into()), &stub);
    // Another test forking at the moment the stub was written can briefly
    // hold it open ("Text file busy"): that is the test's race, so retry it.
    let answer = wait_for(10, "the stub to be runnable", || match tmux.poll() {
        greenroom::tmux::ServerState::Error(e) if e.contains("busy") => None,
        other => Some(other),
    });
    match answer {
        greenroom::tmux::ServerState::Error(e) => assert!(e.contains("did not answer"), "{e}"),
        other => panic!("expected an error, got {other:?}"),
    }
}

#[test]
fn a_server_kept_up_with_no_sessions_is_running_with_none() {
    let tmux = TmuxServer::new();
    tmux.run(&["start-server", ";", "set-option", "-g", "exit-empty", "off"]);
    let t = greenroom::tmux::Tmux::new(greenroom::config::TmuxSocket::Name(tmux.name.clone()));
    assert_eq!(
        t.poll(),
        greenroom::tmux::ServerState::Running(Default::default())
    );
}

#[test]
fn a_status_decided_before_an_action_does_not_undo_it() {
    let world = World::new();
    let store = SidecarStore::new(world.path("sessions"));
    let mut s = sidecar(&store, "x", &world.path("w"));
    // tmux said the pane died while the file said Running; then the operator
    // killed the session before the write landed.
    store
        .update(s.id, std::time::Duration::from_secs(1), |f| {
            f.status = Status::Killed;
            true
        })
        .unwrap();
    s.status = Status::Killed;
    let stale = greenroom::catalog::StatusUpdate {
        id: s.id,
        status: Status::Exited,
        exit_status: Some(1),
        was: Status::Running,
    };
    greenroom::engine::write_statuses(&store, &[stale]);
    assert_eq!(store.read(s.id).unwrap().status, Status::Killed);
}

/// In the C locale (a bare sshd, cron) tmux writes the poll's field
/// separator as `_`: without `-u` every live session looked gone.
#[test]
fn the_poll_reads_tmux_in_the_c_locale_too() {
    use greenroom::config::TmuxSocket;
    use greenroom::tmux::{ServerState, Tmux};
    let world = World::new();
    let tmux = TmuxServer::new();
    tmux.spawn("gr-alpha", &["sleep", "600"]);
    let wrapper = world.path("tmux-c-locale");
    std::fs::write(
        &wrapper,
        "#!/bin/sh\nexec env -u LANG -u LC_ALL -u LC_CTYPE LANGUAGE= tmux \"$@\"\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let c_locale = Tmux::with_program(TmuxSocket::Name(tmux.name.clone()), &wrapper);
    match c_locale.poll() {
        ServerState::Running(server) => {
            assert!(
                server.sessions().contains_key("gr-alpha"),
                "{:?}",
                server.sessions().keys().collect::<Vec<_>>()
            );
        }
        other => panic!("{other:?}"),
    }
}
