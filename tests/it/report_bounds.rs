//! `greenroom report` never holds the agent up and never hurts its writer:
//! stdin is read for a bounded time and size (the real binary, real pipes).

use std::io::Write;
use std::process::{Command, Stdio};

use greenroom::model::Activity;

use crate::hook_report::Session;
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
    assert_eq!(
        names(session.store.dir()),
        [
            format!(".{id}.lock"),
            format!("{id}.json"),
            "archive".into()
        ]
    );
}
