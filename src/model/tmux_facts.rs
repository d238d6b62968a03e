//! What tmux says of a session at a poll: plain data the health rules
//! read and the poll fills.

use chrono::{DateTime, Utc};

/// What tmux says about one session, from the one `list-panes -a` call per poll.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TmuxFacts {
    pub pane_dead: bool,
    pub exit_status: Option<i32>,
    pub window_activity: Option<DateTime<Utc>>,
    pub last_attached: Option<DateTime<Utc>>,
}
