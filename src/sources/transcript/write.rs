//! One assistant record as Claude Code appends it to a transcript, written
//! through the reader's own types: `greenroom demo-agent` spends its tokens
//! with it, so the demo's transcripts are what the reader expects.

use chrono::{DateTime, SecondsFormat, Utc};

use super::{Line, Message, RawUsage};
use crate::model::ModelUsage;

/// The JSONL line (with its newline) for one model call's usage.
pub fn usage_line(
    request_id: &str,
    message_id: &str,
    model: &str,
    usage: &ModelUsage,
    at: DateTime<Utc>,
) -> String {
    let timestamp = at.to_rfc3339_opts(SecondsFormat::Millis, true);
    let line = Line {
        kind: Some("assistant"),
        request_id: Some(request_id),
        timestamp: Some(&timestamp),
        message: Some(Message {
            id: Some(message_id),
            model: Some(model),
            usage: Some(RawUsage {
                input_tokens: usage.input,
                output_tokens: usage.output,
                cache_creation_input_tokens: Some(usage.cache_write),
                cache_read_input_tokens: usage.cache_read,
                cache_creation: None,
            }),
        }),
    };
    // Plain strings and numbers always serialise.
    let mut text = serde_json::to_string(&line).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn a_written_record_parses_back_to_its_usage() {
        let usage = ModelUsage {
            input: 1200,
            output: 300,
            cache_read: 20_000,
            cache_write: 400,
        };
        let at = Utc.with_ymd_and_hms(2026, 3, 14, 10, 0, 0).unwrap();
        let line = usage_line("req_1", "msg_1", "claude-sonnet-4-5", &usage, at);
        assert!(line.ends_with('\n') && !line.trim_end().contains('\n'));
        let record = super::super::parse_line(line.trim_end().as_bytes()).unwrap();
        assert_eq!(record.usage, usage);
        assert_eq!(record.model, "claude-sonnet-4-5");
        assert_eq!(record.key, Some(("msg_1".into(), "req_1".into())));
        assert_eq!(record.timestamp, Some(at));
    }
}
