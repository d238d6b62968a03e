//! Work the reducer asks for, by what does it: tmux, a host's link, git,
//! an op on sessions, a new session, or the screen. The driver's `Runner`
//! does it and reports back as actions.

use super::NewSession;
use super::op::Op;
use crate::tmux::ServerState;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    Tmux(TmuxEffect),
    Host(HostEffect),
    Git(GitEffect),
    /// An effect on sessions, here or on a host (`op::decide` makes it).
    Op(Op),
    /// Start a new session from the form.
    Spawn(NewSession),
    Ui(UiEffect),
}

/// What tmux is asked, and what the catalog is handed of its answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TmuxEffect {
    /// Ask tmux for its sessions; `generation` comes back with the answer.
    Poll { generation: u64 },
    /// Read these rows' sessions again (tmux targets, as rows hold them)
    /// through the control client, between full polls.
    Refresh {
        targets: Vec<crate::tmux::TmuxTarget>,
        generation: u64,
    },
    /// Start (or restart) the control client that pushes tmux's changes.
    Listen,
    /// Hand an accepted poll to the catalog (statuses, rows).
    ApplyPoll(ServerState),
    /// Hand an accepted refresh to the catalog: its sessions replace theirs.
    ApplyRefresh(crate::tmux::Server),
    /// A window closed: the catalog drops the session it was the last of.
    ForgetWindow(String),
    /// Hand what Codex's panes showed to the catalog.
    ApplyScreens(Vec<crate::engine::Seen>),
}

/// What a host's link is asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostEffect {
    /// (Re)connect to a host: `greenroom watch --json` there over ssh.
    Connect { host: String, attempt: u64 },
}

/// What git is asked, for the Changes tab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GitEffect {
    /// Read the work tree of a session's folder again soon (the Changes
    /// tab opened on it), ahead of others.
    RefreshChanges { cwd: std::path::PathBuf },
    /// Ask git for one file's diff (off the loop); comes back as
    /// [`super::Action::DiffLoaded`].
    LoadDiff(crate::tui::model::changes::DiffRequest),
}

/// The operator's screen and the dashboard itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UiEffect {
    /// Tell the operator sessions need them (the reducer decided when and
    /// whom): the terminal's notification, the bell, the notify command.
    Notify(crate::tui::model::notify::Notice),
    /// Fill the new-session form with defaults and open it.
    OpenSpawnForm,
    /// Complete a folder in the form.
    CompletePath {
        text: String,
    },
    /// Close the pane beside (a second `o`).
    CloseBeside {
        pane: crate::tmux::Beside,
    },
    Quit,
}
