//! Gemini CLI session files: token usage per model, read incrementally.
//!
//! Gemini CLI (0.61) records a conversation in
//! `<home>/.gemini/tmp/<project>/chats/session-<date>-<id8>.jsonl`, where
//! `<home>` is `GEMINI_CLI_HOME` or the user's home and `<project>` is the
//! short id `<home>/.gemini/projects.json` maps the working folder to (the
//! folder's base name, lower-cased, every run of other characters than
//! `a-z0-9` as one `-`, with `-1`, `-2`… on a clash; `.project_root` in the
//! folder names its owner). Its hooks pass the file as `transcript_path`.
//!
//! The file is append-only JSONL: a first metadata line, then message
//! records (`id`, `type`, `timestamp`, and on model messages `model` and
//! `tokens: {input, output, cached, thoughts, tool, total}`), `$set`
//! metadata updates (which may carry `messages`), and `$rewindTo`. A record
//! whose `id` was seen before is an update of that message: it replaces
//! what the earlier one counted. A rewind does not give tokens back: they
//! were spent.
//!
//! Gemini's `input` (the prompt) includes the `cached` tokens, and tool-use
//! prompts (`tool`) and thinking (`thoughts`) are billed on top, so:
//! input = input − cached + tool, cache_read = cached, output = output +
//! thoughts, cache_write = 0.

use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::Deserialize;

use super::jsonl::JsonlTail;
use super::rate::RateWindow;
use super::timed_usage::TimedUsage;
use super::transcript::MAX_LINE_BYTES;
use crate::model::ModelUsage;

/// Updates of one message come close together (its tokens, then its tool
/// calls' results); this many recent ids catches them with bounded memory.
const RECENT_IDS: usize = 64;

#[derive(Deserialize)]
struct Line {
    #[serde(flatten)]
    message: Message,
    #[serde(rename = "$set")]
    set: Option<SetRecord>,
}

#[derive(Deserialize)]
struct SetRecord {
    #[serde(default)]
    messages: Vec<Message>,
}

#[derive(Deserialize, Default)]
struct Message {
    id: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    model: Option<String>,
    tokens: Option<Tokens>,
    timestamp: Option<String>,
}

#[derive(Deserialize, Default)]
struct Tokens {
    #[serde(default)]
    input: u64,
    #[serde(default)]
    output: u64,
    #[serde(default)]
    cached: u64,
    #[serde(default)]
    thoughts: u64,
    #[serde(default)]
    tool: u64,
}

/// One model message's usage.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub id: Option<String>,
    pub model: String,
    pub usage: ModelUsage,
    pub timestamp: Option<DateTime<Utc>>,
}

impl Message {
    fn into_record(self) -> Option<Record> {
        if self.kind.as_deref().is_some_and(|k| k != "gemini") {
            return None;
        }
        let t = self.tokens?;
        Some(Record {
            id: self.id,
            model: self.model.unwrap_or_else(|| "unknown".into()),
            usage: ModelUsage {
                input: t.input.saturating_sub(t.cached).saturating_add(t.tool),
                output: t.output.saturating_add(t.thoughts),
                cache_read: t.cached,
                cache_write: 0,
            },
            timestamp: self
                .timestamp
                .and_then(|t| DateTime::parse_from_rfc3339(&t).ok())
                .map(|t| t.with_timezone(&Utc)),
        })
    }
}

/// The model messages with tokens one line records (a message record, or
/// the `messages` of a `$set`); none for other lines or bad JSON.
pub fn parse_line(line: &[u8]) -> Vec<Record> {
    if memchr::memmem::find(line, b"\"tokens\"").is_none() {
        return Vec::new();
    }
    let Ok(parsed) = serde_json::from_slice::<Line>(line) else {
        return Vec::new();
    };
    let mut out: Vec<Record> = parsed.message.into_record().into_iter().collect();
    if let Some(set) = parsed.set {
        out.extend(set.messages.into_iter().filter_map(Message::into_record));
    }
    out
}

/// Whether a transcript path is a Gemini CLI session file
/// (`…/chats/session-*.jsonl`) rather than a Claude Code transcript.
pub fn is_session_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let in_chats = path
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|d| d == "chats");
    in_chats && name.starts_with("session-") && name.ends_with(".jsonl")
}

/// Usage summed from one session file, kept current by [`Self::refresh`].
#[derive(Debug, Clone)]
pub struct GeminiUsage {
    tail: JsonlTail,
    recent: VecDeque<(String, String, ModelUsage)>,
    by_model: BTreeMap<String, ModelUsage>,
    window: RateWindow,
    /// The same usage by when it happened (messages with a timestamp).
    timed: TimedUsage,
}

fn total(u: &ModelUsage) -> u64 {
    u.input
        .saturating_add(u.output)
        .saturating_add(u.cache_read)
        .saturating_add(u.cache_write)
}

impl GeminiUsage {
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            tail: JsonlTail::new(path, MAX_LINE_BYTES),
            recent: VecDeque::new(),
            by_model: BTreeMap::new(),
            window: RateWindow::default(),
            timed: TimedUsage::default(),
        }
    }

    pub fn path(&self) -> &Path {
        self.tail.path()
    }

    pub fn by_model(&self) -> &BTreeMap<String, ModelUsage> {
        &self.by_model
    }

    /// Bytes read so far.
    pub fn offset(&self) -> u64 {
        self.tail.offset()
    }

    /// Tokens (all kinds) per minute over the last five minutes before `now`.
    pub fn tokens_per_minute(&self, now: DateTime<Utc>) -> f64 {
        self.window.per_minute(now)
    }

    /// The tokens of messages written at or after `start`, by model.
    pub fn since(&self, start: DateTime<Utc>) -> BTreeMap<String, ModelUsage> {
        self.timed.since(start)
    }

    /// Reads what was appended since the last call; whether usage changed.
    pub fn refresh(&mut self) -> Result<bool, String> {
        let mut restarted = false;
        let mut records = Vec::new();
        self.tail
            .read_new(|| restarted = true, |line| records.extend(parse_line(line)))?;
        let mut changed = false;
        if restarted {
            changed = !self.by_model.is_empty();
            self.recent.clear();
            self.by_model.clear();
            self.window.clear();
            self.timed.clear();
        }
        for record in records {
            changed |= self.count(record);
        }
        Ok(changed)
    }

    fn count(&mut self, record: Record) -> bool {
        let mut grew = total(&record.usage);
        if let Some(id) = &record.id {
            if let Some(pos) = self.recent.iter().position(|(k, _, _)| k == id) {
                let (_, model, old) = &self.recent[pos];
                if *model == record.model && *old == record.usage {
                    return false;
                }
                // An update of the message: it replaces what was counted.
                let (model, old) = (model.clone(), *old);
                if let Some(entry) = self.by_model.get_mut(&model) {
                    entry.sub(&old);
                }
                // Taken back from the update's time: a message keeps its
                // timestamp when Gemini writes it again.
                if let Some(at) = record.timestamp {
                    self.timed.remove(at, &model, &old);
                }
                grew = grew.saturating_sub(total(&old));
                self.recent[pos] = (id.clone(), record.model.clone(), record.usage);
            } else {
                self.recent
                    .push_back((id.clone(), record.model.clone(), record.usage));
                if self.recent.len() > RECENT_IDS {
                    self.recent.pop_front();
                }
            }
        }
        if let Some(at) = record.timestamp {
            self.note_rate(at, grew);
            self.timed.add(at, &record.model, &record.usage);
        }
        self.by_model
            .entry(record.model)
            .or_default()
            .add(&record.usage);
        true
    }

    fn note_rate(&mut self, at: DateTime<Utc>, tokens: u64) {
        self.window.note(at, tokens);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_messages_with_tokens_are_records() {
        let line = br#"{"id":"m1","timestamp":"2026-12-01T09:43:41.379Z","type":"gemini","content":"hi","tokens":{"input":100,"output":7,"cached":10,"thoughts":3,"tool":2,"total":122},"model":"gemini-2.5-pro"}"#;
        let r = parse_line(line);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].id.as_deref(), Some("m1"));
        assert_eq!(r[0].model, "gemini-2.5-pro");
        assert_eq!(
            r[0].usage,
            ModelUsage {
                input: 92,
                output: 10,
                cache_read: 10,
                cache_write: 0
            }
        );
        assert!(parse_line(br#"{"id":"u","type":"user","content":"tokens"}"#).is_empty());
        assert!(parse_line(br#"{"$set":{"lastUpdated":"x"}}"#).is_empty());
        assert!(parse_line(b"{\"tokens\": not json").is_empty());
        let set = br#"{"$set":{"messages":[{"id":"a","type":"gemini","tokens":{"input":5}},{"id":"b","type":"user"}]}}"#;
        assert_eq!(parse_line(set).len(), 1);
    }

    #[test]
    fn session_files_are_told_from_claude_transcripts() {
        assert!(is_session_file(Path::new(
            "/h/.gemini/tmp/proj/chats/session-2026-12-01T09-43-316d1955.jsonl"
        )));
        assert!(!is_session_file(Path::new(
            "/h/.claude/projects/-x/0b1c2d3e.jsonl"
        )));
        assert!(!is_session_file(Path::new("/h/chats/other.jsonl")));
    }
}
