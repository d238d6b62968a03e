//! Claude Code transcripts (JSONL): token usage per model, read
//! incrementally. Only the bytes appended since the last read are parsed; a
//! file that shrank or was replaced is read again from the start. Memory
//! stays flat however long the transcript grows: lines are streamed, and
//! only a bounded window of recent message ids is kept for de-duplication.

use std::cell::Cell;
use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::jsonl::JsonlTail;
use super::rate::RateWindow;
use super::timed_usage::TimedUsage;
use crate::model::ModelUsage;

mod api_error;
mod cost_state;
mod write;
pub use cost_state::AgentTotal;
pub use write::usage_line;

/// A longer line (a giant tool result) is skipped rather than held in memory.
pub const MAX_LINE_BYTES: usize = 8 * 1024 * 1024;
/// Streaming rewrites one message a few times in a row; this many recent
/// ids is plenty to catch every repeat while keeping memory bounded.
const RECENT_IDS: usize = 16;

// Serialize too: `usage_line` writes a record through the same types.
#[derive(Deserialize, Serialize)]
struct Line<'a> {
    /// `assistant` on the records that carry usage; not read.
    #[serde(rename = "type", borrow, default)]
    kind: Option<&'a str>,
    #[serde(rename = "requestId", borrow)]
    request_id: Option<&'a str>,
    #[serde(borrow)]
    timestamp: Option<&'a str>,
    #[serde(borrow)]
    message: Option<Message<'a>>,
}

#[derive(Deserialize, Serialize)]
struct Message<'a> {
    #[serde(borrow)]
    id: Option<&'a str>,
    #[serde(borrow)]
    model: Option<&'a str>,
    usage: Option<RawUsage>,
}

#[derive(Deserialize, Serialize, Default)]
struct RawUsage {
    #[serde(default)]
    input_tokens: u64,
    #[serde(default)]
    output_tokens: u64,
    cache_creation_input_tokens: Option<u64>,
    #[serde(default)]
    cache_read_input_tokens: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache_creation: Option<CacheCreation>,
}

#[derive(Deserialize, Serialize, Default)]
struct CacheCreation {
    #[serde(default)]
    ephemeral_5m_input_tokens: u64,
    #[serde(default)]
    ephemeral_1h_input_tokens: u64,
}

/// One counted message.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub key: Option<(String, String)>,
    pub model: String,
    pub usage: ModelUsage,
    pub timestamp: Option<DateTime<Utc>>,
}

fn total(u: &ModelUsage) -> u64 {
    u.input
        .saturating_add(u.output)
        .saturating_add(u.cache_read)
        .saturating_add(u.cache_write)
}

/// Parses one line; `None` for lines without usage, the `<synthetic>` model, or bad JSON.
pub fn parse_line(line: &[u8]) -> Option<Record> {
    // Most lines (user turns, tool results) carry no usage: skip them unparsed.
    if !contains(line, b"\"usage\"") {
        return None;
    }
    let parsed: Line<'_> = serde_json::from_slice(line).ok()?;
    let message = parsed.message?;
    let raw = message.usage?;
    let model = message.model.unwrap_or("unknown");
    if model == "<synthetic>" {
        return None;
    }
    let cache_write = raw.cache_creation_input_tokens.unwrap_or_else(|| {
        raw.cache_creation.as_ref().map_or(0, |c| {
            c.ephemeral_5m_input_tokens
                .saturating_add(c.ephemeral_1h_input_tokens)
        })
    });
    Some(Record {
        key: message
            .id
            .zip(parsed.request_id)
            .map(|(m, r)| (m.to_owned(), r.to_owned())),
        model: model.to_owned(),
        usage: ModelUsage {
            input: raw.input_tokens,
            output: raw.output_tokens,
            cache_read: raw.cache_read_input_tokens,
            cache_write,
        },
        timestamp: parsed
            .timestamp
            .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
            .map(|t| t.with_timezone(&Utc)),
    })
}

/// A byte search before any parse: most lines of a long transcript are not
/// the rare record looked for, and memchr's search skips them fast.
fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(haystack, needle).is_some()
}

/// Claude Code's project folder name for a working folder: every character
/// but ASCII letters and digits becomes `-`.
pub fn project_dir_name(cwd: &Path) -> String {
    cwd.to_string_lossy()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// Where Claude Code keeps a session's transcript.
pub fn locate(claude_dir: &Path, cwd: &Path, agent_session_id: &str) -> Option<PathBuf> {
    let safe = !agent_session_id.is_empty()
        && agent_session_id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    safe.then(|| {
        claude_dir
            .join("projects")
            .join(project_dir_name(cwd))
            .join(format!("{agent_session_id}.jsonl"))
    })
}

/// Subagent transcripts sit in `<session id>/subagents/` beside the main one.
pub fn subagent_dir(transcript: &Path) -> PathBuf {
    transcript.with_extension("").join("subagents")
}

/// Usage summed from one transcript file, kept current by [`Self::refresh`].
#[derive(Debug, Clone, Default)]
pub struct TranscriptUsage {
    tail: JsonlTail,
    recent: VecDeque<((String, String), String, ModelUsage)>,
    by_model: BTreeMap<String, ModelUsage>,
    /// Claude Code's own totals, from its last `cost-state` record.
    agent_total: Option<AgentTotal>,
    /// What the transcript counted after that record (a resumed session).
    since_total: BTreeMap<String, ModelUsage>,
    /// The words of the last API error, until a real answer follows it.
    last_api_error: Option<String>,
    window: RateWindow,
    /// The same usage by when it happened (records with a timestamp).
    timed: TimedUsage,
}

impl TranscriptUsage {
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            tail: JsonlTail::new(path, MAX_LINE_BYTES),
            ..Self::default()
        }
    }

    pub fn path(&self) -> &Path {
        self.tail.path()
    }

    pub fn by_model(&self) -> &BTreeMap<String, ModelUsage> {
        &self.by_model
    }

    /// Claude Code's own totals, when it wrote a `cost-state` record.
    pub fn agent_total(&self) -> Option<&AgentTotal> {
        self.agent_total.as_ref()
    }

    /// What Claude Code showed for its last API error (`API Error: 400 …`),
    /// unless a real answer came after it.
    pub fn last_api_error(&self) -> Option<&str> {
        self.last_api_error.as_deref()
    }

    /// Usage counted after the last `cost-state` record (all of it when there is none).
    pub fn since_agent_total(&self) -> &BTreeMap<String, ModelUsage> {
        &self.since_total
    }

    /// Bytes read so far (the next read starts here).
    pub fn offset(&self) -> u64 {
        self.tail.offset()
    }

    /// Tokens (all four kinds) per minute over the last five minutes before `now`.
    pub fn tokens_per_minute(&self, now: DateTime<Utc>) -> f64 {
        self.window.per_minute(now)
    }

    /// The tokens of records written at or after `start`, by model.
    pub fn since(&self, start: DateTime<Utc>) -> BTreeMap<String, ModelUsage> {
        self.timed.since(start)
    }

    /// When the newest answer with usage was written (the record's own
    /// time): the agent's last word in its transcript.
    pub fn last_answer_at(&self) -> Option<DateTime<Utc>> {
        self.window.newest()
    }

    /// Reads what was appended since the last call. Returns whether the
    /// usage changed. A missing file is empty usage, not an error; a file
    /// replaced or truncated is counted again from its start.
    pub fn refresh(&mut self) -> Result<bool, String> {
        // The tail is taken out while it hands lines to `count`.
        let mut tail = std::mem::take(&mut self.tail);
        let restarted = Cell::new(false);
        let mut changed = false;
        let read = tail.read_new(
            || restarted.set(true),
            |line| {
                if restarted.replace(false) {
                    changed |= self.forget();
                }
                changed |= self.count(line);
            },
        );
        if restarted.get() {
            changed |= self.forget();
        }
        self.tail = tail;
        read.map(|()| changed)
    }

    /// Forgets what was counted (the file was replaced); whether there was any.
    fn forget(&mut self) -> bool {
        let had = !self.by_model.is_empty();
        let tail = std::mem::take(&mut self.tail);
        *self = Self {
            tail,
            ..Self::default()
        };
        had
    }

    fn count(&mut self, line: &[u8]) -> bool {
        if let Some(total) = cost_state::parse(line) {
            // A newer total replaces the last; what came before it is in it.
            let changed = self.agent_total.as_ref() != Some(&total) || !self.since_total.is_empty();
            self.agent_total = Some(total);
            self.since_total.clear();
            return changed;
        }
        if let Some(words) = api_error::parse(line) {
            let changed = self.last_api_error.as_deref() != Some(words.as_str());
            self.last_api_error = Some(words);
            return changed;
        }
        let Some(record) = parse_line(line) else {
            return false;
        };
        let answered = self.last_api_error.take().is_some();
        if let Some(key) = &record.key {
            if let Some(pos) = self.recent.iter().position(|(k, _, _)| k == key) {
                let (_, model, old) = &self.recent[pos];
                if total(&record.usage) <= total(old) {
                    return answered;
                }
                // A later write of the same message: count only what grew.
                let (model, old) = (model.clone(), *old);
                for map in [&mut self.by_model, &mut self.since_total] {
                    let entry = map.entry(model.clone()).or_default();
                    entry.sub(&old);
                }
                self.recent[pos].2 = record.usage;
                self.note_rate(record.timestamp, total(&record.usage) - total(&old));
                if let Some(at) = record.timestamp {
                    self.timed.remove(at, &model, &old);
                }
                self.add(record.timestamp, &record.model, &record.usage);
                return true;
            }
            self.recent
                .push_back((key.clone(), record.model.clone(), record.usage));
            if self.recent.len() > RECENT_IDS {
                self.recent.pop_front();
            }
        }
        self.note_rate(record.timestamp, total(&record.usage));
        self.add(record.timestamp, &record.model, &record.usage);
        true
    }

    fn add(&mut self, at: Option<DateTime<Utc>>, model: &str, usage: &ModelUsage) {
        for map in [&mut self.by_model, &mut self.since_total] {
            map.entry(model.to_owned()).or_default().add(usage);
        }
        if let Some(at) = at {
            self.timed.add(at, model, usage);
        }
    }

    fn note_rate(&mut self, at: Option<DateTime<Utc>>, tokens: u64) {
        let Some(at) = at else { return };
        self.window.note(at, tokens);
    }
}
