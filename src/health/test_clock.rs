//! The health tests' fixed clock, activity views and the rule's inputs,
//! shared by the rule's files (`explain`, `restates`, `ready`).

use chrono::{DateTime, TimeDelta, Utc};

use crate::health::HealthInputs;
use crate::model::{Activity, ActivitySource, ActivityView, Status};

pub(super) fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-12-01T12:00:00Z")
        .map(|t| t.to_utc())
        .unwrap_or_default()
}

pub(super) fn ago(min: i64) -> Option<DateTime<Utc>> {
    Some(now() - TimeDelta::minutes(min))
}

/// What a session shows: `state` said by `source`, `since_min` minutes ago
/// (reported unless tmux inferred it or nothing said it).
pub(super) fn view(state: Activity, source: ActivitySource, since_min: i64) -> ActivityView {
    ActivityView {
        state,
        detail: None,
        since: ago(since_min),
        reported: !matches!(source, ActivitySource::Tmux | ActivitySource::Nothing),
        source,
    }
}

/// What a running session whose agent shows `activity` brings to the rule,
/// its last sign of life at `last_signal_at`: no exit, no orchestration,
/// no word said, no turn ended, never looked at. A test sets what it is
/// about over this.
pub(super) fn running(
    activity: &Activity,
    last_signal_at: Option<DateTime<Utc>>,
) -> HealthInputs<'_> {
    HealthInputs {
        status: &Status::Running,
        exit_status: None,
        activity,
        orchestration: None,
        last_signal_at,
        said: None,
        turn_ended_at: None,
        looked_at: None,
    }
}
