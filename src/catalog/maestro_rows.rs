//! Maestro's rows: the orchestrations that no greenroom session ran.

use std::sync::Arc;

use std::collections::HashSet;

use super::maestro_state::MaestroState;
use super::rows::RowContext;
use crate::attention;
use crate::health::{self, HealthInputs};
use crate::model::{
    Activity, ActivitySource, ActivityView, Orchestration, Session, Source, Status,
};

impl MaestroState {
    /// The rows of the orchestrations no greenroom record shows
    /// (`claimed`, by pointer).
    pub(super) fn rows(
        &self,
        claimed: &HashSet<*const Orchestration>,
        cx: &RowContext<'_>,
    ) -> Vec<Session> {
        let unclaimed = self
            .states
            .values()
            .filter(|o| !claimed.contains(&Arc::as_ptr(o)));
        // An orchestration found only through a session's folder goes
        // with that session: dismissed, it leaves no row behind.
        let shown = unclaimed.filter(|o| {
            if self.named.contains(&o.workspace) {
                self.include_archive || !o.archived
            } else {
                self.include_archive
            }
        });
        shown.map(|o| row(o, cx)).collect()
    }
}

/// A Maestro session no greenroom session claims: no tmux, no actions.
fn row(o: &Arc<Orchestration>, cx: &RowContext<'_>) -> Session {
    let now = cx.now;
    let working = !o.archived && !o.is_completed() && o.has_phase_in_progress();
    let state = if working {
        Activity::Active
    } else {
        Activity::Idle
    };
    let updated = o.updated_at;
    let status = Status::Unknown("Unknown".into());
    let id = o
        .session_id
        .clone()
        .unwrap_or_else(|| o.path.display().to_string());
    let looked_at = super::own::looked_at(cx.looks, &id, None);
    let inputs = HealthInputs {
        status: &status,
        exit_status: None,
        activity: &state,
        orchestration: Some(o),
        last_signal_at: updated,
        said: None,
        // Maestro's word, not an agent's: only its completion can be ready.
        turn_ended_at: None,
        looked_at,
    };
    let t = cx.thresholds;
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
    let snoozed_until = cx
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
        created_at: o.created_at,
        last_focused_at: looked_at,
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
