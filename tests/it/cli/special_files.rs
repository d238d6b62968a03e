//! A FIFO or a device where greenroom expects one of its files (a lock,
//! config.toml, the log) is refused at once with a clear reason: nothing
//! hangs, nothing reads without end.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

use chrono::Utc;
use greenroom::config::{Config, Environ, Overrides};
use greenroom::sources::sidecar::{Sidecar, SidecarStore};

use crate::cli::report::Session;
use crate::support::wait_for;

/// Puts a FIFO at `path`, in place of whatever was there.
fn mkfifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    let ok = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(ok.success(), "mkfifo {}", path.display());
}

/// Runs `f` on a thread and fails (rather than hangs) if it takes too long.
fn within<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(20))
        .unwrap_or_else(|_| panic!("{what} hung"))
}

#[test]
fn a_fifo_as_lock_file_is_refused_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let store = SidecarStore::new(dir.path().join("sessions"));
    let s = Sidecar::new("fifo", Path::new("/w"), "claude", Utc::now());
    store.create(&s).unwrap();
    mkfifo(&store.dir().join(format!(".{}.lock", s.id)));
    let (store2, id) = (store.clone(), s.id);
    let result = within("an update over a FIFO lock", move || {
        store2
            .update(id, Duration::from_secs(1), |_| true)
            .map(drop)
            .map_err(|e| e.to_string())
    });
    let error = result.unwrap_err();
    assert!(error.contains("not a regular file"), "{error}");
}

#[test]
fn report_with_a_fifo_lock_or_log_exits_at_once() {
    let session = Session::new();
    let before = session.raw();
    mkfifo(&session.store.dir().join(format!(".{}.lock", session.id)));
    let fifo_log = session.dir.path().join("fifo.log");
    mkfifo(&fifo_log);
    for log in [session.log(), fifo_log] {
        let mut c = session.command(&[]);
        c.env("GREENROOM_LOG", &log);
        let mut child = c.spawn().unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(br#"{"hook_event_name":"Stop"}"#).unwrap();
        drop(stdin);
        let status = wait_for(20, "report to exit", || child.try_wait().unwrap());
        assert!(status.success(), "exit {status:?}");
    }
    assert_eq!(session.raw(), before);
    let log = std::fs::read_to_string(session.log()).unwrap();
    assert!(log.contains("not a regular file"), "{log}");
}

fn load(config: PathBuf) -> Result<Config, String> {
    within("loading the config", move || {
        let overrides = Overrides {
            config: Some(config),
            ..Overrides::default()
        };
        Config::load(&overrides, &Environ::from_process())
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
    .and_then(|()| Err("loaded".into()))
}

#[test]
fn a_fifo_or_a_device_as_config_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("config.toml");
    mkfifo(&fifo);
    for path in [fifo, PathBuf::from("/dev/zero")] {
        let error = load(path.clone()).unwrap_err();
        assert!(
            error.contains("not a regular file"),
            "{}: {error}",
            path.display()
        );
        assert!(error.contains(&path.display().to_string()), "{error}");
    }
    // A config that is a link to a file (dotfile managers) is still read.
    let real = dir.path().join("real.toml");
    std::fs::write(&real, "name_prefix = \"linked\"\n").unwrap();
    let link = dir.path().join("link.toml");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let overrides = Overrides {
        config: Some(link),
        ..Overrides::default()
    };
    let config = Config::load(&overrides, &Environ::from_process()).unwrap();
    assert_eq!(config.name_prefix, "linked");
}
