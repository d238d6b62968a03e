//! Rows for Maestro orchestrations that no greenroom session ran.

use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::Catalog;
use crate::attention;
use crate::health::{self, HealthInputs};
use crate::model::{
    Activity, ActivitySource, ActivityView, Orchestration, Session, Source, Status,
};
use crate::sources::maestro;

impl Catalog {
    /// A Maestro session no greenroom session claims: no tmux, no actions.
    pub(super) fn maestro_row(&self, o: &Arc<Orchestration>, now: DateTime<Utc>) -> Session {
        let working = !o.archived && !o.is_completed() && o.has_phase_in_progress();
        let state = if working {
            Activity::Active
        } else {
            Activity::Idle
        };
        let updated = maestro::updated_at(o);
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
            .own
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
            created_at: maestro::created_at(o),
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
