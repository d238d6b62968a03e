//! One row of the catalog, and what may be done with it.

use std::collections::BTreeMap;
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{Activity, Health, HostPlace, Orchestration, RowKey, Source, Status};

/// Token usage and cost read from an agent transcript.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct ModelUsage {
    pub input: u64,
    pub output: u64,
    pub cache_read: u64,
    pub cache_write: u64,
}

impl ModelUsage {
    /// Counts `more` in, each kind of token apart; a count never wraps (a
    /// file may claim any number).
    pub fn add(&mut self, more: &ModelUsage) {
        self.input = self.input.saturating_add(more.input);
        self.output = self.output.saturating_add(more.output);
        self.cache_read = self.cache_read.saturating_add(more.cache_read);
        self.cache_write = self.cache_write.saturating_add(more.cache_write);
    }

    /// Takes `less` out, each kind of token apart, down to none.
    pub fn sub(&mut self, less: &ModelUsage) {
        self.input = self.input.saturating_sub(less.input);
        self.output = self.output.saturating_sub(less.output);
        self.cache_read = self.cache_read.saturating_sub(less.cache_read);
        self.cache_write = self.cache_write.saturating_sub(less.cache_write);
    }
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Usage {
    pub input: u64,
    pub output: u64,
    pub cache_read: u64,
    pub cache_write: u64,
    /// Reasoning tokens, already inside `output` (Codex records them; the
    /// other agents' records do not say).
    #[serde(default)]
    pub reasoning: u64,
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
    /// What of the spend happened on the local day it names, by the
    /// records' own times (priced from greenroom's table; see README,
    /// "Budgets"). `None` when nothing timed was priced.
    #[serde(default)]
    pub today: Option<super::DaySpend>,
    /// The `[budget] session_usd` limit `cost_usd` is over, if it is.
    #[serde(default)]
    pub over_budget_usd: Option<f64>,
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
    /// Claude Code's own session record (`~/.claude/sessions/<pid>.json`):
    /// a Claude Code with no greenroom hooks.
    ClaudeRegistry,
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
            ActivitySource::ClaudeRegistry => "claude-registry",
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
            ActivitySource::ClaudeRegistry => "Claude",
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
/// Code's Notification message, the tool and command of the call it holds,
/// or the question it puts and its numbered choices.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WaitingFor {
    pub question: Option<String>,
    pub tool: Option<String>,
    pub command: Option<String>,
    /// A question's choices: the digit `n` answers with the n-th.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
}

impl WaitingFor {
    /// The choices as the digits that pick them: `1 Red · 2 Blue`.
    pub fn choices(&self) -> Option<String> {
        let numbered: Vec<String> = (1..)
            .zip(&self.options)
            .map(|(n, o)| format!("{n} {o}"))
            .collect();
        (!numbered.is_empty()).then(|| numbered.join(" · "))
    }

    /// One line: `Claude needs your permission · Bash: touch x`; a part
    /// the question already says is not repeated. A question with choices
    /// is the question and its numbered choices.
    pub fn line(&self) -> Option<String> {
        if let Some(choices) = self.choices() {
            return Some(match &self.question {
                Some(q) => format!("{q} · {choices}"),
                None => choices,
            });
        }
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
    /// For an agent greenroom did not start: the pane it runs in.
    pub adopted: Option<Adopted>,
    /// What git says about the session's work tree (none outside one).
    pub changes: Option<std::sync::Arc<super::Changes>>,
    /// The worktree greenroom made for this session, at its folder: the
    /// one worktree dismissing it may offer to remove.
    pub own_worktree: Option<PathBuf>,
    /// Set while the operator has snoozed it (and nothing new happened):
    /// out of the queue, the counts and the alerts until then.
    pub snoozed_until: Option<DateTime<Utc>>,
    /// What a waiting session asks, where the agent said it.
    pub waiting_for: Option<WaitingFor>,
    /// Which rule decided the health, in words (`health::explain`).
    pub why: super::Why,
    /// Where the session runs: `None` on this machine, else the `[[hosts]]`
    /// entry whose stream sent the row, with that host's own id for it.
    /// What the operator does to the row goes there (`tui::reduce::op::decide`).
    pub host: Option<HostPlace>,
}

/// An agent found in a tmux pane greenroom did not start: through its
/// hooks' reports, or from the pane's program alone (no hooks).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adopted {
    pub pane: super::PaneId,
    /// Whether its hooks report to greenroom; without them the activity is
    /// inferred from tmux.
    pub hooks: bool,
    /// The hooks' record of the pane in greenroom's adopted folder: what
    /// dismiss archives once the agent has ended.
    pub record: Option<uuid::Uuid>,
}

impl Session {
    /// The row's key in the dashboard's list: its host, if any, and its id.
    pub fn key(&self) -> RowKey {
        RowKey {
            host: self.host.as_ref().map(|p| p.name.clone()),
            id: self.id.clone(),
        }
    }

    /// Whether `key` names this row (without building its key).
    pub fn is(&self, key: &RowKey) -> bool {
        self.id == key.id && self.host.as_ref().map(|p| &p.name) == key.host.as_ref()
    }

    /// What greenroom hands tmux to act on this row: the adopted agent's
    /// pane, else the row's tmux session.
    pub fn tmux_target(&self) -> Option<super::TmuxTarget> {
        match &self.adopted {
            Some(a) => Some(super::TmuxTarget::Pane(a.pane.clone())),
            None => self.tmux_session.clone().map(super::TmuxTarget::Session),
        }
    }

    /// Attach, send and kill act on a live tmux session only.
    pub fn can_attach(&self) -> bool {
        self.status.is_live() && self.tmux_session.is_some()
    }

    /// Restore starts one of greenroom's own sessions again: stopped, or
    /// dismissed into the archive.
    pub fn can_restore(&self) -> bool {
        self.source == Source::Greenroom && (self.archived || self.status.is_stopped())
    }

    /// Dismiss archives a record greenroom keeps of a session that is not
    /// running: one of its own, or the hooks' record of an ended agent it
    /// did not start.
    pub fn can_dismiss(&self) -> bool {
        let kept = self.source == Source::Greenroom
            || self.adopted.as_ref().is_some_and(|a| a.record.is_some());
        kept && !self.archived && !self.status.is_live()
    }
}

/// A row's name as the screen shows it: `HOST:NAME` for a host's row
/// (drawn from its typed host), else its own name. Shown only, never
/// read back.
pub fn row_name(s: &Session) -> std::borrow::Cow<'_, str> {
    match &s.host {
        Some(place) => format!("{}:{}", place.name, s.name).into(),
        None => s.name.as_str().into(),
    }
}

#[cfg(test)]
mod tests {
    use super::WaitingFor;

    #[test]
    fn a_question_with_choices_reads_as_the_digits_that_answer_it() {
        let w = WaitingFor {
            question: Some("Which colour shall the button be?".into()),
            tool: Some("AskUserQuestion".into()),
            command: None,
            options: vec!["Red".into(), "Blue".into()],
        };
        assert_eq!(w.choices().as_deref(), Some("1 Red · 2 Blue"));
        assert_eq!(
            w.line().as_deref(),
            Some("Which colour shall the button be? · 1 Red · 2 Blue")
        );
        let call = WaitingFor {
            question: Some("Claude needs your permission".into()),
            tool: Some("Bash".into()),
            command: Some("touch x".into()),
            options: Vec::new(),
        };
        assert_eq!(call.choices(), None);
        assert_eq!(
            call.line().as_deref(),
            Some("Claude needs your permission · Bash: touch x")
        );
    }

    #[test]
    fn model_usage_adds_and_takes_each_kind_apart_never_wrapping() {
        let u = |input, output, cache_read, cache_write| super::ModelUsage {
            input,
            output,
            cache_read,
            cache_write,
        };
        let mut t = u(1, 2, 3, u64::MAX - 1);
        t.add(&u(10, 20, 30, 5));
        assert_eq!(t, u(11, 22, 33, u64::MAX));
        t.sub(&u(1, 30, 3, 1));
        assert_eq!(t, u(10, 0, 30, u64::MAX - 1));
    }
}
