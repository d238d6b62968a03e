//! The row of an agent in a pane greenroom did not start, whoever
//! speaks for it (its hooks' record, Claude Code's own registry, or the
//! pane's program alone): one shape, so the sources agree.

use std::path::PathBuf;

use chrono::{DateTime, Utc};

use super::rows::RowContext;
use crate::health::{self, HealthInputs};
use crate::model::{ActivityView, Health, Session, Source, Status};
use crate::tmux::Pane;

/// What the sources say of the agent in a pane.
pub(super) struct Heard<'a> {
    /// Running, or Exited once it ended or died.
    pub(super) status: Status,
    pub(super) activity: ActivityView,
    /// Its latest sign of life ([`health::sign_of_life`]).
    pub(super) last_signal_at: Option<DateTime<Utc>>,
    /// The tool call it last reported, for a stuck one's why line.
    pub(super) said: Option<&'a str>,
}

impl Heard<'_> {
    /// A running agent.
    pub(super) fn running(
        activity: ActivityView,
        last_signal_at: Option<DateTime<Utc>>,
        said: Option<&str>,
    ) -> Heard<'_> {
        Heard {
            status: Status::Running,
            activity,
            last_signal_at,
            said,
        }
    }
}

pub(super) fn pane_row(
    pane: &Pane,
    agent: String,
    cwd: PathBuf,
    heard: Heard<'_>,
    cx: &RowContext<'_>,
) -> Session {
    let Heard {
        status,
        activity,
        last_signal_at,
        said,
    } = heard;
    let now = cx.now;
    let id = pane.id.to_string();
    let looked_at = super::own::looked_at(cx.looks, &id, pane.last_attached);
    let inputs = HealthInputs {
        status: &status,
        exit_status: None,
        activity: &activity.state,
        orchestration: None,
        last_signal_at,
        said,
        turn_ended_at: health::turn_ended_at(&activity),
        looked_at,
    };
    let t = cx.thresholds;
    let (health, rule): (Health, _) = health::decide(inputs, now, t);
    let why = health::explain(rule, health, &inputs, &activity, t);
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
        last_focused_at: looked_at,
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
