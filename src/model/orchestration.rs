//! A Maestro orchestration as greenroom reads it from a state file.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// A Maestro phase id: a number in the template, but hand-written files use
/// strings such as `2.1.1`. Kept as written.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PhaseId {
    Number(i64),
    Text(String),
}

impl fmt::Display for PhaseId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PhaseId::Number(n) => write!(f, "{n}"),
            PhaseId::Text(s) => f.write_str(s),
        }
    }
}

open_enum! {
    /// A Maestro phase's status, as the state file spells it.
    PhaseStatus {
        Pending => "pending",
        InProgress => "in_progress",
        Completed => "completed",
        Failed => "failed",
        Skipped => "skipped",
    }
}

/// One error entry recorded against a Maestro phase.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PhaseError {
    pub agent: Option<String>,
    pub timestamp: Option<String>,
    pub kind: Option<String>,
    pub message: Option<String>,
    pub resolution: Option<String>,
    pub resolved: bool,
}

/// One phase of a Maestro orchestration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Phase {
    pub id: PhaseId,
    pub name: Option<String>,
    pub status: PhaseStatus,
    pub agents: Vec<String>,
    pub errors: Vec<PhaseError>,
    pub retry_count: u32,
    /// `downstream_context.warnings`, flattened to text.
    pub warnings: Vec<String>,
    pub started: Option<String>,
    pub completed: Option<String>,
}

impl Phase {
    pub fn unresolved_errors(&self) -> usize {
        self.errors.iter().filter(|e| !e.resolved).count()
    }
}

/// Token counts as Maestro's orchestrator records them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TokenCounts {
    pub input: u64,
    pub output: u64,
    pub cached: u64,
}

/// Maestro's `token_usage`: totals and a split by agent.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TokenUsage {
    pub input: u64,
    pub output: u64,
    pub cached: u64,
    pub by_agent: BTreeMap<String, TokenCounts>,
}

/// A Maestro orchestration session read from a state file.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Orchestration {
    pub session_id: Option<String>,
    pub task: Option<String>,
    pub status: Option<String>,
    pub workflow_mode: Option<String>,
    pub current_phase: Option<PhaseId>,
    pub total_phases: Option<u64>,
    pub path: PathBuf,
    /// The workspace the state file belongs to.
    pub workspace: PathBuf,
    pub archived: bool,
    pub created: Option<String>,
    pub updated: Option<String>,
    /// `created` and `updated` as times, parsed once where the file is read
    /// (`sources::maestro`). Not on the wire: a host's rows come with their
    /// health decided.
    #[serde(skip)]
    pub created_at: Option<chrono::DateTime<chrono::Utc>>,
    #[serde(skip)]
    pub updated_at: Option<chrono::DateTime<chrono::Utc>>,
    pub phases: Vec<Phase>,
    pub token_usage: Option<TokenUsage>,
    /// Places where the file disagrees with itself; shown, never resolved by guessing.
    pub contradictions: Vec<String>,
}

impl Orchestration {
    pub fn is_completed(&self) -> bool {
        self.status.as_deref() == Some("completed")
    }

    /// A failed phase whose errors are not all resolved.
    pub fn has_unresolved_failure(&self) -> bool {
        self.phases.iter().any(|p| {
            p.status == PhaseStatus::Failed && (p.errors.is_empty() || p.unresolved_errors() > 0)
        }) || self.status.as_deref() == Some("failed")
    }

    pub fn has_phase_in_progress(&self) -> bool {
        self.status.as_deref() == Some("in_progress")
            || self
                .phases
                .iter()
                .any(|p| p.status == PhaseStatus::InProgress)
    }
}
