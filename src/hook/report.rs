//! `greenroom report`: one agent hook payload in, one sidecar update out.
//!
//! Status from the agent itself is exact where tmux inference only guesses.
//! This runs inside the agent's hook, so it must never hurt the agent: every
//! error is returned to the caller, which logs it and exits 0 silently.

use std::io::Read;
use std::path::PathBuf;
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::Value;
use uuid::Uuid;

use crate::environ::Env;
use crate::model::{Activity, Status};
use crate::sources::sidecar::{Sidecar, SidecarError, SidecarStore};

mod adopt;
mod defer;
mod notify;
pub mod opencode;
mod payload;
mod question;

pub use payload::{PAYLOAD_WAIT, payload_input, read_bounded, read_payload};
pub use question::{ToolUpdate, clean, tool_update};

/// How long a report waits for the (fair) sidecar lock before handing the
/// report to a copy of itself that waits longer, so the agent is held up
/// about a second at most and the report is still not lost.
pub const LOCK_WAIT: Duration = Duration::from_secs(1);

/// What a hook event means for the session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    Activity(Activity, Option<String>),
    /// The agent's session ended (Claude's and Gemini's SessionEnd).
    Ended(Option<String>),
    /// An event greenroom does not map: record the ids only.
    Nothing,
}

/// The ids and paths a payload carries, whatever its event.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PayloadIds {
    pub session_id: Option<String>,
    /// The payload starts a conversation (SessionStart: also after
    /// `/clear`), so its session id replaces the one recorded.
    pub new_conversation: bool,
    pub transcript_path: Option<PathBuf>,
    pub cwd: Option<PathBuf>,
    /// The tool call the agent holds, for what a waiting session asks.
    pub tool: ToolUpdate,
}

fn text<'a>(payload: &'a Value, key: &str) -> Option<&'a str> {
    payload
        .get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
}

/// An agent's session id as a record may keep it: short, one line.
fn checked_session_id(id: &str) -> Option<String> {
    (id.len() <= 256 && !id.chars().any(char::is_control)).then(|| id.to_owned())
}

impl PayloadIds {
    pub fn from_payload(payload: &Value) -> Self {
        if opencode::is_event(payload) {
            return opencode::ids(payload);
        }
        let path = |key| {
            text(payload, key)
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
        };
        Self {
            session_id: text(payload, "session_id").and_then(checked_session_id),
            new_conversation: text(payload, "hook_event_name") == Some("SessionStart"),
            transcript_path: path("transcript_path"),
            cwd: path("cwd"),
            tool: tool_update(payload),
        }
    }
}

/// A STATE given on the command line: `Active`, `idle`, `awaiting_input`,
/// `AwaitingInput`, `error`, `exited`…
pub fn parse_state_arg(arg: &str) -> Option<Change> {
    let norm: String = arg
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    let activity = match norm.as_str() {
        "active" | "working" | "busy" => Activity::Active,
        "idle" | "ready" => Activity::Idle,
        "awaitinginput" | "waiting" | "waitinginput" | "input" => Activity::AwaitingInput,
        "error" | "errored" | "failed" => Activity::Error,
        "exited" | "ended" => return Some(Change::Ended(None)),
        _ => return None,
    };
    Some(Change::Activity(activity, None))
}

fn active() -> Change {
    Change::Activity(Activity::Active, None)
}

fn idle() -> Change {
    Change::Activity(Activity::Idle, None)
}

/// The question, one clean line: it is shown in a sidebar, a desktop
/// notification and a status line.
fn awaiting(detail: Option<&str>) -> Change {
    let detail = detail.and_then(|d| clean(d, question::MAX_TEXT_CHARS));
    Change::Activity(Activity::AwaitingInput, detail)
}

/// Older Claude versions send no `notification_type`; their wording is the only clue.
fn asks_for_input(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    [
        "permission",
        "waiting for your input",
        "needs your",
        "approve",
        "confirm",
    ]
    .iter()
    .any(|k| m.contains(k))
}

/// Claude's Stop fires while background tasks may still run; the payload
/// then lists them, and the agent is not idle yet.
fn has_running_background_tasks(payload: &Value) -> bool {
    let running = |v: &Value| match v {
        Value::Array(items) => items.iter().any(|t| {
            t.get("status")
                .and_then(Value::as_str)
                .is_none_or(|s| matches!(s, "running" | "pending" | "in_progress"))
        }),
        Value::Object(map) => !map.is_empty(),
        Value::Number(n) => n.as_u64().is_some_and(|n| n > 0),
        Value::Bool(b) => *b,
        _ => false,
    };
    [
        "background_tasks",
        "running_background_tasks",
        "background_tasks_running",
        "has_background_tasks",
    ]
    .iter()
    .any(|k| payload.get(*k).is_some_and(running))
}

/// Why a turn failed, in the agent's own words. Claude Code 2.1.328 sends
/// `error: "unknown"` for an HTTP 400 and puts what it showed the operator
/// (`API Error: 400 <message>`) in `last_assistant_message`; a known kind
/// (`rate_limit`) is kept beside those words.
fn failure_reason(payload: &Value) -> String {
    let kind = text(payload, "error").filter(|k| !k.eq_ignore_ascii_case("unknown"));
    let words = text(payload, "last_assistant_message")
        .or_else(|| text(payload, "error_details"))
        .map(str::trim);
    match (words, kind) {
        (Some(w), Some(k)) if !w.contains(k) => format!("{w} ({k})"),
        (Some(w), _) => w.to_owned(),
        (None, Some(k)) => k.to_owned(),
        (None, None) => text(payload, "error").unwrap_or("stop failure").to_owned(),
    }
}

/// Maps a Claude Code or Gemini CLI hook event to a change (issue 6
/// table), or an OpenCode event (`opencode.rs`).
pub fn classify(payload: &Value) -> Change {
    if opencode::is_event(payload) {
        return opencode::classify(payload);
    }
    let Some(event) = text(payload, "hook_event_name") else {
        return Change::Nothing;
    };
    match event {
        "SessionStart" => idle(),
        // Claude
        "UserPromptSubmit" | "PreToolUse" | "PostToolUse" | "PostToolUseFailure"
        | "SubagentStart" | "SubagentStop" | "PreCompact" => active(),
        // Gemini
        "BeforeAgent"
        | "BeforeModel"
        | "AfterModel"
        | "BeforeTool"
        | "AfterTool"
        | "PreCompress"
        | "BeforeToolSelection" => active(),
        "AfterAgent" => idle(),
        "Notification" => {
            let message = text(payload, "message");
            match text(payload, "notification_type") {
                // `agent_needs_input`: one of Claude Code's own dialogs
                // blocks the agent (its words say which).
                Some("permission_prompt" | "elicitation_dialog" | "agent_needs_input") => {
                    awaiting(message)
                }
                // Gemini: the command waiting for "Allow execution?".
                Some("ToolPermission") => {
                    let command = payload.get("details").and_then(|d| text(d, "command"));
                    awaiting(command.or(message))
                }
                Some("idle_prompt") => idle(),
                Some(_) => Change::Nothing,
                None if message.is_some_and(asks_for_input) => awaiting(message),
                None => Change::Nothing,
            }
        }
        "PermissionRequest" => {
            let detail = text(payload, "tool_name").map(|t| format!("permission to use {t}"));
            awaiting(detail.as_deref())
        }
        "Stop" if has_running_background_tasks(payload) => active(),
        "Stop" => idle(),
        "StopFailure" => Change::Activity(Activity::Error, Some(failure_reason(payload))),
        // `/clear` ends one conversation and starts the next at once.
        "SessionEnd" if text(payload, "reason") == Some("clear") => Change::Nothing,
        "SessionEnd" => Change::Ended(text(payload, "reason").map(str::to_owned)),
        _ => Change::Nothing,
    }
}

/// How many earlier conversations a record remembers: enough for any real
/// session, and a record stays small whatever a payload claims.
const EARLIER_TRANSCRIPTS: usize = 256;

/// A session that moved on to another transcript (`/clear`) keeps the one it
/// left: its spend is still the session's.
fn keep_earlier(s: &mut Sidecar, before: Option<PathBuf>) {
    // Back to an earlier conversation (`/resume`): it is the current one
    // again, and each transcript is counted once.
    let current = s.transcript_path.clone();
    s.earlier_transcripts
        .retain(|p| Some(p) != current.as_ref());
    let Some(before) = before else { return };
    if current.as_ref() == Some(&before) || s.earlier_transcripts.contains(&before) {
        return;
    }
    if s.earlier_transcripts.len() < EARLIER_TRANSCRIPTS {
        s.earlier_transcripts.push(before);
    }
}

/// The detail of an ended session: SessionEnd's reason in the operator's
/// words where it names what they did.
fn ended_because(reason: Option<&str>) -> String {
    match reason {
        Some("prompt_input_exit") => "agent session ended (/exit)".into(),
        Some("logout") => "agent session ended (/logout)".into(),
        // The payload's word, bounded and without control characters.
        Some(r) => {
            let r: String = r.chars().filter(|c| !c.is_control()).take(40).collect();
            format!("agent session ended ({r})")
        }
        None => "agent session ended".into(),
    }
}

/// Applies a change and the payload's ids to a sidecar. Returns whether
/// anything changed, so an identical report causes no write.
pub fn apply(s: &mut Sidecar, change: &Change, ids: &PayloadIds, now: DateTime<Utc>) -> bool {
    let before = s.clone();
    if s.agent_session_id.is_none() || (ids.new_conversation && ids.session_id.is_some()) {
        s.agent_session_id = ids.session_id.clone();
    }
    if ids.transcript_path.is_some() {
        let before = std::mem::replace(&mut s.transcript_path, ids.transcript_path.clone());
        keep_earlier(s, before);
    }
    if ids.cwd.is_some() {
        s.current_cwd = ids.cwd.clone();
    }
    match &ids.tool {
        ToolUpdate::Set(call) => s.activity_tool = Some(call.clone()),
        ToolUpdate::Clear => s.activity_tool = None,
        ToolUpdate::Keep => {}
    }
    let (activity, detail) = match change {
        Change::Nothing => return *s != before,
        Change::Activity(a, d) => (a.clone(), d.clone()),
        Change::Ended(reason) => {
            s.status = Status::Exited;
            (Activity::Idle, Some(ended_because(reason.as_deref())))
        }
    };
    if s.activity.as_ref() != Some(&activity) {
        s.activity_since = Some(now);
    }
    s.activity = Some(activity);
    s.activity_detail = detail;
    s.activity_reported_at = Some(now);
    s.answered_with = None;
    s.last_activity_at = Some(now);
    true
}

/// What the report says: the change, the ids, and whether it is Codex's
/// `notify` notice (its JSON in place of a STATE).
fn what_it_says(
    state_arg: Option<&str>,
    payload: Option<&Value>,
) -> Result<(Change, PayloadIds, bool), String> {
    if let Some(ids) = state_arg.and_then(notify::turn_complete) {
        return Ok((idle(), ids, true));
    }
    let from_arg = match state_arg {
        Some(arg) => Some(parse_state_arg(arg).ok_or_else(|| notify::unknown_state(arg))?),
        None => None,
    };
    match (payload, from_arg) {
        (None, None) => Err("empty payload and no STATE".into()),
        (Some(p), arg) => Ok((
            arg.unwrap_or_else(|| classify(p)),
            PayloadIds::from_payload(p),
            false,
        )),
        (None, Some(arg)) => Ok((arg, PayloadIds::default(), false)),
    }
}

/// The whole report: env -> payload -> change -> locked sidecar update.
pub fn run(
    state_arg: Option<&str>,
    input: impl Read,
    env: &dyn Env,
    now: DateTime<Utc>,
) -> Result<(), String> {
    // Hooks installed for the user run in every agent session, most of
    // them not greenroom's: those inside tmux are adopted by their pane;
    // the rest have nothing to point at, and nothing wrong to log.
    let own = match env.var("GREENROOM_SESSION_ID") {
        Some(id) => Some(
            Uuid::parse_str(id.trim()).map_err(|e| format!("GREENROOM_SESSION_ID {id:?}: {e}"))?,
        ),
        None => None,
    };
    let adopted = match own {
        Some(_) => None,
        None => match adopt::target(env)? {
            Some(t) => Some(t),
            None => return Ok(()),
        },
    };
    let copy_of = defer::deferred_at(env);
    if copy_of.is_some() {
        // The ancestry is read (`adopt::target`): the report that started
        // this copy may end now.
        defer::ready();
    }
    let payload = read_payload(input)?;
    let (change, ids, notice) = what_it_says(state_arg, payload.as_ref())?;
    if notice && notify::from_side_thread(crate::config::codex_home(env).as_deref(), &ids) {
        return Ok(());
    }
    let (now, wait) = match copy_of {
        Some(at) => (at, defer::DEFERRED_LOCK_WAIT),
        None => (now, LOCK_WAIT),
    };
    let superseded = |s: &Sidecar| copy_of.is_some() && defer::superseded(s, now);
    let result = match (own, &adopted) {
        (Some(id), _) => {
            let dir = env
                .var("GREENROOM_SIDECAR_DIR")
                .ok_or("GREENROOM_SIDECAR_DIR is not set")?;
            SidecarStore::new(dir)
                .update(id, wait, |s| !superseded(s) && apply(s, &change, &ids, now))
                .map(drop)
        }
        (None, Some(t)) => {
            let agent = match notice {
                true => notify::AGENT.to_owned(),
                false => adopt::agent_of(payload.as_ref(), &ids, env),
            };
            adopt::record(t, &change, &ids, &agent, now, wait, superseded)
        }
        (None, None) => return Ok(()),
    };
    match result {
        Err(SidecarError::LockTimeout(..)) if copy_of.is_none() => {
            defer::hand_over(state_arg, payload.as_ref(), now, env)
        }
        Ok(_) if copy_of.is_some() => {
            defer::note(env, "deferred report recorded (unless a newer one was)");
            Ok(())
        }
        other => other.map_err(|e| e.to_string()),
    }
}
