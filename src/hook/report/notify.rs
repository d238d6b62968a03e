//! Codex's `notify` program: with `notify = ["greenroom", "report"]` in
//! its config.toml, Codex runs `greenroom report '<json>'` at the end of
//! each turn, the JSON as the last argument and nothing on stdin
//! (codex-rs/hooks/src/legacy_notify.rs):
//! `{"type": "agent-turn-complete", "thread-id": …, "turn-id": …, "cwd": …,
//! "input-messages": […], "last-assistant-message": …}`.
//! The argument is untrusted like any payload: bounded, and anything but
//! that JSON is not a notice (the caller treats it as an unknown STATE).

use std::path::PathBuf;

use serde_json::Value;

use super::{PayloadIds, ToolUpdate, checked_session_id, text};

/// The most Linux passes in one argument (`MAX_ARG_STRLEN`); a longer one
/// cannot come from Codex.
pub const MAX_NOTICE_BYTES: usize = 128 * 1024;

/// The agent that sends these notices, as its rows are named.
pub const AGENT: &str = "codex";

/// The ids of an `agent-turn-complete` notice: the thread id is Codex's
/// session id (what `codex resume` takes). `None` for anything else.
pub fn turn_complete(arg: &str) -> Option<PayloadIds> {
    if arg.len() > MAX_NOTICE_BYTES || !arg.trim_start().starts_with('{') {
        return None;
    }
    let notice: Value = serde_json::from_str(arg).ok()?;
    if text(&notice, "type") != Some("agent-turn-complete") {
        return None;
    }
    let session_id = text(&notice, "thread-id").and_then(checked_session_id)?;
    Some(PayloadIds {
        session_id: Some(session_id),
        new_conversation: false,
        transcript_path: None,
        cwd: text(&notice, "cwd")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute()),
        // The turn is over: no tool call is held any more.
        tool: ToolUpdate::Clear,
    })
}

/// The refusal of an argument that is neither a STATE nor a notice; it may
/// be long (a notice Codex made too large), so the log gets its start only.
pub fn unknown_state(arg: &str) -> String {
    const SHOWN: usize = 80;
    let start: String = arg.chars().take(SHOWN).collect();
    let more = if arg.chars().nth(SHOWN).is_some() {
        "…"
    } else {
        ""
    };
    format!("unknown STATE {start:?}{more}")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn only_a_turn_complete_notice_with_a_thread_id_is_one() {
        let ok = r#"{"type":"agent-turn-complete","thread-id":"b5f6c1c2-1111-2222-3333-444455556666","turn-id":"1","cwd":"/w/app","input-messages":["hi"],"last-assistant-message":"done"}"#;
        let ids = turn_complete(ok).unwrap();
        assert_eq!(
            ids.session_id.as_deref(),
            Some("b5f6c1c2-1111-2222-3333-444455556666")
        );
        assert_eq!(ids.cwd, Some(PathBuf::from("/w/app")));
        assert_eq!(ids.tool, ToolUpdate::Clear);
        for not in [
            "idle",
            "{",
            "[]",
            r#"{"type":"agent-turn-started","thread-id":"x"}"#,
            r#"{"type":"agent-turn-complete"}"#,
            r#"{"type":"agent-turn-complete","thread-id":"a\nb"}"#,
            r#"{"type":"agent-turn-complete","thread-id":7}"#,
        ] {
            assert_eq!(turn_complete(not), None, "{not}");
        }
        let padded = format!("{}{}", &ok[..ok.len() - 1], ",\"pad\":\"");
        let huge = format!("{padded}{}\"}}", "x".repeat(MAX_NOTICE_BYTES));
        assert_eq!(turn_complete(&huge), None);
        let relative = ok.replace("/w/app", "w/app");
        assert_eq!(turn_complete(&relative).unwrap().cwd, None);
    }
}
