//! Both halves of the wire format against each other: what `ls --json` and
//! `watch --json` write is what a dashboard on another host reads.

use std::path::PathBuf;

use chrono::{TimeZone, Utc};
use serde_json::Value;

use super::*;
use crate::model::{Activity, Health, Problem, Session};

/// A row as a host's reader keeps it: what survives the wire.
fn session() -> Session {
    const ROW: &str = r#"{"id":"0b7c3c57-8f0c-4d5e-9f61-1b1a2b3c4d5e","name":"api","source":"maestro","status":"Running","health":"waiting","cwd":"/w","tmux_session":"gr-api","agent_session_id":"conv-1","last_focused_at":"2026-12-01T11:00:00Z","branch":"fix","archived":true,"problems":["odd"],"activity":{"state":"awaiting_input","detail":"May I?","since":"2026-12-01T11:59:00Z","reported":true}}"#;
    parse_row(serde_json::from_str(ROW).unwrap(), "build")
        .unwrap()
        .session
}

fn problem() -> Problem {
    Problem {
        path: PathBuf::from("/p"),
        error: "bad".into(),
    }
}

fn line(v: &Value) -> Vec<u8> {
    serde_json::to_vec(v).unwrap()
}

#[test]
fn an_ls_document_reads_back_as_written() {
    let now = Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap();
    let text = to_json_at(&[session()], &[problem()], now).unwrap();
    let (rows, problems) = parse_ls(&text, "build").unwrap();
    assert_eq!(problems, ["/p: bad"]);
    let [row] = rows.as_slice() else {
        panic!("{rows:?}")
    };
    assert_eq!(row.session, session());
    assert_eq!(row.session.health, Health::Waiting);
    assert_eq!(row.session.activity.state, Activity::AwaitingInput);
    assert_eq!(row.json["host"], "build");
}

#[test]
fn every_watch_line_reads_back_as_written() {
    let at = Utc::now();
    let row = session_value(&session(), at);
    let problems = problems_value(&[problem()]);
    let snapshot = snapshot_line("build", at, &[&row], &problems);
    match parse_line(&line(&snapshot), "build").unwrap() {
        Line::Snapshot {
            version,
            rows,
            problems,
        } => {
            assert_eq!(version, env!("CARGO_PKG_VERSION"));
            assert_eq!(rows.len(), 1);
            assert_eq!(rows[0].session, session());
            assert_eq!(problems, ["/p: bad"]);
        }
        other => panic!("{other:?}"),
    }
    let added = parse_line(&line(&row_line(true, &row)), "build").unwrap();
    assert!(matches!(added, Line::Added(r) if r.session == session()));
    let changed = parse_line(&line(&row_line(false, &row)), "build").unwrap();
    assert!(matches!(changed, Line::Changed(r) if r.session == session()));
    let removed = parse_line(&line(&removed_line("abc")), "b").unwrap();
    assert_eq!(removed, Line::Removed("abc".into()));
    let problems = parse_line(&line(&problems_line(&problems)), "b").unwrap();
    assert_eq!(problems, Line::Problems(vec!["/p: bad".into()]));
    let beat = parse_line(&line(&heartbeat_line(at, 1)), "b").unwrap();
    assert_eq!(beat, Line::Heartbeat);
}

#[test]
fn the_protocol_written_is_the_protocol_read() {
    let snapshot = snapshot_line("b", Utc::now(), &[], &Value::Array(Vec::new()));
    assert_eq!(snapshot["protocol"], PROTOCOL);
    let mut other = snapshot.clone();
    other["protocol"] = (PROTOCOL + 1).into();
    assert!(parse_line(&line(&other), "b").is_err());
}
