//! What the dashboard knows of its link to tmux: whether tmux pushes its
//! changes, where the poll stands, the pane beside, the server's state.

use chrono::{DateTime, Utc};

/// Whether tmux pushes its changes (a control client) or greenroom polls.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum TmuxEvents {
    /// Not asked for yet: the first poll that finds a server connects.
    #[default]
    Waiting,
    Connecting,
    /// tmux pushes changes; polls only reconcile, rarely.
    Live,
    /// Lost since `since`, why; retried after `retry`.
    Lost {
        why: String,
        since: DateTime<Utc>,
        retry: DateTime<Utc>,
        /// The wait after the next failure (doubling, at most a minute).
        backoff: super::backoff::Backoff,
    },
    /// Never: this tmux cannot push them (its `tmux -V`, for the header).
    Off(String),
    /// Never: `tmux_events = false` in config.toml.
    Disabled,
}

/// Where the tmux poll stands. Effects that change tmux count as
/// generations: a poll started before the latest one finished may describe
/// a world that effect changed, so its answer is dropped and tmux asked again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PollState {
    pub in_flight: bool,
    /// A refresh of some rows is on its way (one at a time).
    pub refreshing: bool,
    /// Effects on sessions finished so far.
    pub generation: u64,
    /// tmux said something changed while a poll ran: poll again after it.
    pub again: bool,
    /// When the last poll was asked for.
    pub last: Option<DateTime<Utc>>,
}

/// The pane beside the dashboard (follow mode): at most one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BesidePane {
    Closed,
    /// Asked for; a second `o` meanwhile opens nothing more.
    Opening,
    Open(crate::tmux::Beside),
}

/// What greenroom knows of tmux, for the header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TmuxStatus {
    Unknown,
    Running,
    NoServer,
    NotInstalled,
}

/// The dashboard's link to tmux.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TmuxLink {
    pub tmux: TmuxStatus,
    pub poll: PollState,
    pub events: TmuxEvents,
    /// A pane beside the dashboard shows the selected session (follow mode).
    pub beside: BesidePane,
}

impl Default for TmuxLink {
    fn default() -> Self {
        Self {
            tmux: TmuxStatus::Unknown,
            poll: PollState::default(),
            events: TmuxEvents::default(),
            beside: BesidePane::Closed,
        }
    }
}

impl TmuxLink {
    /// The pane beside, when one is open.
    pub fn beside_pane(&self) -> Option<&crate::tmux::Beside> {
        match &self.beside {
            BesidePane::Open(b) => Some(b),
            _ => None,
        }
    }
}
