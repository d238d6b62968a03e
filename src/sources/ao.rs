//! Agent Orchestrator (`ao`) session files, read-only.
//!
//! Two layouts live side by side under `~/.agent-orchestrator`: the legacy
//! one (`<hash>-<project>/sessions/<id>`, flat `key=value`, lifecycle as
//! JSON text in `statePayload`) and the current one
//! (`projects/<p>/sessions/<id>.json`, `projects/<p>/orchestrator.json`,
//! lifecycle as a nested object). Both become one [`AoSession`].

mod derive;
mod discover;
mod fields;
mod lifecycle;

use std::path::{Component, Path, PathBuf};

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use derive::{LifecycleWords, derive_status};
pub use discover::{read_root, read_session_file, session_file_kind, session_folders};
pub use lifecycle::lifecycle_health;

use fields::{field, field_object, field_time, kind_of};

use crate::model::{Activity, Status};

type Object = Map<String, Value>;

/// One ao session file as read. ao's own words (states, activities) are
/// kept as written; [`AoSession::status`] and [`AoSession::activity`]
/// translate them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AoSession {
    pub id: String,
    pub path: PathBuf,
    pub project: Option<String>,
    pub agent: Option<String>,
    /// AO's status word as AO shows it: the stored `status`, else the one
    /// AO derives from the lifecycle, the pull request's state first
    /// (`derive.rs`).
    pub state: Option<String>,
    /// The v2 lifecycle's own session state (`working`, `idle`, ...): what
    /// the agent is doing when the status word names the pull request.
    pub session_state: Option<String>,
    pub activity: Option<String>,
    pub runtime_state: Option<String>,
    pub tmux_name: Option<String>,
    pub branch: Option<String>,
    pub worktree: Option<PathBuf>,
    pub created_at: Option<DateTime<Utc>>,
    pub last_transition_at: Option<DateTime<Utc>>,
    pub kind: Option<String>,
    /// Why it is in its state (v2 `lifecycle.session.reason`).
    pub reason: Option<String>,
    pub issue: Option<String>,
    /// The pull request's link: `pr`, else v2 `lifecycle.pr.url`.
    pub pr: Option<String>,
    pub summary: Option<String>,
    pub archived: bool,
}

impl AoSession {
    /// greenroom's view of the session's life. ao's own words are kept in
    /// `Unknown` when they do not map, so the operator still sees them.
    pub fn status(&self) -> Status {
        let state = self.state.as_deref().unwrap_or("");
        if matches!(state, "killed" | "terminated") {
            return Status::Killed;
        }
        // An archive file is a snapshot taken when the session ended, so the
        // state it recorded ("working") no longer describes anything live.
        if self.archived {
            return Status::Exited;
        }
        match state {
            "spawning" | "not_started" | "working" | "detecting" | "idle" | "pr_open"
            | "ci_failed" | "review_pending" | "changes_requested" | "approved" | "mergeable"
            | "needs_input" | "stuck" => match self.runtime_state.as_deref() {
                // tmux session gone but restorable: the same word greenroom
                // uses for its own sessions whose tmux session vanished.
                Some("missing") => Status::Dormant,
                Some("exited" | "dead") => Status::Exited,
                _ => Status::Running,
            },
            "merged" | "done" | "cleanup" | "errored" => Status::Exited,
            "" => Status::Unknown("unknown".into()),
            other => Status::Unknown(other.into()),
        }
    }

    /// ao's detected activity when it recorded one, else what the lifecycle
    /// state implies.
    pub fn activity(&self) -> Activity {
        match self.activity.as_deref() {
            Some("active") => return Activity::Active,
            Some("ready" | "idle") => return Activity::Idle,
            Some("waiting_input") => return Activity::AwaitingInput,
            Some("blocked") => return Activity::Error,
            _ => {}
        }
        match self.state.as_deref() {
            Some("needs_input") => Activity::AwaitingInput,
            Some("errored" | "ci_failed") => Activity::Error,
            Some("working") => Activity::Active,
            Some("idle") => Activity::Idle,
            // `review_pending` and the like name the pull request; the
            // lifecycle still says whether the agent works on.
            _ => match self.session_state.as_deref() {
                Some("working") => Activity::Active,
                Some("idle") => Activity::Idle,
                _ => Activity::Unknown(self.activity.clone().unwrap_or_else(|| "unknown".into())),
            },
        }
    }

    /// Operator-facing name: ao's own session id, as `ao session ls` shows it.
    pub fn name(&self) -> &str {
        &self.id
    }
}

/// The default root: `~/.agent-orchestrator` (None without a HOME).
pub fn default_root(env: &dyn crate::environ::Env) -> Option<PathBuf> {
    let home = env.var("HOME")?;
    Some(PathBuf::from(home).join(".agent-orchestrator"))
}

/// Flat `key=value` lines: `#` comments and blank lines ignored, split on the
/// first `=`, the key trimmed, the value kept as written.
pub fn parse_key_values(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|line| {
            let (key, value) = line.split_once('=')?;
            let key = key.trim();
            (!key.is_empty() && !key.starts_with('#')).then(|| (key.to_owned(), value.to_owned()))
        })
        .collect()
}

/// Parses one file's text; `path` decides the id and whether it is JSON or legacy.
pub fn parse_session(text: &str, path: &Path, archived: bool) -> Result<AoSession, String> {
    if text.trim().is_empty() {
        return Err("is empty".into());
    }
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let is_json = Path::new(&file_name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    let stem = &file_name[..file_name.len() - if is_json { 5 } else { 0 }];
    let map = object_of(text, is_json)?;
    let (project_dir, dir_project) = project_of(path);
    let top = Some(&map);
    let lifecycle = field_object(top, "lifecycle")?;
    let life_session = field_object(lifecycle, "lifecycle.session")?;
    let life_runtime = field_object(lifecycle, "lifecycle.runtime")?;
    let handle = field_object(top, "runtimeHandle")?;
    let handle_id = field(handle, "runtimeHandle.id")?;
    // A handle from another runtime (docker, process) names no tmux session.
    let tmux_handle = match field(handle, "runtimeHandle.runtimeName")? {
        None => handle_id.clone(),
        Some(runtime) => handle_id.clone().filter(|_| runtime == "tmux"),
    };
    let tmux_name = field(top, "tmuxName")?
        .or(field(life_runtime, "lifecycle.runtime.tmuxName")?)
        .or(tmux_handle);
    let project = field(top, "project")?.or(dir_project);
    let is_orchestrator = file_name == "orchestrator.json"
        && !matches!(
            parent_name(path, 1).as_deref(),
            Some("sessions" | "archive")
        );
    let id = if is_orchestrator {
        orchestrator_id(&[&handle_id, &tmux_name], project.as_deref())
    } else {
        if archived { archived_id(stem) } else { stem }.to_owned()
    };
    if id.is_empty() {
        return Err("has no session id in its file name".into());
    }
    let started = field_time(life_session, "lifecycle.session.startedAt")?;
    let life_pr = field_object(lifecycle, "lifecycle.pr")?;
    let session_state = field(life_session, "lifecycle.session.state")?;
    let reason = field(life_session, "lifecycle.session.reason")?;
    let derived = derive_status(LifecycleWords {
        session_state: session_state.as_deref(),
        session_reason: reason.as_deref(),
        pr_state: field(life_pr, "lifecycle.pr.state")?.as_deref(),
        pr_reason: field(life_pr, "lifecycle.pr.reason")?.as_deref(),
    });
    Ok(AoSession {
        id,
        path: path.to_path_buf(),
        agent: field(top, "agent")?,
        state: field(top, "status")?.or(derived),
        session_state,
        activity: field(top, "activity")?,
        runtime_state: field(life_runtime, "lifecycle.runtime.state")?,
        tmux_name,
        branch: field(top, "branch")?,
        worktree: field(top, "worktree")?.map(|w| resolve(&w, project_dir)),
        created_at: field_time(top, "createdAt")?.or(started),
        last_transition_at: field_time(life_session, "lifecycle.session.lastTransitionAt")?,
        kind: field(life_session, "lifecycle.session.kind")?.or(field(top, "role")?),
        reason,
        issue: field(top, "issue")?,
        pr: field(top, "pr")?.or(field(life_pr, "lifecycle.pr.url")?),
        summary: field(top, "summary")?,
        project,
        archived,
    })
}

/// The file's fields as one JSON object, whichever format it is in.
fn object_of(text: &str, is_json: bool) -> Result<Object, String> {
    let mut map = if is_json {
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(map)) => map,
            Ok(other) => return Err(format!("holds {}, not a JSON object", kind_of(&other))),
            Err(e) => return Err(format!("is not valid JSON: {e}")),
        }
    } else {
        legacy_object(text)?
    };
    // Meaning is clear when an object arrives as JSON text: accept it.
    for key in ["lifecycle", "runtimeHandle"] {
        if let Some(Value::String(s)) = map.get(key) {
            let parsed = match s.trim() {
                "" => Value::Null,
                s => serde_json::from_str(s)
                    .map_err(|e| format!("`{key}` is text that is not JSON: {e}"))?,
            };
            map.insert(key.to_owned(), parsed);
        }
    }
    Ok(map)
}

/// A project's orchestrator file is named for its role, not its session:
/// the id is its runtime handle or tmux name, else `<project>-orchestrator`.
fn orchestrator_id(names: &[&Option<String>], project: Option<&str>) -> String {
    names
        .iter()
        .filter_map(|n| n.as_ref())
        // A name with control characters is kept for display but
        // cannot stand in for the id the operator types.
        .find(|n| n.len() <= 128 && !n.chars().any(char::is_control))
        .cloned()
        .unwrap_or_else(|| format!("{}-orchestrator", project.unwrap_or("ao")))
}

/// Legacy text as a JSON object, so both formats share one field reader.
fn legacy_object(text: &str) -> Result<Object, String> {
    let pairs = parse_key_values(text);
    if pairs.is_empty() {
        return Err("has no key=value lines; not an Agent Orchestrator session file".into());
    }
    let mut map = Object::new();
    for (key, value) in pairs {
        if key == "statePayload" {
            if !value.trim().is_empty() {
                let payload = serde_json::from_str(&value)
                    .map_err(|e| format!("`statePayload` is not valid JSON: {e}"))?;
                map.insert("lifecycle".into(), payload);
            }
        } else {
            map.insert(key, Value::String(value));
        }
    }
    Ok(map)
}

/// The project folder a session file belongs to, and the project name its
/// folder implies (`projects/<p>` or a legacy `<12 hex>-<p>`).
fn project_of(path: &Path) -> (Option<&Path>, Option<String>) {
    let up = match [1, 2].map(|up| parent_name(path, up)) {
        [Some(a), Some(s)] if a == "archive" && s == "sessions" => 3,
        [Some(s), _] if s == "sessions" || s == "archive" => 2,
        _ => 1,
    };
    let project = parent_name(path, up).and_then(|name| {
        if parent_name(path, up + 1).as_deref() == Some("projects") {
            return Some(name);
        }
        let (hash, p) = name.split_once('-')?;
        let is_hash = hash.len() == 12 && hash.bytes().all(|b| b.is_ascii_hexdigit());
        is_hash.then(|| p.to_owned())
    });
    (path.ancestors().nth(up), project.filter(|p| !p.is_empty()))
}

fn parent_name(path: &Path, up: usize) -> Option<String> {
    let dir = path.ancestors().nth(up)?;
    Some(dir.file_name()?.to_string_lossy().into_owned())
}

/// ao stores current worktrees relative to the project folder (`./worktrees/x`).
fn resolve(worktree: &str, project_dir: Option<&Path>) -> PathBuf {
    let path: PathBuf = Path::new(worktree)
        .components()
        .filter(|c| *c != Component::CurDir)
        .collect();
    match project_dir {
        Some(dir) if path.is_relative() => dir.join(path),
        _ => path,
    }
}

/// `ao-83_2026-04-20T14:30:52.000Z` -> `ao-83`. Only an `_` followed by a
/// timestamp ends the id, so ids that contain `_` survive.
fn archived_id(name: &str) -> &str {
    name.match_indices('_')
        .find(|(at, _)| {
            let rest = &name.as_bytes()[at + 1..];
            rest.len() >= 4 && rest[..4].iter().all(u8::is_ascii_digit)
        })
        .map_or(name, |(at, _)| &name[..at])
}

#[cfg(test)]
mod tests {
    use super::discover::is_ignored_name;
    use super::*;

    /// One case a line: state, runtime state, archived (`a`) or live (`-`), expected status.
    const STATUS_TABLE: &str = "
        spawning - - Running        working alive - Running      pr_open - - Running
        ci_failed - - Running       review_pending - - Running   changes_requested - - Running
        approved - - Running        mergeable - - Running        needs_input - - Running
        stuck - - Running           idle - - Running             detecting - - Running
        working missing - Dormant   stuck exited - Exited        working dead - Exited
        merged alive - Exited       done - - Exited              cleanup - - Exited
        errored - - Exited          killed - - Killed            terminated alive - Killed
        working alive a Exited      killed - a Killed            - - a Exited
        paused - - paused           - - - unknown";

    /// One case a line: lifecycle state, activity, expected activity.
    const ACTIVITY_TABLE: &str = "
        needs_input active Active       - ready Idle                - idle Idle
        working waiting_input AwaitingInput                         working blocked Error
        needs_input - AwaitingInput     errored exited Error        ci_failed - Error
        working - Active                merged exited exited        - - unknown";

    fn session(state: &str, runtime: &str, activity: &str) -> AoSession {
        let word = |w: &str| Some(w.to_owned()).filter(|w| w != "-");
        AoSession {
            state: word(state),
            runtime_state: word(runtime),
            activity: word(activity),
            ..AoSession::default()
        }
    }

    #[test]
    fn status_table() {
        let words: Vec<&str> = STATUS_TABLE.split_whitespace().collect();
        for case in words.chunks(4) {
            let mut s = session(case[0], case[1], "-");
            s.archived = case[2] == "a";
            assert_eq!(s.status().as_str(), case[3], "{case:?}");
        }
    }

    #[test]
    fn activity_table() {
        let words: Vec<&str> = ACTIVITY_TABLE.split_whitespace().collect();
        for case in words.chunks(3) {
            let activity = session(case[0], "-", case[1]).activity();
            assert_eq!(activity.as_str(), case[2], "{case:?}");
        }
    }

    #[test]
    fn key_values_split_on_first_equals() {
        let kv = parse_key_values("# c\n\n k =a=b\n=x\nnoequals\n # k=v\nv= spaced \r\n");
        let kv: Vec<_> = kv.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(kv, [("k", "a=b"), ("v", " spaced ")]);
    }

    #[test]
    fn archived_ids_and_ignored_names() {
        assert_eq!(archived_id("ao-83_2026-04-20T14:30:52.000Z"), "ao-83");
        assert_eq!(archived_id("my_app-3_20260420T143052Z"), "my_app-3");
        assert_eq!(archived_id("plain_name"), "plain_name");
        let ignored = ".ao-1.swp ao-1~ ao-1.tmp ao-1.json.tmp.123 ao-1.tmp-9 ao-1.lock";
        assert!(ignored.split(' ').all(is_ignored_name));
        assert!(!is_ignored_name("ao-1") && !is_ignored_name("ao-1.json"));
    }
}
