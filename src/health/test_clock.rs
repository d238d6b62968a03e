//! The health tests' fixed clock and activity views, shared by the rule's
//! files (`explain`, `restates`, `ready`).

use chrono::{DateTime, TimeDelta, Utc};

use crate::model::{Activity, ActivitySource, ActivityView};

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
