//! One followed usage file, read by the parser of its agent.

use std::collections::BTreeMap;
use std::path::Path;

use super::floor::Counted;
use crate::model::ModelUsage;
use crate::sources::codex_rollout::{self, CodexUsage};
use crate::sources::gemini::{self, GeminiUsage};
use crate::sources::transcript::{self, TranscriptUsage};

/// One followed file, read by the parser of its agent.
#[derive(Debug)]
pub(super) enum Reader {
    Claude(TranscriptUsage),
    Gemini(GeminiUsage),
    Codex(CodexUsage),
}

impl Reader {
    pub(super) fn new(path: &Path) -> Self {
        if gemini::is_session_file(path) {
            Reader::Gemini(GeminiUsage::new(path))
        } else if codex_rollout::is_rollout(path) {
            Reader::Codex(CodexUsage::new(path))
        } else {
            Reader::Claude(TranscriptUsage::new(path))
        }
    }

    pub(super) fn refresh(&mut self) -> Result<bool, String> {
        match self {
            Reader::Claude(r) => r.refresh(),
            Reader::Gemini(r) => r.refresh(),
            Reader::Codex(r) => r.refresh(),
        }
    }

    pub(super) fn offset(&self) -> u64 {
        match self {
            Reader::Claude(r) => r.offset(),
            Reader::Gemini(r) => r.offset(),
            Reader::Codex(r) => r.offset(),
        }
    }

    /// Claude Code's last API error with no answer after it; Gemini's
    /// session file and Codex's rollout are not read for one.
    pub(super) fn last_api_error(&self) -> Option<&str> {
        match self {
            Reader::Claude(r) => r.last_api_error(),
            Reader::Gemini(_) | Reader::Codex(_) => None,
        }
    }

    /// When the agent last answered, by the transcript (Gemini's session
    /// file and Codex's rollout are not followed for it).
    pub(super) fn last_answer_at(&self) -> Option<chrono::DateTime<chrono::Utc>> {
        match self {
            Reader::Claude(r) => r.last_answer_at(),
            Reader::Gemini(_) | Reader::Codex(_) => None,
        }
    }

    /// The agent's own totals and what came after them (Claude Code's
    /// `cost-state` with its cost; Gemini CLI writes no such record, and
    /// Codex's totals carry no cost: they are priced as tokens).
    pub(super) fn agent_total(
        &self,
    ) -> Option<(&transcript::AgentTotal, &BTreeMap<String, ModelUsage>)> {
        match self {
            Reader::Claude(r) => Some((r.agent_total()?, r.since_agent_total())),
            Reader::Gemini(_) | Reader::Codex(_) => None,
        }
    }

    /// The agent's own id of the session, where the file says it (a Codex
    /// rollout's `session_meta`; the others are named by it).
    pub(super) fn session_id(&self) -> Option<&str> {
        match self {
            Reader::Codex(r) => r.session_id(),
            Reader::Claude(_) | Reader::Gemini(_) => None,
        }
    }

    /// Reasoning tokens inside the output count (Codex records them).
    pub(super) fn reasoning(&self) -> u64 {
        match self {
            Reader::Codex(r) => r.reasoning(),
            Reader::Claude(_) | Reader::Gemini(_) => 0,
        }
    }

    pub(super) fn by_model(&self) -> &BTreeMap<String, ModelUsage> {
        match self {
            Reader::Claude(r) => r.by_model(),
            Reader::Gemini(r) => r.by_model(),
            Reader::Codex(r) => r.by_model(),
        }
    }

    /// The tokens of records written at or after `start` (records with no
    /// time of their own are not counted), by model.
    pub(super) fn since(
        &self,
        start: chrono::DateTime<chrono::Utc>,
    ) -> BTreeMap<String, ModelUsage> {
        match self {
            Reader::Claude(r) => r.since(start),
            Reader::Gemini(r) => r.since(start),
            Reader::Codex(r) => r.since(start),
        }
    }

    pub(super) fn tokens_per_minute(&self, now: chrono::DateTime<chrono::Utc>) -> f64 {
        match self {
            Reader::Claude(r) => r.tokens_per_minute(now),
            Reader::Gemini(r) => r.tokens_per_minute(now),
            Reader::Codex(r) => r.tokens_per_minute(now),
        }
    }

    /// What the file counts now: kept as a floor when a later read counts less.
    pub(super) fn counted(&self) -> Counted {
        Counted {
            by_model: self.by_model().clone(),
            agent: self.agent_total().map(|(a, s)| (a.clone(), s.clone())),
        }
    }
}
