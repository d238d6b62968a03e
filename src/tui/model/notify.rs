//! What the dashboard keeps to decide notifications: when each session was
//! last notified, the notices held back by the overall limit, what the
//! operator is looking at (tmux's clients, the dashboard's selection while
//! they type in it), and the notice itself as the driver delivers it.

use std::collections::{BTreeSet, HashMap};

use chrono::{DateTime, Utc};

use crate::model::{Health, RowKey, TmuxTarget};

/// One session that newly needs the operator, as a notice names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoticeRow {
    pub key: RowKey,
    /// The row's name as shown (`HOST:NAME` for a host's row).
    pub name: String,
    pub health: Health,
    /// The why line at the moment it turned.
    pub why: String,
    /// What it asks, in the agent's words (the waiting-for line), if known.
    pub asks: Option<String>,
    /// Its pane or session on this machine's tmux (none for a host's row):
    /// whether a client shows it.
    pub target: Option<TmuxTarget>,
}

/// What the driver delivers: to the terminal (OSC 9 / 777, or tmux), the
/// bell when asked, and the `[notify] command` with the event on stdin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// What happened: `needs_you` for sessions that turned, `over_budget`
    /// for a session or the day past its `[budget]` limit.
    pub kind: &'static str,
    pub at: DateTime<Utc>,
    pub title: String,
    pub body: String,
    /// The sessions it is about, most urgent first (none for the day's spend).
    pub rows: Vec<NoticeRow>,
    pub bell: bool,
}

/// The notifications' state, changed by the reducer only.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Notifier {
    /// When each session was last in a notice: a session flapping back is
    /// not notified again within the per-session gap.
    pub sent: HashMap<RowKey, DateTime<Utc>>,
    /// When the last notice went out: within the overall gap, new ones wait.
    pub last_sent: Option<DateTime<Utc>>,
    /// Sessions held back by the overall gap, sent together after it.
    pub pending: Vec<NoticeRow>,
    /// The sessions and panes a tmux client shows, as of the last full poll.
    pub looked_at: BTreeSet<TmuxTarget>,
    /// Whether the dashboard's terminal has the focus. Terminals that never
    /// say (tmux without `focus-events`) count as focused.
    pub unfocused: bool,
}
