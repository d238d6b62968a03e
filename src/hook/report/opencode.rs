//! OpenCode's events, as greenroom's OpenCode plugin sends them
//! (`hook::install::opencode_plugin`): OpenCode's own bus event shape,
//! `{"type": …, "properties": {…}}` (`Event` in OpenCode 1.18's SDK,
//! `@opencode-ai/sdk` v2 types.gen.d.ts), cut down by the plugin to what
//! greenroom reads, with the folder OpenCode runs in (`directory`) and
//! whether the session is a subagent's (`subagent`). Like any payload they
//! are untrusted: each field is checked, texts are cleaned and bounded.
//!
//! `session.status` busy is a working agent; `permission.asked` waits for
//! the operator (its `permission` is the tool, `metadata.command` the bash
//! command); `permission.replied` works again, or stops when rejected
//! (OpenCode ends the turn then); `session.idle` is idle. Its `question`
//! tool's `question.asked` waits for the operator's answer, with the
//! question and its choices (as Claude Code's AskUserQuestion); answered
//! it works again, dismissed it stops (the tool fails, the turn ends).
//! `session.error` is an error in OpenCode's words, but the operator's own
//! interruption (`MessageAbortedError`) only stops.

use std::path::PathBuf;

use serde_json::Value;

use super::{Change, PayloadIds, ToolUpdate, active, awaiting, checked_session_id, idle, text};
use crate::hook::install::OPENCODE_EVENTS;
use crate::model::Activity;
use crate::sources::sidecar::ToolCall;

use super::question::{MAX_TEXT_CHARS, asked, clean};

/// The agent these events come from, as its rows are named.
pub const AGENT: &str = "opencode";

/// Whether a payload is one of OpenCode's events: a known `type`, its
/// `properties` an object, and none of the hook agents' `hook_event_name`.
pub fn is_event(payload: &Value) -> bool {
    payload.get("hook_event_name").is_none()
        && payload.get("properties").is_some_and(Value::is_object)
        && text(payload, "type").is_some_and(|t| OPENCODE_EVENTS.contains(&t))
}

fn properties(payload: &Value) -> &Value {
    payload.get("properties").unwrap_or(&Value::Null)
}

fn event(payload: &Value) -> &str {
    text(payload, "type").unwrap_or_default()
}

/// What the event means for the session.
pub fn classify(payload: &Value) -> Change {
    let p = properties(payload);
    match event(payload) {
        "session.status" => match p.get("status").and_then(|s| text(s, "type")) {
            Some("busy") => active(),
            // A failed request OpenCode tries again: still at work.
            Some("retry") => {
                let why = p.get("status").and_then(|s| text(s, "message"));
                let detail = why.and_then(|w| clean(&format!("retrying: {w}"), MAX_TEXT_CHARS));
                Change::Activity(Activity::Active, detail)
            }
            Some("idle") => idle(),
            _ => Change::Nothing,
        },
        "session.idle" => idle(),
        "permission.asked" => {
            let detail = text(p, "permission").map(|t| format!("permission to use {t}"));
            awaiting(Some(detail.as_deref().unwrap_or("permission required")))
        }
        "permission.replied" => match text(p, "reply") {
            Some("once" | "always") => active(),
            Some("reject") => idle(),
            _ => Change::Nothing,
        },
        "question.asked" => awaiting(Some(asked(p).0.as_deref().unwrap_or("question"))),
        "question.replied" => active(),
        "question.rejected" => idle(),
        "session.error" => failed(p.get("error").unwrap_or(&Value::Null)),
        _ => Change::Nothing,
    }
}

/// What an error OpenCode reports means: an interruption stops the turn;
/// anything else is an error, in OpenCode's words (its `data.message`,
/// else its name).
fn failed(error: &Value) -> Change {
    let name = text(error, "name");
    if name == Some("MessageAbortedError") {
        return idle();
    }
    let message = error.get("data").and_then(|d| text(d, "message"));
    let words = message.or(name).unwrap_or("OpenCode reported an error");
    Change::Activity(Activity::Error, clean(words, MAX_TEXT_CHARS))
}

/// The ids the event carries. A subagent's session is not the one
/// `opencode --session` resumes, so its id is not recorded.
pub fn ids(payload: &Value) -> PayloadIds {
    let p = properties(payload);
    let subagent = payload.get("subagent").and_then(Value::as_bool) == Some(true);
    let created = event(payload) == "session.created";
    let info = p.get("info").unwrap_or(&Value::Null);
    let child = created && info.get("parentID").is_some_and(|v| !v.is_null());
    let session = match created {
        true => text(info, "id"),
        false => text(p, "sessionID"),
    };
    let own = !subagent && !child;
    PayloadIds {
        session_id: session.filter(|_| own).and_then(checked_session_id),
        new_conversation: created && own,
        transcript_path: None,
        cwd: text(payload, "directory")
            .map(PathBuf::from)
            .filter(|d| d.is_absolute()),
        tool: tool_update(payload),
    }
}

/// The call a permission prompt holds: the tool, and what it would do
/// (bash's command; the file, address or pattern of the others).
fn tool_update(payload: &Value) -> ToolUpdate {
    let p = properties(payload);
    match event(payload) {
        "permission.asked" => {
            let metadata = p.get("metadata").unwrap_or(&Value::Null);
            let named = ["command", "filepath", "url", "pattern"]
                .iter()
                .find_map(|k| text(metadata, k))
                .map(str::to_owned);
            let patterns = || {
                let list = p.get("patterns").and_then(Value::as_array)?;
                let words: Vec<&str> = list.iter().take(16).filter_map(Value::as_str).collect();
                Some(words.join(" "))
            };
            let command = named
                .or_else(patterns)
                .and_then(|c| clean(&c, MAX_TEXT_CHARS));
            let tool = text(p, "permission").and_then(|t| clean(t, MAX_TEXT_CHARS));
            ToolUpdate::Set(ToolCall {
                tool,
                command,
                ..ToolCall::default()
            })
        }
        "permission.replied" => match classify(payload) {
            Change::Nothing => ToolUpdate::Keep,
            _ => ToolUpdate::Clear,
        },
        "question.asked" => {
            let (question, options) = asked(p);
            ToolUpdate::Set(ToolCall {
                tool: Some("question".into()),
                question,
                options,
                ..ToolCall::default()
            })
        }
        "session.idle" | "session.error" | "question.replied" | "question.rejected" => {
            ToolUpdate::Clear
        }
        "session.status" => match p.get("status").and_then(|s| text(s, "type")) {
            Some("idle") => ToolUpdate::Clear,
            _ => ToolUpdate::Keep,
        },
        _ => ToolUpdate::Keep,
    }
}
