//! Agent Orchestrator's sessions in the catalog: the files under its
//! root, followed folder by folder, and their rows (AO's own judgement of
//! a session decides its health, in its words).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use super::rows::{RowContext, checked_tmux_name, live_status};
use super::{Problems, WatchTarget, add_problems};
use crate::attention;
use crate::health::{self, HealthInputs, Report};
use crate::model::{ActivitySource, ActivityView, AoDetails, Health, Session, Source};
use crate::sources::ao::{self, AoSession};

#[derive(Debug)]
pub(super) struct AoSessions {
    /// AO's data folder, when configured.
    root: Option<PathBuf>,
    include_archive: bool,
    pub(super) sessions: BTreeMap<PathBuf, AoSession>,
}

impl AoSessions {
    pub(super) fn new(root: Option<PathBuf>, include_archive: bool) -> Self {
        AoSessions {
            root,
            include_archive,
            sessions: BTreeMap::new(),
        }
    }

    /// Reads every session file under the root.
    pub(super) fn load(&mut self, problems: &mut Problems) {
        let Some(root) = &self.root else {
            return;
        };
        let (sessions, found) = ao::read_root(root, self.include_archive);
        add_problems(problems, found);
        for s in sessions {
            self.sessions.insert(s.path.clone(), s);
        }
    }

    /// Whether a changed path is AO's to read.
    pub(super) fn claims(&self, path: &Path) -> bool {
        self.root.as_ref().is_some_and(|r| path.starts_with(r))
    }

    /// The folders its session files live in.
    pub(super) fn targets(&self) -> Vec<WatchTarget> {
        let Some(root) = &self.root else {
            return Vec::new();
        };
        ao::session_folders(root)
            .into_iter()
            .map(WatchTarget::folder)
            .collect()
    }

    /// The rows of the sessions shown (archived ones only when asked for).
    pub(super) fn rows<'a>(&'a self, cx: &'a RowContext<'_>) -> impl Iterator<Item = Session> + 'a {
        self.sessions
            .values()
            .filter(|a| self.include_archive || !a.archived)
            .map(|a| row(a, cx))
    }

    /// A changed path under the root ([`Self::claims`]). Returns whether
    /// rows change.
    pub(super) fn apply(&mut self, path: &Path, problems: &mut Problems) -> bool {
        let Some(root) = self.root.clone() else {
            return false;
        };
        let root = root.as_path();
        // A folder where session files live (`sessions/archive`, which AO
        // creates when it archives its first session) is not a session.
        let kind = ao::session_file_kind(root, path).filter(|_| !path.is_dir());
        match kind {
            Some(archived) if archived && !self.include_archive => false,
            Some(archived) => match ao::read_session_file(path, archived) {
                None => {
                    let had_problem = problems.remove(path).is_some();
                    self.sessions.remove(path).is_some() || had_problem
                }
                Some(Ok(s)) => {
                    let had_problem = problems.remove(path).is_some();
                    self.sessions.insert(path.to_path_buf(), s.clone()) != Some(s) || had_problem
                }
                Some(Err(p)) => problems.insert(p.path, p.error.clone()) != Some(p.error),
            },
            // A folder appeared or vanished (a new project, say): rare, so
            // the AO tree is read again rather than tracked folder by folder.
            None if path.is_dir() || !path.exists() => {
                let (sessions, found) = ao::read_root(root, self.include_archive);
                let before = std::mem::take(&mut self.sessions);
                problems.retain(|p, _| !p.starts_with(root));
                add_problems(problems, found);
                for s in sessions {
                    self.sessions.insert(s.path.clone(), s);
                }
                before != self.sessions
            }
            None => false,
        }
    }
}

/// A session of AO's, with what tmux says of it.
fn row(a: &AoSession, cx: &RowContext<'_>) -> Session {
    let (t, now) = (cx.thresholds, cx.now);
    let recorded_status = a.status();
    let mut problems: Vec<String> = cx
        .problems
        .get(&a.path)
        .map(|e| vec![format!("{}: {e}", a.path.display())])
        .unwrap_or_default();
    let tmux_session = checked_tmux_name(a.tmux_name.as_deref(), &a.path, &mut problems);
    let (status, live) = if a.archived {
        (recorded_status, None)
    } else {
        live_status(&cx.facts, &recorded_status, tmux_session.as_deref())
    };
    let recorded = a.activity();
    let report = Report {
        state: &recorded,
        detail: None,
        since: a.last_transition_at,
        reported_at: None,
        hears_interrupt: false,
    };
    let mut activity = health::effective_activity(Some(report), live.as_ref(), now, t);
    if activity.source == ActivitySource::Hook {
        activity.source = ActivitySource::AgentOrchestrator;
    }
    let last_signal_at = health::last_signal_at([
        live.as_ref().and_then(|f| f.window_activity),
        a.last_transition_at,
    ]);
    let looked_at =
        super::own::looked_at(cx.looks, &a.id, live.as_ref().and_then(|f| f.last_attached));
    let inputs = HealthInputs {
        status: &status,
        exit_status: live.as_ref().and_then(|f| f.exit_status),
        activity: &activity.state,
        orchestration: None,
        last_signal_at,
        said: None,
        // AO's word on its agent is not the agent's own.
        turn_ended_at: health::turn_ended_at(&activity),
        looked_at,
    };
    let (health, why) = ao_health(a, inputs, &activity, now, t);
    let snoozed_until = cx
        .snoozes
        .get(&a.id)
        .filter(|z| attention::snooze_holds(z, health, a.last_transition_at, now))
        .map(|z| z.until);
    Session {
        id: a.id.clone(),
        name: a.name().to_owned(),
        source: Source::AgentOrchestrator,
        status,
        health,
        cwd: a.worktree.clone().unwrap_or_default(),
        agent: a.agent.clone(),
        tmux_session,
        created_at: a.created_at,
        last_focused_at: looked_at,
        last_activity_at: last_signal_at,
        agent_session_id: None,
        activity,
        orchestration: None,
        active_agent: None,
        usage: None,
        branch: a.branch.clone(),
        agent_orchestrator: Some(details(a)),
        archived: a.archived,
        problems,
        adopted: None,
        changes: None,
        own_worktree: None,
        snoozed_until,
        // AO's needs_input names no question greenroom could show.
        waiting_for: None,
        why,
        host: None,
    }
}

/// What AO says of a session beside its health, for the detail pane.
fn details(a: &AoSession) -> AoDetails {
    AoDetails {
        status: a.state.clone(),
        reason: a.reason.clone(),
        activity: a.activity.clone(),
        project: a.project.clone(),
        issue: a.issue.clone(),
        pr: a.pr.clone(),
        summary: a.summary.clone(),
    }
}

/// AO's own judgement of the session (it asked, stalled, failed CI,
/// finished) decides, in its words; otherwise tmux does, as for any session.
fn ao_health(
    a: &AoSession,
    inputs: HealthInputs,
    activity: &ActivityView,
    now: DateTime<Utc>,
    t: &crate::health::Thresholds,
) -> (Health, crate::model::Why) {
    let ao_health = a
        .state
        .as_deref()
        .and_then(ao::lifecycle_health)
        // An archived record is history: nobody waits on it any more.
        .filter(|h| !a.archived || !matches!(h, Health::Waiting | Health::Stuck));
    match (ao_health, a.state.as_deref()) {
        (Some(h), Some(word)) => (h, format!("AO says {word}: {h}").into()),
        _ => {
            let (h, rule) = health::decide(inputs, now, t);
            (h, health::explain(rule, h, &inputs, activity, t))
        }
    }
}
