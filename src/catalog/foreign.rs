//! Rows for other tools' sessions: Agent Orchestrator's, and Maestro
//! orchestrations that no greenroom session ran.

use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::Catalog;
use super::rows::{Facts, checked_tmux_name, live_status, orchestration_updated, parse_time};
use crate::attention;
use crate::health::{self, HealthInputs, Report};
use crate::model::{
    Activity, ActivitySource, ActivityView, AoDetails, Health, Orchestration, Session, Source,
    Status,
};
use crate::sources::ao::{self, AoSession};

impl Catalog {
    pub(super) fn ao_row(&self, a: &AoSession, facts: &Facts<'_>, now: DateTime<Utc>) -> Session {
        let t = &self.config.thresholds;
        let recorded_status = a.status();
        let mut problems: Vec<String> = self
            .problems
            .get(&a.path)
            .map(|e| vec![format!("{}: {e}", a.path.display())])
            .unwrap_or_default();
        let tmux_session = checked_tmux_name(a.tmux_name.as_deref(), &a.path, &mut problems);
        let (status, live) = if a.archived {
            (recorded_status, None)
        } else {
            live_status(facts, &recorded_status, tmux_session.as_deref())
        };
        let recorded = a.activity();
        let report = Report {
            state: &recorded,
            detail: None,
            since: a.last_transition_at,
            reported_at: None,
        };
        let mut activity = health::effective_activity(Some(report), live.as_ref(), now, t);
        if activity.source == ActivitySource::Hook {
            activity.source = ActivitySource::AgentOrchestrator;
        }
        let last_signal_at = live
            .as_ref()
            .and_then(|f| f.window_activity)
            .max(a.last_transition_at);
        let inputs = HealthInputs {
            status: &status,
            exit_status: live.as_ref().and_then(|f| f.exit_status),
            activity: &activity.state,
            orchestration: None,
            last_signal_at,
        };
        let (health, why) = ao_health(a, inputs, &activity, now, t);
        let snoozed_until = self
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
            last_focused_at: live.as_ref().and_then(|f| f.last_attached),
            last_activity_at: last_signal_at,
            agent_session_id: None,
            activity,
            orchestration: None,
            active_agent: None,
            usage: None,
            branch: a.branch.clone(),
            agent_orchestrator: Some(AoDetails {
                status: a.state.clone(),
                reason: a.reason.clone(),
                activity: a.activity.clone(),
                project: a.project.clone(),
                issue: a.issue.clone(),
                pr: a.pr.clone(),
                summary: a.summary.clone(),
            }),
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

    /// A Maestro session no greenroom session claims: no tmux, no actions.
    pub(super) fn maestro_row(&self, o: &Arc<Orchestration>, now: DateTime<Utc>) -> Session {
        let working = !o.archived && !o.is_completed() && o.has_phase_in_progress();
        let state = if working {
            Activity::Active
        } else {
            Activity::Idle
        };
        let updated = orchestration_updated(o);
        let status = Status::Unknown("Unknown".into());
        let inputs = HealthInputs {
            status: &status,
            exit_status: None,
            activity: &state,
            orchestration: Some(o),
            last_signal_at: updated,
        };
        let t = &self.config.thresholds;
        let (health, rule) = health::decide(inputs, now, t);
        let activity = ActivityView {
            state: state.clone(),
            detail: None,
            since: updated,
            reported: false,
            source: ActivitySource::Maestro,
        };
        let why = health::explain(rule, health, &inputs, &activity, t);
        let name = o
            .session_id
            .clone()
            .filter(|s| !s.is_empty())
            .or_else(|| {
                o.workspace
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
            })
            .unwrap_or_else(|| o.path.display().to_string());
        let id = o
            .session_id
            .clone()
            .unwrap_or_else(|| o.path.display().to_string());
        let snoozed_until = self
            .snoozes
            .get(&id)
            .filter(|z| attention::snooze_holds(z, health, updated, now))
            .map(|z| z.until);
        Session {
            id,
            name,
            source: Source::Maestro,
            status,
            health,
            cwd: o.workspace.clone(),
            agent: None,
            tmux_session: None,
            created_at: o.created.as_deref().and_then(parse_time),
            last_focused_at: None,
            last_activity_at: updated,
            agent_session_id: None,
            activity,
            orchestration: Some(o.clone()),
            active_agent: None,
            usage: None,
            branch: None,
            agent_orchestrator: None,
            archived: o.archived,
            problems: Vec::new(),
            adopted: None,
            changes: None,
            own_worktree: None,
            snoozed_until,
            waiting_for: None,
            why,
            host: None,
        }
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
