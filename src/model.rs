//! Plain data shared by every layer: what a session is, what state it is in,
//! and what went wrong reading it. No IO lives here.

use std::fmt;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

mod changes;
pub use changes::{
    ChangedFile, Changes, Divergence, FileState, GitOperation, LineCounts, PullRequest,
};

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

// After the macro, so the submodules can declare open enums too.
mod budget;
mod ids;
mod orchestration;
mod preset;
mod session;
mod snooze;
mod tmux_facts;
mod why;

pub use budget::{Budget, DaySpend, day_start, local_day, usd_limit};
pub use ids::{HostName, HostPlace, PaneId, RowKey, TmuxTarget};
pub use orchestration::{
    Orchestration, Phase, PhaseError, PhaseId, PhaseStatus, TokenCounts, TokenUsage,
};
pub use preset::{
    AGENTS_WITH_HOOKS, AgentPreset, program_of, valid_agent_session_id, without_hooks,
};
pub use session::{
    ActivitySource, ActivityView, Adopted, AoDetails, ModelUsage, Session, Usage, WaitingFor,
    row_name,
};
pub use snooze::Snooze;
pub use tmux_facts::TmuxFacts;
pub use why::Why;

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

    /// Stopped but still on record: the session can be started again.
    pub fn is_stopped(&self) -> bool {
        matches!(self, Status::Dormant | Status::Killed | Status::Exited)
    }
}

/// Declares `Health` with `ALL` taken from the same list of variants, so a
/// new class cannot be left out of it.
macro_rules! health_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident),+ $(,)? }) => {
        $(#[$meta])*
        pub enum $name {
            $($variant,)+
        }

        impl $name {
            /// Every class, in declaration (urgency) order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];
        }
    };
}

health_enum! {
    /// What triage sorts on. Declaration order is urgency order: the derived
    /// `Ord` puts the most urgent first.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    Health {
        Errored,
        Waiting,
        Stuck,
        Ready,
        Active,
        Idle,
        Dormant,
        Killed,
        Exited,
        Done,
    }
}

impl Health {
    /// The class's name, as the `ls --json` contract and the screen spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Health::Errored => "errored",
            Health::Waiting => "waiting",
            Health::Stuck => "stuck",
            Health::Ready => "ready",
            Health::Active => "active",
            Health::Idle => "idle",
            Health::Dormant => "dormant",
            Health::Killed => "killed",
            Health::Exited => "exited",
            Health::Done => "done",
        }
    }

    /// One glyph per class, distinct without colour (NO_COLOR and
    /// colour-blind operators lose nothing but the colour).
    pub fn glyph(self) -> &'static str {
        match self {
            Health::Errored => "✖",
            Health::Waiting => "◆",
            Health::Stuck => "⧗",
            Health::Ready => "▷",
            Health::Active => "●",
            Health::Idle => "○",
            Health::Dormant => "·",
            Health::Killed => "×",
            Health::Exited => "⊘",
            Health::Done => "✓",
        }
    }

    /// The classes that call for the operator: alerts, attention marks,
    /// `greenroom next` and the status counts go by it.
    pub fn needs_operator(self) -> bool {
        match self {
            Health::Errored | Health::Waiting | Health::Stuck | Health::Ready => true,
            Health::Active
            | Health::Idle
            | Health::Dormant
            | Health::Killed
            | Health::Exited
            | Health::Done => false,
        }
    }

    /// No running process: the row is drawn dim.
    pub fn is_quiet(self) -> bool {
        match self {
            Health::Dormant | Health::Killed | Health::Exited | Health::Done => true,
            Health::Errored
            | Health::Waiting
            | Health::Stuck
            | Health::Ready
            | Health::Active
            | Health::Idle => false,
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
    /// An agent in a tmux pane greenroom did not start (adopted).
    Tmux,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Greenroom => "greenroom",
            Source::Maestro => "maestro",
            Source::AgentOrchestrator => "agent-orchestrator",
            Source::Tmux => "tmux",
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
