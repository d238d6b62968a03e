//! A full disk: logging never writes to the terminal or a hook's stderr,
//! and a status write that failed lands once there is room again. Real
//! files on a small tmpfs (mounting needs root; without it the tests say
//! so and do nothing).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use chrono::Utc;
use greenroom::engine::Engine;
use greenroom::model::Status;
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use greenroom::tmux::ServerState;

use crate::support::World;

/// A tmpfs of a few pages, unmounted on drop.
pub(crate) struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    pub(crate) fn mount(size: &str) -> Option<Self> {
        let dir = tempfile::tempdir().unwrap();
        let ok = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={size},mode=0700"),
                "tmpfs",
            ])
            .arg(dir.path())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            eprintln!("cannot mount a tmpfs (not root?): test skipped");
            return None;
        }
        Some(Tmpfs { dir })
    }

    pub(crate) fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Fills the disk with one file; removing it makes room again.
    pub(crate) fn fill(&self) -> PathBuf {
        let path = self.path("filler");
        let mut f = std::fs::File::create(&path).unwrap();
        let chunk = vec![0u8; 4096];
        while f.write_all(&chunk).is_ok() {}
        assert!(
            std::fs::write(self.path("probe"), b"x").is_err(),
            "disk not full"
        );
        path
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let lazy = |path: &Path| {
            let _ = Command::new("umount").arg("-l").arg(path).status();
        };
        let ok = Command::new("umount")
            .arg(self.dir.path())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            lazy(self.dir.path());
        }
    }
}

#[test]
fn a_full_disk_never_writes_logging_errors_to_a_hooks_stderr() {
    let Some(disk) = Tmpfs::mount("64k") else {
        return;
    };
    let log = disk.path("greenroom.log");
    std::fs::write(&log, b"").unwrap();
    disk.fill();
    let sessions = tempfile::tempdir().unwrap();
    // No such session: the report logs why it did nothing.
    let mut child = Command::new(env!("CARGO_BIN_EXE_greenroom"))
        .arg("report")
        .env_clear()
        .env("GREENROOM_SESSION_ID", uuid::Uuid::new_v4().to_string())
        .env("GREENROOM_SIDECAR_DIR", sessions.path())
        .env("GREENROOM_LOG", &log)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(br#"{"hook_event_name":"Stop"}"#).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "exit {:?}", out.status);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "", "stderr");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "", "stdout");
}

#[test]
fn a_status_write_that_failed_lands_when_there_is_room() {
    let Some(disk) = Tmpfs::mount("256k") else {
        return;
    };
    let world = World::new();
    let mut config = world.config(None, &[]);
    config.sidecar_dir = disk.path("sessions");
    let store = SidecarStore::new(&config.sidecar_dir);
    let mut s = Sidecar::new("full", world.dir.path(), "claude", Utc::now());
    s.tmux_session = Some("gr-full".into());
    store.create(&s).unwrap();
    let mut engine = Engine::load(&config, false, |_| {}).unwrap();
    let filler = disk.fill();
    // tmux has no such session: the sidecar should record it as dormant.
    engine.set_tmux(ServerState::NoServer);
    assert_eq!(
        store.read(s.id).unwrap().status,
        Status::Running,
        "write failed"
    );
    std::fs::remove_file(filler).unwrap();
    // The next poll says the same as the last: the failed write is retried.
    engine.set_tmux(ServerState::NoServer);
    assert_eq!(store.read(s.id).unwrap().status, Status::Dormant, "retried");
}

#[test]
fn a_failed_write_clears_temporaries_killed_writers_left() {
    let Some(disk) = Tmpfs::mount("256k") else {
        return;
    };
    let store = SidecarStore::new(disk.path("sessions"));
    let s = Sidecar::new("full", Path::new("/w"), "claude", Utc::now());
    store.create(&s).unwrap();
    // What a writer killed mid-write left, filling the disk.
    let hex = "0123456789abcdef0123456789abcdef";
    let stale = store
        .dir()
        .join(format!(".{}.json.4194399.{hex}.tmp", s.id));
    let mut f = std::fs::File::create(&stale).unwrap();
    let chunk = vec![0u8; 4096];
    while f.write_all(&chunk).is_ok() {}
    drop(f);
    let set = |n: &str| {
        let n = n.to_owned();
        store.update(s.id, std::time::Duration::from_secs(1), move |s| {
            s.name = n;
            true
        })
    };
    assert!(set("first").is_err(), "the disk is full");
    assert!(
        !stale.exists(),
        "the failed write cleared the stale temporary"
    );
    assert_eq!(set("second").unwrap().name, "second");
    assert_eq!(store.read(s.id).unwrap().name, "second");
}

#[test]
fn a_session_killed_on_a_full_disk_is_recorded_killed_once_there_is_room() {
    let Some(disk) = Tmpfs::mount("256k") else {
        return;
    };
    let tmux = crate::support::TmuxServer::new();
    tmux.spawn("keep", &["sleep", "600"]);
    tmux.spawn("gr-full-kill", &["sleep", "600"]);
    let world = World::new();
    let mut config = world.config(Some(&tmux), &[]);
    config.sidecar_dir = disk.path("sessions");
    let store = SidecarStore::new(&config.sidecar_dir);
    let mut s = Sidecar::new("full-kill", world.dir.path(), "claude", Utc::now());
    s.tmux_session = Some("gr-full-kill".into());
    store.create(&s).unwrap();
    let mut engine = Engine::load(&config, false, |_| {}).unwrap();
    engine.poll_tmux();
    let row = engine
        .rows(Utc::now())
        .into_iter()
        .find(|r| r.name == "full-kill")
        .unwrap();
    let filler = disk.fill();
    let killed = greenroom::ops::kill(engine.tmux(), &store, &row);
    assert!(killed.is_err(), "the status write failed: {killed:?}");
    // tmux no longer has the session: the poll would call it dormant.
    engine.poll_tmux();
    assert_eq!(store.read(s.id).unwrap().status, Status::Running);
    std::fs::remove_file(filler).unwrap();
    engine.poll_tmux();
    assert_eq!(store.read(s.id).unwrap().status, Status::Killed);
}
