//! The reading half of the wire format: what another host's greenroom
//! sends, the `ls --json` document and the `watch --json` lines. Untrusted input: lines are bounded, fields beyond
//! the known ones are ignored, strings are bounded, an id that could not go
//! safely on a command line drops its row (with a problem), and a stream of
//! another protocol is refused with both versions named.

use std::path::PathBuf;

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::Value;

use crate::model::{Activity, ActivityView, Health, HostName, HostPlace, Session, Source, Status};

/// The longest line read from a host (a snapshot of thousands of rows fits).
pub const MAX_LINE: usize = 16 * 1024 * 1024;
/// Longest text kept from any one field.
const MAX_FIELD: usize = 4096;

/// A row from a host: what the dashboard and the table show, and the row
/// as the host wrote it (for `ls --all-hosts --json`), with `host` set.
#[derive(Debug, Clone, PartialEq)]
pub struct RemoteRow {
    pub session: Session,
    pub json: Value,
}

/// One `watch --json` line.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    Snapshot {
        version: String,
        rows: Vec<RemoteRow>,
        problems: Vec<String>,
    },
    Added(Box<RemoteRow>),
    Changed(Box<RemoteRow>),
    Removed(String),
    Problems(Vec<String>),
    Heartbeat,
    /// A type this greenroom does not know: ignored.
    Other,
}

/// Whether a session id from a host may go on an ssh command line: what
/// greenroom's own ids look like (uuids, Maestro and AO ids),
/// `[A-Za-z0-9._:-]{1,128}`, not starting with '-'.
pub fn valid_remote_id(id: &str) -> bool {
    crate::model::valid_agent_session_id(id) && !id.starts_with('-')
}

#[derive(Deserialize)]
struct RowIn {
    id: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    health: Option<String>,
    #[serde(default)]
    cwd: Option<String>,
    #[serde(default)]
    tmux_session: Option<String>,
    #[serde(default)]
    last_focused_at: Option<DateTime<Utc>>,
    #[serde(default)]
    agent_session_id: Option<String>,
    #[serde(default)]
    activity: Option<ActivityIn>,
    #[serde(default)]
    problems: Vec<String>,
    #[serde(default)]
    archived: bool,
    #[serde(default)]
    branch: Option<String>,
}

#[derive(Deserialize)]
struct ActivityIn {
    #[serde(default)]
    state: Option<String>,
    #[serde(default)]
    detail: Option<String>,
    #[serde(default)]
    since: Option<DateTime<Utc>>,
    #[serde(default)]
    reported: bool,
}

/// A field from a host: bounded, and made safe to show (control characters
/// and bidirectional overrides written as escapes), whatever view shows it.
fn bounded(s: String) -> String {
    let s = if s
        .chars()
        .any(|c| c.is_control() || ('\u{200e}'..='\u{2069}').contains(&c))
    {
        crate::display::safe(&s)
    } else {
        s
    };
    if s.len() <= MAX_FIELD {
        return s;
    }
    s.chars().take(MAX_FIELD).collect()
}

fn health(text: Option<&str>) -> Health {
    Health::ALL
        .iter()
        .copied()
        .find(|h| Some(h.as_str()) == text)
        .unwrap_or(Health::Idle)
}

fn activity(text: Option<&str>) -> Activity {
    match text {
        Some("active") => Activity::Active,
        Some("idle") => Activity::Idle,
        Some("awaiting_input") => Activity::AwaitingInput,
        Some("error") => Activity::Error,
        Some(other) => Activity::Unknown(bounded(other.to_owned())),
        None => Activity::Unknown(String::new()),
    }
}

/// One row object from a host, tagged with the host's configured name.
pub fn parse_row(mut v: Value, host: &str) -> Result<RemoteRow, String> {
    let row: RowIn = serde_json::from_value(v.clone()).map_err(|e| format!("a bad row: {e}"))?;
    if !valid_remote_id(&row.id) {
        return Err(format!(
            "a row with id {:?} was ignored (not a session id)",
            crate::display::fit(&row.id, 80)
        ));
    }
    let name = bounded(row.name.unwrap_or_else(|| row.id.clone()));
    let source = match row.source.as_deref() {
        Some("maestro") => Source::Maestro,
        Some("agent-orchestrator") => Source::AgentOrchestrator,
        _ => Source::Greenroom,
    };
    let act = row.activity;
    let session = Session {
        host: Some(HostPlace {
            name: HostName::new(host),
            id: row.id.clone(),
        }),
        id: row.id,
        name,
        source,
        status: Status::from(bounded(row.status.unwrap_or_default())),
        health: health(row.health.as_deref()),
        cwd: PathBuf::from(bounded(row.cwd.unwrap_or_default())),
        agent: None,
        tmux_session: row.tmux_session.map(bounded),
        created_at: None,
        last_focused_at: row.last_focused_at,
        last_activity_at: act.as_ref().and_then(|a| a.since),
        agent_session_id: row.agent_session_id.map(bounded),
        activity: ActivityView {
            state: activity(act.as_ref().and_then(|a| a.state.as_deref())),
            detail: act.as_ref().and_then(|a| a.detail.clone()).map(bounded),
            since: act.as_ref().and_then(|a| a.since),
            reported: act.as_ref().is_some_and(|a| a.reported),
            // The host's words for where it came from stay in the row's JSON.
            source: crate::model::ActivitySource::Nothing,
        },
        orchestration: None,
        active_agent: None,
        usage: None,
        branch: row.branch.map(bounded),
        agent_orchestrator: None,
        archived: row.archived,
        problems: row.problems.into_iter().take(64).map(bounded).collect(),
        adopted: None,
        changes: None,
        own_worktree: None,
        snoozed_until: None,
        waiting_for: None,
        why: Default::default(),
    };
    if let Some(map) = v.as_object_mut() {
        map.insert("host".into(), Value::String(host.to_owned()));
    }
    Ok(RemoteRow { session, json: v })
}

/// Rows of a list; a bad row is a problem, never the end of the list.
fn parse_rows(list: Option<&Value>, host: &str, problems: &mut Vec<String>) -> Vec<RemoteRow> {
    let mut rows = Vec::new();
    for v in list.and_then(Value::as_array).into_iter().flatten() {
        match parse_row(v.clone(), host) {
            Ok(r) => rows.push(r),
            Err(e) => problems.push(e),
        }
    }
    rows
}

fn parse_problems(list: Option<&Value>) -> Vec<String> {
    list.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .take(1000)
        .map(|p| {
            let path = p["path"].as_str().unwrap_or("");
            let error = p["error"].as_str().unwrap_or("");
            bounded(format!("{path}: {error}"))
        })
        .collect()
}

/// A host's `ls --json` document: its rows and its problems (as lines).
pub fn parse_ls(text: &str, host: &str) -> Result<(Vec<RemoteRow>, Vec<String>), String> {
    if text.len() > MAX_LINE {
        return Err(format!("its list is larger than {} MiB", MAX_LINE >> 20));
    }
    let doc: Value = serde_json::from_str(text)
        .map_err(|e| format!("its `greenroom ls --json` is not JSON ({e})"))?;
    if !doc.get("sessions").is_some_and(Value::is_array) {
        return Err("its `greenroom ls --json` has no sessions list".into());
    }
    let mut problems = parse_problems(doc.get("problems"));
    let rows = parse_rows(doc.get("sessions"), host, &mut problems);
    Ok((rows, problems))
}

/// One `watch --json` line. Errors are the host's fault, said in one line.
pub fn parse_line(bytes: &[u8], host: &str) -> Result<Line, String> {
    if bytes.len() > MAX_LINE {
        return Err(format!("a line longer than {} MiB", MAX_LINE >> 20));
    }
    let v: Value =
        serde_json::from_slice(bytes).map_err(|e| format!("a line that is not JSON ({e})"))?;
    let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
    Ok(match kind {
        "snapshot" => {
            let version = v["greenroom"].as_str().unwrap_or("?");
            let version = crate::display::fit(version, 40);
            let protocol = v["protocol"].as_u64();
            if protocol != Some(super::PROTOCOL) {
                return Err(format!(
                    "it runs greenroom {version} (stream protocol {}), this is {} (protocol {}): update one of them",
                    protocol.map_or("?".into(), |p| p.to_string()),
                    env!("CARGO_PKG_VERSION"),
                    super::PROTOCOL
                ));
            }
            let mut problems = parse_problems(v.get("problems"));
            let rows = parse_rows(v.get("sessions"), host, &mut problems);
            Line::Snapshot {
                version,
                rows,
                problems,
            }
        }
        "added" | "changed" => {
            let row = Box::new(parse_row(
                v.get("session").cloned().unwrap_or(Value::Null),
                host,
            )?);
            if kind == "added" {
                Line::Added(row)
            } else {
                Line::Changed(row)
            }
        }
        "removed" => match v.get("id").and_then(Value::as_str) {
            Some(id) if valid_remote_id(id) => Line::Removed(id.to_owned()),
            _ => return Err("a `removed` line without a valid id".into()),
        },
        "problems" => Line::Problems(parse_problems(v.get("problems"))),
        "heartbeat" => Line::Heartbeat,
        _ => Line::Other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROW: &str = r#"{"id":"0b7c3c57-8f0c-4d5e-9f61-1b1a2b3c4d5e","name":"api","source":"greenroom","status":"Running","health":"waiting","cwd":"/w","tmux_session":"gr-api","activity":{"state":"awaiting_input","since":null,"reported":true},"problems":[],"archived":false,"future_field":{"x":1}}"#;

    #[test]
    fn a_row_keeps_what_is_known_and_ignores_the_rest() {
        let r = parse_row(serde_json::from_str(ROW).unwrap(), "build").unwrap();
        assert_eq!(r.session.name, "api");
        assert_eq!(r.session.health, Health::Waiting);
        assert_eq!(r.session.activity.state, Activity::AwaitingInput);
        assert_eq!(r.session.tmux_session.as_deref(), Some("gr-api"));
        assert_eq!(r.json["host"], "build");
        assert_eq!(r.json["future_field"]["x"], 1);
    }

    #[test]
    fn text_from_a_host_is_made_safe_to_show() {
        let hostile = ROW.replace(r#""name":"api""#, r#""name":"a\u001b[2Jb\u202ec""#);
        let r = parse_row(serde_json::from_str(&hostile).unwrap(), "b").unwrap();
        assert_eq!(r.session.name, "a\\x1b[2Jb\\u{202e}c");
    }

    #[test]
    fn ids_that_could_not_go_on_a_command_line_drop_the_row() {
        let bad = ROW.replace("0b7c3c57-8f0c-4d5e-9f61-1b1a2b3c4d5e", "x; rm -rf ~");
        assert!(parse_row(serde_json::from_str(&bad).unwrap(), "b").is_err());
        let doc = format!(r#"{{"sessions":[{ROW},{bad}],"problems":[]}}"#);
        let (rows, problems) = parse_ls(&doc, "b").unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(problems.len(), 1, "{problems:?}");
    }

    #[test]
    fn another_protocol_is_refused_with_both_versions() {
        let line = br#"{"type":"snapshot","greenroom":"9.0.0","protocol":7,"sessions":[]}"#;
        let err = parse_line(line, "b").unwrap_err();
        assert!(err.contains("9.0.0") && err.contains("protocol 7"), "{err}");
        assert!(err.contains(env!("CARGO_PKG_VERSION")), "{err}");
    }

    #[test]
    fn lines_of_every_type() {
        let snap = format!(
            r#"{{"type":"snapshot","greenroom":"0.1.0","protocol":1,"sessions":[{ROW}],"problems":[{{"path":"/p","error":"bad"}}]}}"#
        );
        match parse_line(snap.as_bytes(), "b").unwrap() {
            Line::Snapshot { rows, problems, .. } => {
                assert_eq!(rows.len(), 1);
                assert_eq!(problems, vec!["/p: bad".to_owned()]);
            }
            other => panic!("{other:?}"),
        }
        let changed = format!(r#"{{"type":"changed","session":{ROW}}}"#);
        assert!(matches!(
            parse_line(changed.as_bytes(), "b"),
            Ok(Line::Changed(_))
        ));
        assert!(matches!(
            parse_line(br#"{"type":"removed","id":"abc"}"#, "b"),
            Ok(Line::Removed(id)) if id == "abc"
        ));
        assert!(parse_line(br#"{"type":"removed","id":"-x"}"#, "b").is_err());
        assert_eq!(
            parse_line(br#"{"type":"heartbeat"}"#, "b"),
            Ok(Line::Heartbeat)
        );
        assert_eq!(parse_line(br#"{"type":"later"}"#, "b"), Ok(Line::Other));
        assert!(parse_line(b"not json", "b").is_err());
    }
}
