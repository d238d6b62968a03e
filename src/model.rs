//! Plain data shared by every layer: what a session is, what state it is in,
//! and what went wrong reading it. No IO lives here.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// Declares a string-backed enum whose unknown spellings survive a round
/// trip: another tool may write a value greenroom does not know yet, and
/// rewriting the file must not lose it.
macro_rules! open_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $spelling:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(from = "String", into = "String")]
        pub enum $name {
            $($variant,)+
            /// A spelling greenroom does not know; kept as written.
            Unknown(String),
        }

        impl $name {
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$variant => $spelling,)+
                    Self::Unknown(s) => s,
                }
            }
        }

        impl From<String> for $name {
            fn from(s: String) -> Self {
                match s.as_str() {
                    $($spelling => Self::$variant,)+
                    _ => Self::Unknown(s),
                }
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                Self::from(s.to_owned())
            }
        }

        impl From<$name> for String {
            fn from(v: $name) -> String {
                v.as_str().to_owned()
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

open_enum! {
    /// The life of a session's tmux session, as the sidecar records it.
    Status {
        Running => "Running",
        Dormant => "Dormant",
        Killed => "Killed",
        Exited => "Exited",
        // Rows only: a dismissed record, or one recovery archived because
        // its folder was gone. `restore` brings it back.
        Archived => "Archived",
    }
}

open_enum! {
    /// What the agent is doing, as reported by a hook or inferred from tmux.
    Activity {
        Active => "Active",
        Idle => "Idle",
        AwaitingInput => "AwaitingInput",
        Error => "Error",
    }
}

impl Activity {
    /// The snake_case spelling of the `ls --json` contract.
    pub fn contract_name(&self) -> &'static str {
        match self {
            Activity::Active => "active",
            Activity::Idle => "idle",
            Activity::AwaitingInput => "awaiting_input",
            Activity::Error => "error",
            Activity::Unknown(_) => "unknown",
        }
    }
}

impl Status {
    pub fn is_live(&self) -> bool {
        matches!(self, Status::Running)
    }
}

/// What triage sorts on. Declaration order is urgency order: the derived
/// `Ord` puts the most urgent first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Health {
    Errored,
    Waiting,
    Stuck,
    Active,
    Idle,
    Dormant,
    Killed,
    Exited,
    Done,
}

impl Health {
    pub const ALL: [Health; 9] = [
        Health::Errored,
        Health::Waiting,
        Health::Stuck,
        Health::Active,
        Health::Idle,
        Health::Dormant,
        Health::Killed,
        Health::Exited,
        Health::Done,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Health::Errored => "errored",
            Health::Waiting => "waiting",
            Health::Stuck => "stuck",
            Health::Active => "active",
            Health::Idle => "idle",
            Health::Dormant => "dormant",
            Health::Killed => "killed",
            Health::Exited => "exited",
            Health::Done => "done",
        }
    }
}

impl fmt::Display for Health {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which system a session row comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    Greenroom,
    Maestro,
    AgentOrchestrator,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Greenroom => "greenroom",
            Source::Maestro => "maestro",
            Source::AgentOrchestrator => "agent-orchestrator",
        }
    }
}

/// A file greenroom could not use, and why. Shown to the operator; never fatal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    pub path: PathBuf,
    pub error: String,
}

impl Problem {
    pub fn new(path: impl Into<PathBuf>, error: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            error: error.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.error)
    }
}

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

/// Token usage and cost read from an agent transcript.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct ModelUsage {
    pub input: u64,
    pub output: u64,
    pub cache_read: u64,
    pub cache_write: u64,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Usage {
    pub input: u64,
    pub output: u64,
    pub cache_read: u64,
    pub cache_write: u64,
    pub cost_usd: Option<f64>,
    pub by_model: BTreeMap<String, ModelUsage>,
    /// All four kinds of tokens per minute over the last five minutes.
    #[serde(default)]
    pub tokens_per_minute: f64,
    /// Where `cost_usd` comes from: `claude-code` (the agent's own
    /// `cost-state` totals) or `prices` (greenroom's price table).
    #[serde(default)]
    pub cost_source: Option<String>,
    /// Models greenroom has no price for: while any is listed, `cost_usd`
    /// is null (unknown), and the UI says which model lacks a price.
    #[serde(default)]
    pub unpriced_models: Vec<String>,
}

/// Checks an operator-facing session name: `[A-Za-z0-9_-]{1,64}`. The rule
/// keeps names safe as tmux targets and file-name parts.
pub fn validate_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > 64 {
        return Err(format!(
            "session name {name:?} must be 1 to 64 characters long"
        ));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return Err(format!(
            "session name {name:?} may use only letters, digits, '_' and '-' (found {bad:?})"
        ));
    }
    Ok(())
}

/// What Agent Orchestrator says about one of its sessions, in its own
/// words (`pr_open`, `ci_failed`, ...): shown as AO spells it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AoDetails {
    /// The lifecycle state: `lifecycle.session.state` (v2), else `status`.
    pub status: Option<String>,
    /// Why it is in that state (v2 `lifecycle.session.reason`).
    pub reason: Option<String>,
    /// AO's detected activity (`active`, `ready`, `waiting_input`, ...).
    pub activity: Option<String>,
    pub project: Option<String>,
    pub issue: Option<String>,
    /// The pull request's link.
    pub pr: Option<String>,
    pub summary: Option<String>,
}

/// Where a row's activity comes from: the agent's own hook, greenroom's
/// reading of tmux, or another tool's record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum ActivitySource {
    Hook,
    /// greenroom recorded it after answering a prompt (`send --key`): the
    /// agents fire no hook when a tool is refused.
    Answer,
    Tmux,
    Maestro,
    AgentOrchestrator,
    /// Nothing has said anything yet.
    #[default]
    Nothing,
}

impl ActivitySource {
    /// The spelling of `ls --json`'s `activity.source`.
    pub fn as_str(self) -> &'static str {
        match self {
            ActivitySource::Hook => "hook",
            ActivitySource::Answer => "answer",
            ActivitySource::Tmux => "tmux",
            ActivitySource::Maestro => "maestro",
            ActivitySource::AgentOrchestrator => "agent-orchestrator",
            ActivitySource::Nothing => "none",
        }
    }

    /// The short word the dashboard shows beside a status.
    pub fn label(self) -> &'static str {
        match self {
            ActivitySource::Hook => "hook",
            ActivitySource::Answer => "answered",
            ActivitySource::Tmux => "tmux",
            ActivitySource::Maestro => "Maestro",
            ActivitySource::AgentOrchestrator => "AO",
            ActivitySource::Nothing => "no report",
        }
    }
}

/// The activity a row shows, with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActivityView {
    pub state: Activity,
    pub detail: Option<String>,
    pub since: Option<DateTime<Utc>>,
    /// True while a hook's report is fresher than `report_ttl`.
    pub reported: bool,
    pub source: ActivitySource,
}

/// What a waiting agent asks, in its own words where it says them: Claude
/// Code's Notification message, the tool and command of the call it holds.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WaitingFor {
    pub question: Option<String>,
    pub tool: Option<String>,
    pub command: Option<String>,
}

impl WaitingFor {
    /// One line: `Claude needs your permission · Bash: touch x`; a part
    /// the question already says is not repeated.
    pub fn line(&self) -> Option<String> {
        let question = self.question.as_deref();
        let said = |t: &str| question.is_some_and(|q| q.contains(t));
        let tool = self.tool.as_deref().filter(|t| !said(t));
        let command = self.command.as_deref().filter(|c| !said(c));
        let call = match (tool, command) {
            (Some(t), Some(c)) => Some(format!("{t}: {c}")),
            (Some(t), None) => Some(t.to_owned()),
            (None, Some(c)) => Some(c.to_owned()),
            (None, None) => None,
        };
        match (question, call) {
            (Some(q), Some(c)) => Some(format!("{q} · {c}")),
            (Some(q), None) => Some(q.to_owned()),
            (None, call) => call,
        }
    }
}

/// One row of the catalog: a session from any source, merged and classified.
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    /// The sidecar's uuid, the Maestro session id, or the AO session id.
    pub id: String,
    pub name: String,
    pub source: Source,
    pub status: Status,
    pub health: Health,
    pub cwd: PathBuf,
    pub agent: Option<String>,
    pub tmux_session: Option<String>,
    pub created_at: Option<DateTime<Utc>>,
    pub last_focused_at: Option<DateTime<Utc>>,
    pub last_activity_at: Option<DateTime<Utc>>,
    pub agent_session_id: Option<String>,
    pub activity: ActivityView,
    /// Shared with the catalog: rows are rebuilt often, orchestrations rarely change.
    pub orchestration: Option<std::sync::Arc<Orchestration>>,
    /// The agent Maestro's hooks say is working now in this session.
    pub active_agent: Option<String>,
    pub usage: Option<Usage>,
    pub branch: Option<String>,
    /// Agent Orchestrator's own account, for its sessions.
    pub agent_orchestrator: Option<AoDetails>,
    /// Dismissed sidecars and archived state files: shown only with `--all`.
    pub archived: bool,
    /// What is wrong with this session's own files.
    pub problems: Vec<String>,
    /// Set while the operator has snoozed it (and nothing new happened):
    /// out of the queue, the counts and the alerts until then.
    pub snoozed_until: Option<DateTime<Utc>>,
    /// What a waiting session asks, where the agent said it.
    pub waiting_for: Option<WaitingFor>,
    /// Which rule decided the health, in words (`health::explain`).
    pub why: String,
}
