//! Codex CLI rollouts: a session's id, folder, model and token usage,
//! read incrementally.
//!
//! Codex CLI (0.169) records a conversation in
//! `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl` (`CODEX_HOME`
//! defaults to `~/.codex`); its hooks pass the file as `transcript_path`.
//! The file is append-only JSONL, each line `{timestamp, type, payload}`:
//! - `session_meta`: `payload.id` (the session id `codex resume` takes) and
//!   `payload.cwd`;
//! - `turn_context`: `payload.model`, the model of the turn that follows;
//! - `event_msg` whose `payload.type` is `token_count`:
//!   `payload.info.total_token_usage` is Codex's own running total for the
//!   session (`input_tokens`, `cached_input_tokens`,
//!   `cache_write_input_tokens`, `output_tokens`, `reasoning_output_tokens`).
//!
//! Only the last total counts: it already covers every turn before it. As
//! in OpenAI's usage, `input_tokens` includes the cached and cache-written
//! tokens and `output_tokens` includes the reasoning tokens, so:
//! input = input − cached − cache written, cache_read = cached,
//! cache_write = cache written, output = output; reasoning is shown beside
//! it and never priced twice. The whole total is put on the last model
//! named (Codex records no split by model).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::Deserialize;

use super::jsonl::JsonlTail;
use super::rate::RateWindow;
use super::timed_usage::TimedUsage;
use super::transcript::MAX_LINE_BYTES;
use crate::model::ModelUsage;

mod locate;
pub use locate::{day_folders, locate};

/// The model a rollout's tokens are put on before any turn names one.
const UNKNOWN_MODEL: &str = "unknown";

#[derive(Deserialize)]
struct Line {
    #[serde(rename = "type")]
    kind: String,
    timestamp: Option<String>,
    payload: Option<Payload>,
}

#[derive(Deserialize, Default)]
struct Payload {
    #[serde(rename = "type")]
    kind: Option<String>,
    id: Option<String>,
    cwd: Option<PathBuf>,
    model: Option<String>,
    info: Option<Info>,
}

#[derive(Deserialize)]
struct Info {
    total_token_usage: Option<Totals>,
}

/// Codex's running token total for a session, as it spells it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub struct Totals {
    #[serde(default)]
    pub input_tokens: u64,
    #[serde(default)]
    pub cached_input_tokens: u64,
    #[serde(default)]
    pub cache_write_input_tokens: u64,
    #[serde(default)]
    pub output_tokens: u64,
    #[serde(default)]
    pub reasoning_output_tokens: u64,
}

impl Totals {
    /// The total in greenroom's four kinds (see the module's note).
    pub fn usage(&self) -> ModelUsage {
        ModelUsage {
            input: self
                .input_tokens
                .saturating_sub(self.cached_input_tokens)
                .saturating_sub(self.cache_write_input_tokens),
            output: self.output_tokens,
            cache_read: self.cached_input_tokens,
            cache_write: self.cache_write_input_tokens,
        }
    }

    fn all(&self) -> u64 {
        self.input_tokens.saturating_add(self.output_tokens)
    }
}

/// What one rollout line says that greenroom uses.
#[derive(Debug, Clone, PartialEq)]
pub enum Record {
    Meta { id: String, cwd: Option<PathBuf> },
    Model(String),
    Tokens(Totals, Option<DateTime<Utc>>),
}

/// The record one line holds; `None` for other lines and bad JSON.
pub fn parse_line(line: &[u8]) -> Option<Record> {
    let wanted = [
        &b"\"session_meta\""[..],
        b"\"turn_context\"",
        b"\"token_count\"",
    ];
    if !wanted
        .iter()
        .any(|w| memchr::memmem::find(line, w).is_some())
    {
        return None;
    }
    let parsed: Line = serde_json::from_slice(line).ok()?;
    let p = parsed.payload?;
    match parsed.kind.as_str() {
        "session_meta" => Some(Record::Meta {
            id: p.id.filter(|id| !id.is_empty())?,
            cwd: p.cwd,
        }),
        "turn_context" => p.model.filter(|m| !m.is_empty()).map(Record::Model),
        "event_msg" if p.kind.as_deref() == Some("token_count") => {
            let at = parsed
                .timestamp
                .and_then(|t| DateTime::parse_from_rfc3339(&t).ok())
                .map(|t| t.with_timezone(&Utc));
            Some(Record::Tokens(p.info?.total_token_usage?, at))
        }
        _ => None,
    }
}

/// Whether a transcript path is a Codex rollout (`rollout-*.jsonl`) rather
/// than a Claude Code transcript or a Gemini session file.
pub fn is_rollout(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.starts_with("rollout-") && name.ends_with(".jsonl")
}

/// One rollout followed, kept current by [`Self::refresh`].
#[derive(Debug, Clone)]
pub struct CodexUsage {
    tail: JsonlTail,
    session_id: Option<String>,
    cwd: Option<PathBuf>,
    model: Option<String>,
    totals: Option<Totals>,
    by_model: BTreeMap<String, ModelUsage>,
    window: RateWindow,
    /// What each running total added, by when Codex wrote it.
    timed: TimedUsage,
}

impl CodexUsage {
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            tail: JsonlTail::new(path, MAX_LINE_BYTES),
            session_id: None,
            cwd: None,
            model: None,
            totals: None,
            by_model: BTreeMap::new(),
            window: RateWindow::default(),
            timed: TimedUsage::default(),
        }
    }

    /// The session id `codex resume` takes (`session_meta.payload.id`).
    pub fn session_id(&self) -> Option<&str> {
        self.session_id.as_deref()
    }

    pub fn cwd(&self) -> Option<&Path> {
        self.cwd.as_deref()
    }

    /// The model of the last turn.
    pub fn model(&self) -> Option<&str> {
        self.model.as_deref()
    }

    /// Codex's last running total, as it wrote it.
    pub fn totals(&self) -> Option<&Totals> {
        self.totals.as_ref()
    }

    /// Reasoning tokens (already inside the output count).
    pub fn reasoning(&self) -> u64 {
        self.totals.map_or(0, |t| t.reasoning_output_tokens)
    }

    pub fn by_model(&self) -> &BTreeMap<String, ModelUsage> {
        &self.by_model
    }

    /// Bytes read so far.
    pub fn offset(&self) -> u64 {
        self.tail.offset()
    }

    /// Tokens per minute over the last five minutes before `now`.
    pub fn tokens_per_minute(&self, now: DateTime<Utc>) -> f64 {
        self.window.per_minute(now)
    }

    /// The tokens counted at or after `start`, by the model of their turn.
    pub fn since(&self, start: DateTime<Utc>) -> BTreeMap<String, ModelUsage> {
        self.timed.since(start)
    }

    /// Reads what was appended since the last call; whether usage changed.
    pub fn refresh(&mut self) -> Result<bool, String> {
        let mut restarted = false;
        let mut records = Vec::new();
        self.tail
            .read_new(|| restarted = true, |line| records.extend(parse_line(line)))?;
        let before = self.by_model.clone();
        if restarted {
            // The lines came again from the start: forget what was counted.
            let tail = std::mem::take(&mut self.tail);
            *self = Self::new(PathBuf::new());
            self.tail = tail;
        }
        for record in records {
            self.count(record);
        }
        self.by_model = self
            .totals
            .map(|t| {
                let model = self.model.clone().unwrap_or_else(|| UNKNOWN_MODEL.into());
                BTreeMap::from([(model, t.usage())])
            })
            .unwrap_or_default();
        Ok(self.by_model != before)
    }

    fn count(&mut self, record: Record) {
        match record {
            Record::Meta { id, cwd } => {
                // The first session_meta is the session's own; a forked
                // rollout may repeat its parent's after it.
                if self.session_id.is_none() {
                    self.session_id = Some(id);
                    self.cwd = cwd;
                }
            }
            Record::Model(m) => self.model = Some(m),
            Record::Tokens(t, at) => {
                let grew = t.all().saturating_sub(self.totals.map_or(0, |o| o.all()));
                if let Some(at) = at {
                    self.window.note(at, grew);
                    let model = self.model.as_deref().unwrap_or(UNKNOWN_MODEL);
                    self.timed.add(at, model, &added(self.totals, t));
                }
                self.totals = Some(t);
            }
        }
    }
}

/// What a running total added to the one before it.
fn added(before: Option<Totals>, now: Totals) -> ModelUsage {
    let (b, n) = (before.unwrap_or_default().usage(), now.usage());
    ModelUsage {
        input: n.input.saturating_sub(b.input),
        output: n.output.saturating_sub(b.output),
        cache_read: n.cache_read.saturating_sub(b.cache_read),
        cache_write: n.cache_write.saturating_sub(b.cache_write),
    }
}

#[cfg(test)]
mod tests;
