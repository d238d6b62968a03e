//! Rows for other tools' sessions: Agent Orchestrator's, and Maestro
//! orchestrations that no greenroom session ran.

use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::Catalog;
use super::rows::{Facts, checked_tmux_name, live_status, orchestration_updated, parse_time};
use crate::health::{self, HealthInputs, Report};
use crate::model::{
    Activity, ActivityView, AoDetails, Health, Orchestration, Session, Source, Status,
};
use crate::sources::ao::{self, AoSession};

impl Catalog {
    pub(super) fn ao_row(&self, a: &AoSession, facts: &Facts, now: DateTime<Utc>) -> Session {
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
        let activity = health::effective_activity(Some(report), live.as_ref(), now, t);
        let last_signal_at = live
            .as_ref()
            .and_then(|f| f.window_activity)
            .max(a.last_transition_at);
        // AO's own judgement of the session (it asked, stalled, failed CI,
        // finished) decides; otherwise tmux does, as for any session.
        let health = a
            .state
            .as_deref()
            .and_then(ao::lifecycle_health)
            // An archived record is history: nobody waits on it any more.
            .filter(|h| !a.archived || !matches!(h, Health::Waiting | Health::Stuck))
            .unwrap_or_else(|| {
                health::health(
                    HealthInputs {
                        status: &status,
                        exit_status: live.as_ref().and_then(|f| f.exit_status),
                        activity: &activity.state,
                        orchestration: None,
                        last_signal_at,
                    },
                    now,
                    t,
                )
            });
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
        let health = health::health(
            HealthInputs {
                status: &status,
                exit_status: None,
                activity: &state,
                orchestration: Some(o),
                last_signal_at: updated,
            },
            now,
            &self.config.thresholds,
        );
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
        Session {
            id: o
                .session_id
                .clone()
                .unwrap_or_else(|| o.path.display().to_string()),
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
            activity: ActivityView {
                state,
                detail: None,
                since: updated,
                reported: false,
            },
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
        }
    }
}
