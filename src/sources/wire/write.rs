//! The writing half of the wire format: the `ls --json` document (fields
//! are only ever added; see ARCHITECTURE.md, "The `ls --json` contract")
//! and the lines of `watch --json`, which carry the same rows.

use std::collections::BTreeMap;
use std::path::Path;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Value, json};

use super::PROTOCOL;
use crate::model::{Orchestration, Problem, Session, TokenCounts, Usage};

#[derive(Serialize)]
struct Document<'a> {
    sessions: Vec<SessionJson<'a>>,
    problems: Vec<ProblemJson<'a>>,
}

/// Paths are written as text: a file name that is not UTF-8 must not make
/// the whole document fail (it is shown with replacement characters).
#[derive(Serialize)]
struct ProblemJson<'a> {
    path: String,
    error: &'a str,
}

fn text(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

#[derive(Serialize)]
struct SessionJson<'a> {
    id: &'a str,
    name: &'a str,
    source: &'static str,
    status: &'a str,
    health: &'static str,
    cwd: String,
    tmux_session: Option<&'a str>,
    last_focused_at: Option<DateTime<Utc>>,
    agent_session_id: Option<&'a str>,
    activity: ActivityJson<'a>,
    orchestration: Option<OrchestrationJson<'a>>,
    usage: Option<&'a Usage>,
    problems: &'a [String],
    /// Dismissed or archived (shown with `--all`); `restore` brings it back.
    archived: bool,
    /// Additive: the worktree branch (greenroom's own or AO's).
    branch: Option<&'a str>,
    /// Additive: Agent Orchestrator's own account of its sessions.
    agent_orchestrator: Option<AoJson<'a>>,
    /// Additive: set while the operator has snoozed the session.
    snoozed_until: Option<DateTime<Utc>>,
    /// Additive: for an agent greenroom did not start (`source: "tmux"`),
    /// its pane and whether its hooks report.
    adopted: Option<AdoptedJson<'a>>,
}

#[derive(Serialize)]
struct AdoptedJson<'a> {
    pane: &'a str,
    agent: Option<&'a str>,
    hooks: bool,
}

/// AO's words as AO spells them (`pr_open`, `ci_failed`, ...).
#[derive(Serialize)]
struct AoJson<'a> {
    status: Option<&'a str>,
    reason: Option<&'a str>,
    activity: Option<&'a str>,
    project: Option<&'a str>,
    issue: Option<&'a str>,
    pr: Option<&'a str>,
    summary: Option<&'a str>,
}

#[derive(Serialize)]
struct ActivityJson<'a> {
    state: &'static str,
    detail: Option<&'a str>,
    since: Option<DateTime<Utc>>,
    reported: bool,
    /// Additive: who said it (`hook`, `tmux`, `maestro`, `agent-orchestrator`, `none`).
    source: &'static str,
    /// Additive: seconds since `since`, at the time of the listing.
    age_seconds: Option<i64>,
    /// Additive: what a waiting session asks, where the agent says it.
    waiting_for: Option<WaitingForJson<'a>>,
    /// Additive: the rule that decided the health, in words.
    why: String,
}

#[derive(Serialize)]
struct WaitingForJson<'a> {
    question: Option<&'a str>,
    tool: Option<&'a str>,
    command: Option<&'a str>,
    /// Additive: a question's choices, in order (the digit n picks the
    /// n-th); left out when there are none.
    #[serde(skip_serializing_if = "no_options")]
    options: &'a [String],
}

fn no_options(options: &&[String]) -> bool {
    options.is_empty()
}

#[derive(Serialize)]
struct OrchestrationJson<'a> {
    session_id: Option<&'a str>,
    task: Option<&'a str>,
    status: Option<&'a str>,
    workflow_mode: Option<&'a str>,
    current_phase: Option<&'a crate::model::PhaseId>,
    total_phases: Option<u64>,
    active_agent: Option<&'a str>,
    path: String,
    archived: bool,
    phases: Vec<PhaseJson<'a>>,
    token_usage: Option<TokenUsageJson<'a>>,
    contradictions: &'a [String],
}

#[derive(Serialize)]
struct PhaseJson<'a> {
    id: &'a crate::model::PhaseId,
    name: Option<&'a str>,
    status: &'a str,
    agents: &'a [String],
    errors: usize,
    unresolved_errors: usize,
    retry_count: u32,
    warnings: &'a [String],
}

#[derive(Serialize)]
struct TokenUsageJson<'a> {
    input: u64,
    output: u64,
    cached: u64,
    by_agent: &'a BTreeMap<String, TokenCounts>,
}

fn orchestration_json<'a>(
    o: &'a Orchestration,
    active_agent: Option<&'a str>,
) -> OrchestrationJson<'a> {
    OrchestrationJson {
        session_id: o.session_id.as_deref(),
        task: o.task.as_deref(),
        status: o.status.as_deref(),
        workflow_mode: o.workflow_mode.as_deref(),
        current_phase: o.current_phase.as_ref(),
        total_phases: o.total_phases,
        active_agent,
        path: text(&o.path),
        archived: o.archived,
        phases: o
            .phases
            .iter()
            .map(|p| PhaseJson {
                id: &p.id,
                name: p.name.as_deref(),
                status: p.status.as_str(),
                agents: &p.agents,
                errors: p.errors.len(),
                unresolved_errors: p.unresolved_errors(),
                retry_count: p.retry_count,
                warnings: &p.warnings,
            })
            .collect(),
        token_usage: o.token_usage.as_ref().map(|t| TokenUsageJson {
            input: t.input,
            output: t.output,
            cached: t.cached,
            by_agent: &t.by_agent,
        }),
        contradictions: &o.contradictions,
    }
}

fn session_json(s: &Session, now: DateTime<Utc>) -> SessionJson<'_> {
    SessionJson {
        id: &s.id,
        name: &s.name,
        source: s.source.as_str(),
        status: s.status.as_str(),
        health: s.health.as_str(),
        cwd: text(&s.cwd),
        tmux_session: s.tmux_session.as_deref(),
        last_focused_at: s.last_focused_at,
        agent_session_id: s.agent_session_id.as_deref(),
        activity: ActivityJson {
            state: s.activity.state.contract_name(),
            detail: s.activity.detail.as_deref(),
            since: s.activity.since,
            reported: s.activity.reported,
            source: s.activity.source.as_str(),
            age_seconds: s
                .activity
                .since
                .map(|t| now.signed_duration_since(t).num_seconds().max(0)),
            waiting_for: s.waiting_for.as_ref().map(|w| WaitingForJson {
                question: w.question.as_deref(),
                tool: w.tool.as_deref(),
                command: w.command.as_deref(),
                options: &w.options,
            }),
            why: s.why.at(now),
        },
        snoozed_until: s.snoozed_until,
        orchestration: s
            .orchestration
            .as_deref()
            .map(|o| orchestration_json(o, s.active_agent.as_deref())),
        usage: s.usage.as_ref(),
        problems: &s.problems,
        archived: s.archived,
        branch: s.branch.as_deref(),
        agent_orchestrator: s.agent_orchestrator.as_ref().map(|a| AoJson {
            status: a.status.as_deref(),
            reason: a.reason.as_deref(),
            activity: a.activity.as_deref(),
            project: a.project.as_deref(),
            issue: a.issue.as_deref(),
            pr: a.pr.as_deref(),
            summary: a.summary.as_deref(),
        }),
        adopted: s.adopted.as_ref().map(|a| AdoptedJson {
            pane: a.pane.as_str(),
            agent: s.agent.as_deref(),
            hooks: a.hooks,
        }),
    }
}

/// One row as `ls --json` writes it, as a JSON value: `watch --json` and
/// `ls --all-hosts` add `host` to it.
pub fn session_value(s: &Session, now: DateTime<Utc>) -> serde_json::Value {
    serde_json::to_value(session_json(s, now)).unwrap_or(serde_json::Value::Null)
}

/// The `problems` list of `ls --json`, as a JSON value.
pub fn problems_value(problems: &[Problem]) -> serde_json::Value {
    let list: Vec<ProblemJson<'_>> = problems
        .iter()
        .map(|p| ProblemJson {
            path: text(&p.path),
            error: &p.error,
        })
        .collect();
    serde_json::to_value(list).unwrap_or(serde_json::Value::Null)
}

/// The `ls --json` document, ages as of now.
pub fn to_json(sessions: &[Session], problems: &[Problem]) -> serde_json::Result<String> {
    to_json_at(sessions, problems, Utc::now())
}

/// The `ls --json` document, ages as of `now`.
pub fn to_json_at(
    sessions: &[Session],
    problems: &[Problem],
    now: DateTime<Utc>,
) -> serde_json::Result<String> {
    let doc = Document {
        sessions: sessions.iter().map(|s| session_json(s, now)).collect(),
        problems: problems
            .iter()
            .map(|p| ProblemJson {
                path: text(&p.path),
                error: &p.error,
            })
            .collect(),
    };
    serde_json::to_string_pretty(&doc)
}

/// The first line of `watch --json`: who writes, in which protocol, and
/// every row and problem as of `at`.
pub fn snapshot_line(
    host: &str,
    at: DateTime<Utc>,
    sessions: &[&Value],
    problems: &Value,
) -> Value {
    json!({
        "type": "snapshot",
        "greenroom": env!("CARGO_PKG_VERSION"),
        "protocol": PROTOCOL,
        "host": host,
        "at": at,
        "sessions": sessions,
        "problems": problems,
    })
}

/// A row the reader did not have (`added`) or had otherwise (`changed`).
pub fn row_line(added: bool, row: &Value) -> Value {
    let kind = if added { "added" } else { "changed" };
    json!({"type": kind, "session": row})
}

/// A row that is gone.
pub fn removed_line(id: &str) -> Value {
    json!({"type": "removed", "id": id})
}

/// The problems, whenever they are no longer what the reader has.
pub fn problems_line(problems: &Value) -> Value {
    json!({"type": "problems", "problems": problems})
}

/// A sign of life while nothing changes.
pub fn heartbeat_line(at: DateTime<Utc>, sessions: usize) -> Value {
    json!({"type": "heartbeat", "at": at, "sessions": sessions})
}
