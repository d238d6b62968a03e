//! Effects on sessions as data: what to do ([`Verb`]) and where ([`On`]).
//! `reduce::op::decide` is the one place an `On` is made.

use crate::model::{HostName, RowKey};

/// What the operator does to sessions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verb {
    Kill,
    Dismiss,
    /// Dismiss one session and remove the worktree greenroom made for it
    /// (and its branch if merged); with uncommitted changes only when the
    /// operator confirmed twice (`discard_changes`).
    DismissWorktree {
        discard_changes: bool,
    },
    Restore,
    /// Type a message and press Enter.
    Send(String),
    /// Press one key in the session's pane (an answer to its prompt).
    Key(crate::ops::AnswerKey),
    Snooze(std::time::Duration),
    Wake,
    /// The session's pane, for the preview (at most four captures a second).
    Capture,
    /// Attach to the session (switch-client inside tmux, else suspend and
    /// attach; a host's over `ssh -t`).
    Attach,
    /// Open the session in a pane beside the dashboard (inside tmux).
    OpenBeside,
    /// Move the pane beside to the newly selected session.
    Follow(crate::tmux::Beside),
    /// The operator looked at the session (kept it selected for a moment):
    /// recorded, so a turn that ended before is no longer ready.
    Look,
}

/// A host's row an op acts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostRow {
    /// The host's own id for it, checked to go on its command line.
    pub id: String,
    /// The row in the list (for the preview it fills).
    pub row: RowKey,
    /// As the list shows it (`HOST:NAME`), for the outcome's words.
    pub name: String,
}

/// Where an op acts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum On {
    /// This machine's rows, by id.
    Here(Vec<String>),
    /// Rows of one host, acted on there.
    Host { host: HostName, rows: Vec<HostRow> },
}

/// An effect on sessions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Op {
    pub op: Verb,
    pub on: On,
}
