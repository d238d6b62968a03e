//! A snooze, as data: kept in a greenroom session's sidecar and in the
//! snooze file for the rows greenroom does not own (`sources/snooze.rs`),
//! read by the attention rules.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::Health;

/// One snooze: until when, and the state it was set on, so that any new
/// state change (another health class, a newer report) wakes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snooze {
    pub until: DateTime<Utc>,
    /// When the operator snoozed it.
    pub at: DateTime<Utc>,
    /// The health it had then.
    pub health: Health,
}
