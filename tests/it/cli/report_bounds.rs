//! `greenroom report` never holds the agent up and never hurts its writer:
//! stdin is read for a bounded time and size (the real binary, real pipes).

use std::io::Write;
use std::process::{Command, Stdio};

use greenroom::model::Activity;

use crate::cli::report::Session;
use crate::support::wait_for;

#[test]
fn a_pipe_that_never_closes_does_not_hold_the_report() {
    let session = Session::new();
    let mut child = session.command(&[]).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(br#"{"hook_event_name":"PreToolUse","session_id":"s1"}"#)
        .unwrap();
    stdin.flush().unwrap();
    // stdin stays open for as long as this test runs.
    let status = wait_for(20, "report to exit with stdin still open", || {
        child.try_wait().unwrap()
    });
    assert!(status.success(), "exit {status:?}");
    // What arrived before the wait ran out was acted on.
    assert_eq!(session.sidecar().activity, Some(Activity::Active));
    drop(stdin);
}

#[test]
fn nothing_on_an_open_pipe_exits_zero_and_changes_nothing() {
    let session = Session::new();
    let before = session.raw();
    let mut child = session.command(&[]).spawn().unwrap();
    let stdin = child.stdin.take().unwrap();
    let status = wait_for(20, "report to exit on a silent pipe", || {
        child.try_wait().unwrap()
    });
    assert!(status.success(), "exit {status:?}");
    assert_eq!(session.raw(), before);
    drop(stdin);
}

#[test]
fn an_oversized_payload_does_not_kill_its_writer_with_sigpipe() {
    let session = Session::new();
    let before = session.raw();
    // `head` dies of SIGPIPE (exit 141) if the reader stops reading early.
    let script = format!(
        "head -c 5000000 /dev/zero | {bin} report; echo \"$?:${{PIPESTATUS[0]}}\"",
        bin = env!("CARGO_BIN_EXE_greenroom")
    );
    let out = Command::new("bash")
        .args(["-c", &script])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap())
        .env("GREENROOM_SESSION_ID", session.id.to_string())
        .env("GREENROOM_SIDECAR_DIR", session.store.dir())
        .env("GREENROOM_LOG", session.log())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.trim(), "0:0", "report:writer exit codes");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(session.raw(), before);
}

#[test]
fn a_report_for_an_unknown_session_creates_no_file() {
    let session = Session::new();
    // Any folder the variable names, with no sidecar for this id in it.
    let elsewhere = tempfile::tempdir().unwrap();
    std::fs::write(elsewhere.path().join("notes.txt"), b"mine").unwrap();
    for dir in [elsewhere.path(), session.store.dir()] {
        let mut c = session.command(&[]);
        c.env("GREENROOM_SESSION_ID", uuid::Uuid::new_v4().to_string())
            .env("GREENROOM_SIDECAR_DIR", dir);
        session.report_with(c, br#"{"hook_event_name":"Stop"}"#);
    }
    let names = |dir: &std::path::Path| {
        let mut n: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        n.sort();
        n
    };
    assert_eq!(names(elsewhere.path()), ["notes.txt"]);
    let id = session.id;
    let mut expected = [
        format!(".{id}.lock"),
        format!("{id}.json"),
        "archive".into(),
    ];
    expected.sort();
    assert_eq!(names(session.store.dir()), expected);
}

/// Holds the session's lock on a thread until the returned sender is used;
/// `change` runs under it just before release.
fn hold_lock(
    session: &Session,
    change: impl FnOnce(&mut greenroom::sources::sidecar::Sidecar) + Send + 'static,
) -> (std::sync::mpsc::Sender<()>, std::thread::JoinHandle<()>) {
    let (store, id) = (session.store.clone(), session.id);
    let (held_tx, held_rx) = std::sync::mpsc::channel();
    let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
    let holder = std::thread::spawn(move || {
        store
            .update(id, std::time::Duration::from_secs(5), |s| {
                held_tx.send(()).unwrap();
                release_rx.recv().unwrap();
                change(s);
                true
            })
            .unwrap();
    });
    held_rx.recv().unwrap();
    (release_tx, holder)
}

fn log_lines(session: &Session, what: &str) -> usize {
    std::fs::read_to_string(session.log())
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains(what))
        .count()
}

#[test]
fn a_busy_lock_defers_the_report_instead_of_losing_it() {
    let session = Session::new();
    let (release, holder) = hold_lock(&session, |_| {});
    // The hook returns while the lock is still held...
    let out = session.report(&[], br#"{"hook_event_name":"PreToolUse","session_id":"s"}"#);
    assert!(out.status.success());
    assert_eq!(log_lines(&session, "report deferred"), 1);
    assert_eq!(session.sidecar().activity, None);
    release.send(()).unwrap();
    holder.join().unwrap();
    // ...and the report lands once the lock is free.
    wait_for(30, "the deferred report to land", || {
        (session.sidecar().activity == Some(Activity::Active)).then_some(())
    });
    assert_eq!(log_lines(&session, "report ignored"), 0);
}

#[test]
fn a_deferred_report_never_overwrites_a_newer_one() {
    let session = Session::new();
    let newer = chrono::Utc::now() + chrono::Duration::seconds(3600);
    let (release, holder) = hold_lock(&session, move |s| {
        s.activity = Some(Activity::Idle);
        s.activity_reported_at = Some(newer);
    });
    let out = session.report(&[], br#"{"hook_event_name":"PreToolUse"}"#);
    assert!(out.status.success());
    release.send(()).unwrap();
    holder.join().unwrap();
    wait_for(30, "the deferred report to finish", || {
        (log_lines(&session, "deferred report recorded") == 1).then_some(())
    });
    let s = session.sidecar();
    assert_eq!(s.activity, Some(Activity::Idle));
    assert_eq!(s.activity_reported_at, Some(newer));
}
