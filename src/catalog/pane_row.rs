//! The row of an agent in a pane greenroom did not start, whoever
//! speaks for it (its hooks' record, Claude Code's own registry, or the
//! pane's program alone): one shape, so the sources agree.

use std::path::PathBuf;

use chrono::{DateTime, Utc};

use super::rows::RowContext;
use crate::health::{self, HealthInputs};
use crate::model::{Health, Session, Source, Status};
use crate::tmux::Pane;

pub(super) fn pane_row(
    pane: &Pane,
    agent: String,
    cwd: PathBuf,
    activity: crate::model::ActivityView,
    last_signal_at: Option<DateTime<Utc>>,
    said: Option<&str>,
    cx: &RowContext<'_>,
) -> Session {
    let now = cx.now;
    let status = Status::Running;
    let inputs = HealthInputs {
        status: &status,
        exit_status: None,
        activity: &activity.state,
        orchestration: None,
        last_signal_at,
        said,
    };
    let t = cx.thresholds;
    let (health, rule): (Health, _) = health::decide(inputs, now, t);
    let why = health::explain(rule, health, &inputs, &activity, t);
    let id = pane.id.to_string();
    // Not greenroom's record: its snooze is in greenroom's snooze file, by
    // the row's id (its pane), as Maestro's and AO's rows are. A new state
    // (its `since`) wakes it; pane output does not.
    let snoozed_until = cx
        .snoozes
        .get(&id)
        .filter(|z| crate::attention::snooze_holds(z, health, activity.since, now))
        .map(|z| z.until);
    Session {
        id,
        name: format!("{agent}@{}", pane.session),
        source: Source::Tmux,
        status,
        health,
        cwd,
        agent: Some(agent),
        tmux_session: Some(pane.session.clone()),
        created_at: None,
        last_focused_at: pane.last_attached,
        last_activity_at: last_signal_at,
        agent_session_id: None,
        activity,
        orchestration: None,
        active_agent: None,
        usage: None,
        branch: None,
        agent_orchestrator: None,
        archived: false,
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
