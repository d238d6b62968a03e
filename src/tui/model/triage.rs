//! What triage keeps of the rows between updates: attention marks, the
//! health each row had, the rows the operator came back from, the jump
//! back. The rows reducer changes it as rows arrive, the act reducer when
//! the operator comes back from a session, the navigate reducer when a
//! session is looked at, the triage reducer on a jump; the views read it.

use std::collections::{BTreeSet, HashMap};

use chrono::{DateTime, Utc};

use crate::model::{Health, RowKey};

/// A ready row the operator keeps selected: since when (its selection, or
/// its turning ready while selected), and whether the look was recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dwell {
    pub row: RowKey,
    pub since: DateTime<Utc>,
    pub recorded: bool,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Triage {
    /// Sessions that turned waiting, errored or stuck and were not looked at since.
    pub attention: BTreeSet<RowKey>,
    /// Health at the last update, to see transitions.
    pub last_health: HashMap<RowKey, Health>,
    /// Sessions the operator came back from (attached, then detached), with
    /// the health they had: `w` skips them until their health changes.
    pub handled: HashMap<RowKey, Health>,
    /// The session selected before the last jump (`w`, `W`, jump back).
    pub jumped_from: Option<RowKey>,
    /// The selected ready row, while it stays selected and ready.
    pub dwell: Option<Dwell>,
    /// Ready rows a tmux client shows, looked at (recorded once) while they
    /// stay ready and shown.
    pub shown: BTreeSet<RowKey>,
    /// The clock at the operator's last key, click or scroll in the
    /// dashboard: a selection is a look only while they use it.
    pub last_input: Option<DateTime<Utc>>,
}
