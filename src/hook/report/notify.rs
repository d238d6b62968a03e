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

/// Whether a notice's thread is one Codex keeps a rollout of, so one
/// `codex resume` can take. Codex also runs `notify` at the end of its
/// side threads' turns (the title it asks the model for after each prompt,
/// under a thread id of its own), sometimes after the conversation's own
/// notice; such a notice is neither the session's id nor the end of its
/// turn. The thread id is a UUIDv7, so the day folder its rollout is filed
/// under is known from the id; an id that is not one cannot be judged and
/// counts.
pub fn has_rollout(codex_home: &std::path::Path, thread: &str) -> bool {
    let Some(created) = v7_time(thread) else {
        return true;
    };
    let suffix = format!("-{thread}.jsonl");
    crate::sources::codex_rollout::day_folders(codex_home, created)
        .iter()
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flat_map(|entries| entries.filter_map(Result::ok).take(MAX_PER_DAY))
        .any(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with("rollout-") && name.ends_with(&suffix)
        })
}

/// Whether a notice comes from a thread with no rollout (see
/// [`has_rollout`]); with no Codex home to look in, it is taken as it is.
pub fn from_side_thread(codex_home: Option<&std::path::Path>, ids: &PayloadIds) -> bool {
    codex_home
        .zip(ids.session_id.as_deref())
        .is_some_and(|(home, thread)| !has_rollout(home, thread))
}

/// Rollouts looked at in one day's folder.
const MAX_PER_DAY: usize = 4096;

/// When a UUIDv7 was made (its first 48 bits are Unix milliseconds).
fn v7_time(id: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    let id = uuid::Uuid::parse_str(id).ok()?;
    if id.get_version_num() != 7 {
        return None;
    }
    let bytes = id.as_bytes();
    let ms = bytes[..6]
        .iter()
        .fold(0i64, |acc, b| (acc << 8) | i64::from(*b));
    chrono::DateTime::from_timestamp_millis(ms)
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

    #[test]
    fn only_a_thread_with_a_rollout_counts() {
        let home = tempfile::tempdir().unwrap();
        let main = "01a236c5-f47b-7f92-97d5-d559dbb78961";
        let title = "01a236c5-f73c-7a63-9134-99634f610257";
        let created = v7_time(main).unwrap();
        let day = created.with_timezone(&chrono::Local).format("%Y/%m/%d");
        let dir = home.path().join(format!("sessions/{day}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join(format!("rollout-2026-12-02T12-40-11-{main}.jsonl")),
            "",
        )
        .unwrap();
        assert!(has_rollout(home.path(), main));
        assert!(!has_rollout(home.path(), title), "a side thread's");
        // Not a UUIDv7: nothing to judge by.
        assert!(has_rollout(
            home.path(),
            "b5f6c1c2-1111-2222-3333-444455556666"
        ));
        assert_eq!(v7_time("not-a-uuid"), None);
    }
}
