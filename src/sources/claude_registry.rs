//! Claude Code's own session registry: `<claude dir>/sessions/<pid>.json`,
//! one file per running Claude Code, read-only.
//!
//! Claude Code (2.1.328) writes the file when it starts, rewrites it as
//! its status changes (`busy` while a turn runs, `waiting` with a
//! `waitingFor` such as "permission prompt", `idle`) and removes it when it
//! exits; `claude agents --json` lists these files. It needs no hooks, so
//! it is what greenroom knows of a Claude Code started without them. The
//! captured files are in tests/fixtures/real/claude-sessions.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use crate::model::Activity;

/// The longest text kept from one field: these are ids, names and short
/// phrases, and a longer one is not Claude Code's.
const MAX_FIELD_CHARS: usize = 512;

/// One registry file as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegistryEntry {
    pub path: PathBuf,
    /// Claude Code's process id; also the file's name.
    pub pid: u32,
    /// The conversation it runs: names its transcript.
    pub session_id: String,
    pub cwd: Option<PathBuf>,
    /// `busy`, `waiting` or `idle` as written (None: not written yet).
    pub status: Option<String>,
    /// What a waiting Claude Code waits for ("permission prompt").
    pub waiting_for: Option<String>,
    /// When the status was last set.
    pub status_at: Option<DateTime<Utc>>,
    /// The tmux session it runs in, from `tmux` (`name:@window.%pane`).
    pub tmux_session: Option<String>,
    /// The tmux pane it runs in (`%12`), from the same field.
    pub tmux_pane: Option<String>,
    /// Claude Code's own name for the session (`work-92`).
    pub name: Option<String>,
    pub version: Option<String>,
    /// The record's process and its ancestors (`/proc`), read when the
    /// record was: anyone can write a record naming any pane, so it speaks
    /// for a pane only when the pane's process is among these (the same
    /// rule as an adopted report's). Empty until read.
    pub ancestry: Vec<u32>,
}

impl RegistryEntry {
    /// What the status means: busy is a turn running, waiting is the
    /// operator's turn, idle is done. Another word is shown as written.
    pub fn activity(&self) -> Activity {
        match self.status.as_deref() {
            Some("busy") => Activity::Active,
            Some("waiting") => Activity::AwaitingInput,
            Some("idle") => Activity::Idle,
            Some(other) => Activity::Unknown(other.to_owned()),
            None => Activity::Unknown("unknown".into()),
        }
    }
}

/// The registry folder of a Claude Code config folder (`CLAUDE_CONFIG_DIR`
/// or `~/.claude`).
pub fn registry_dir(claude_dir: &Path) -> PathBuf {
    claude_dir.join("sessions")
}

/// The pid a registry file's name gives (`<digits>.json`), as Claude Code
/// itself reads only such names; its key files and temp files are not.
pub fn registry_pid(path: &Path) -> Option<u32> {
    let name = path.file_name()?.to_str()?;
    let digits = name.strip_suffix(".json")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Parses one registry file's text. The file is untrusted: a wrong type,
/// an over-long field or a pid that is not the file's own is a problem,
/// never a guess.
pub fn parse_entry(text: &str, path: &Path) -> Result<RegistryEntry, String> {
    let pid =
        registry_pid(path).ok_or("is not named <pid>.json; not a Claude Code session record")?;
    let map = match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => map,
        Ok(_) => return Err("is not a JSON object".into()),
        Err(e) => return Err(format!("is not valid JSON: {e}")),
    };
    let written_pid = match map.get("pid") {
        Some(Value::Number(n)) => n.as_u64(),
        Some(_) => return Err("`pid` is not a number".into()),
        None => return Err("has no `pid`".into()),
    };
    if written_pid != Some(u64::from(pid)) {
        return Err(format!("`pid` is not {pid}, the file's name"));
    }
    let session_id = text_field(&map, "sessionId")?.ok_or("has no `sessionId`")?;
    if session_id
        .chars()
        .any(|c| c.is_control() || c == '/' || c == '\\')
    {
        return Err("`sessionId` is not an id".into());
    }
    let (tmux_session, tmux_pane) = match text_field(&map, "tmux")? {
        Some(t) => split_tmux(&t).ok_or("`tmux` is not session:@window.%pane")?,
        None => (None, None),
    };
    let status_at = time_field(&map, "statusUpdatedAt")?.or(time_field(&map, "updatedAt")?);
    Ok(RegistryEntry {
        path: path.to_path_buf(),
        ancestry: Vec::new(),
        pid,
        session_id,
        cwd: text_field(&map, "cwd")?.map(PathBuf::from),
        status: text_field(&map, "status")?,
        waiting_for: text_field(&map, "waitingFor")?,
        status_at,
        tmux_session,
        tmux_pane,
        name: text_field(&map, "name")?,
        version: text_field(&map, "version")?,
    })
}

/// Text, with null and "" meaning absent; anything else is refused.
fn text_field(map: &Map<String, Value>, key: &str) -> Result<Option<String>, String> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.chars().count() > MAX_FIELD_CHARS => Err(format!(
            "`{key}` is longer than {MAX_FIELD_CHARS} characters"
        )),
        Some(Value::String(s)) => Ok(Some(s.clone()).filter(|s| !s.is_empty())),
        Some(_) => Err(format!("`{key}` is not text")),
    }
}

/// Epoch milliseconds, as Claude Code writes its times.
fn time_field(map: &Map<String, Value>, key: &str) -> Result<Option<DateTime<Utc>>, String> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n
            .as_i64()
            .and_then(DateTime::from_timestamp_millis)
            .map(Some)
            .ok_or_else(|| format!("`{key}` is not a time: {n}")),
        Some(_) => Err(format!("`{key}` is not a time in milliseconds")),
    }
}

/// `cap:@0.%0` -> (`cap`, `%0`). The session name may hold `:` itself, so
/// the split is at the last `:` before `@`; the pane must be `%` + digits.
fn split_tmux(t: &str) -> Option<(Option<String>, Option<String>)> {
    let (session, rest) = t.rsplit_once(":@")?;
    let (window, pane) = rest.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let pane_digits = pane.strip_prefix('%')?;
    if !digits(window) || !digits(pane_digits) || session.chars().any(char::is_control) {
        return None;
    }
    Some((
        Some(session.to_owned()).filter(|s| !s.is_empty()),
        Some(pane.to_owned()),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURES: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/real/claude-sessions"
    );

    fn fixture(name: &str) -> (String, PathBuf) {
        let path = Path::new(FIXTURES).join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        // Read as Claude Code names it: `<pid>.json`.
        let pid = serde_json::from_str::<Value>(&text).unwrap()["pid"].clone();
        (
            text,
            PathBuf::from(format!("/h/.claude/sessions/{pid}.json")),
        )
    }

    #[test]
    fn a_waiting_claude_code_at_a_permission_prompt() {
        let (text, path) = fixture("claude-code-2.1.328__waiting-permission-prompt.json");
        let e = parse_entry(&text, &path).unwrap();
        assert_eq!(e.pid, 32129);
        assert_eq!(e.session_id, "d10fcf9e-d290-47d0-9f2a-022516731c93");
        assert_eq!(e.cwd.as_deref(), Some(Path::new("/tmp/truth/cc/work")));
        assert_eq!(e.status.as_deref(), Some("waiting"));
        assert_eq!(e.waiting_for.as_deref(), Some("permission prompt"));
        assert_eq!(e.activity(), Activity::AwaitingInput);
        assert_eq!(e.tmux_session.as_deref(), Some("cap2"));
        assert_eq!(e.tmux_pane.as_deref(), Some("%1"));
        assert_eq!(e.name.as_deref(), Some("work-08"));
        assert_eq!(e.version.as_deref(), Some("2.1.328"));
        assert_eq!(e.status_at, DateTime::from_timestamp_millis(1796193419431));
    }

    /// Its own question, before any prompt ("Make auto mode your default
    /// permission mode?"): no hook fires, only the record says it waits.
    #[test]
    fn a_claude_code_at_its_own_first_run_question() {
        let (text, path) = fixture("claude-code-2.1.328__waiting-dialog-open.json");
        let e = parse_entry(&text, &path).unwrap();
        assert_eq!(e.activity(), Activity::AwaitingInput);
        assert_eq!(e.waiting_for.as_deref(), Some("dialog open"));
        assert_eq!(e.tmux_pane.as_deref(), Some("%0"));
        assert_eq!(e.status_at, DateTime::from_timestamp_millis(1796210998880));
    }

    #[test]
    fn busy_then_idle_after_esc() {
        let (text, path) = fixture("claude-code-2.1.328__busy.json");
        let busy = parse_entry(&text, &path).unwrap();
        assert_eq!(busy.activity(), Activity::Active);
        assert_eq!(busy.waiting_for, None);
        assert_eq!(busy.tmux_pane.as_deref(), Some("%0"));
        let (text, path) = fixture("claude-code-2.1.328__idle-after-esc.json");
        let idle = parse_entry(&text, &path).unwrap();
        assert_eq!(idle.activity(), Activity::Idle);
        assert_eq!(idle.session_id, busy.session_id);
        assert!(idle.status_at > busy.status_at);
    }

    #[test]
    fn only_pid_names_are_records() {
        let pid = |s: &str| registry_pid(Path::new(s));
        assert_eq!(pid("/s/29237.json"), Some(29237));
        for name in [
            "/s/29237.9f5e.key",
            "/s/.json",
            "/s/x1.json",
            "/s/12.json.tmp",
        ] {
            assert_eq!(pid(name), None, "{name}");
        }
        assert_eq!(pid("/s/99999999999999999999.json"), None);
    }

    #[test]
    fn bad_input_is_a_problem() {
        let path = Path::new("/s/7.json");
        let cases = [
            ("", "not valid JSON"),
            ("[]", "not a JSON object"),
            (r#"{"sessionId":"a"}"#, "no `pid`"),
            (r#"{"pid":"7","sessionId":"a"}"#, "`pid` is not a number"),
            (r#"{"pid":8,"sessionId":"a"}"#, "not 7, the file's name"),
            (r#"{"pid":7}"#, "no `sessionId`"),
            (r#"{"pid":7,"sessionId":"../x"}"#, "not an id"),
            (r#"{"pid":7,"sessionId":5}"#, "`sessionId` is not text"),
            (r#"{"pid":7,"sessionId":"a","tmux":"s:@1"}"#, "`tmux`"),
            (r#"{"pid":7,"sessionId":"a","tmux":"s:@1.%x"}"#, "`tmux`"),
            (r#"{"pid":7,"sessionId":"a","status":true}"#, "`status`"),
            (
                r#"{"pid":7,"sessionId":"a","updatedAt":"x"}"#,
                "`updatedAt`",
            ),
        ];
        for (text, want) in cases {
            let err = parse_entry(text, path).unwrap_err();
            assert!(err.contains(want), "{text}: {err}");
        }
        let long = format!(r#"{{"pid":7,"sessionId":"{}"}}"#, "a".repeat(600));
        assert!(parse_entry(&long, path).unwrap_err().contains("longer"));
    }

    #[test]
    fn a_session_name_with_colons_and_an_unknown_status() {
        let text = r#"{"pid":7,"sessionId":"a","tmux":"a:b:@3.%12","status":"compacting"}"#;
        let e = parse_entry(text, Path::new("/s/7.json")).unwrap();
        assert_eq!(e.tmux_session.as_deref(), Some("a:b"));
        assert_eq!(e.tmux_pane.as_deref(), Some("%12"));
        assert_eq!(e.activity(), Activity::Unknown("compacting".into()));
    }
}
