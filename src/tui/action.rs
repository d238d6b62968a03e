//! What can happen to the dashboard (actions) and what it asks the outside
//! world to do in return (effects). The reducer turns one into the other.

use chrono::{DateTime, Utc};

use crate::model::{Problem, Session};
use crate::tmux::ServerState;

/// A command the operator can bind to a key. `keymap.rs` holds the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Command {
    Up,
    Down,
    Top,
    Bottom,
    PageUp,
    PageDown,
    Attach,
    New,
    Kill,
    Restore,
    Dismiss,
    Send,
    OpenBeside,
    Mark,
    TogglePreview,
    ToggleTriage,
    Filter,
    CycleHealthFilter,
    ToggleArchived,
    NextTab,
    ShowProblems,
    Help,
    Quit,
}

impl Command {
    /// The name used in config.toml's `[keys]` table.
    pub fn name(self) -> &'static str {
        match self {
            Command::Up => "up",
            Command::Down => "down",
            Command::Top => "top",
            Command::Bottom => "bottom",
            Command::PageUp => "page_up",
            Command::PageDown => "page_down",
            Command::Attach => "attach",
            Command::New => "new",
            Command::Kill => "kill",
            Command::Restore => "restore",
            Command::Dismiss => "dismiss",
            Command::Send => "send",
            Command::OpenBeside => "open_beside",
            Command::Mark => "mark",
            Command::TogglePreview => "preview",
            Command::ToggleTriage => "triage",
            Command::Filter => "filter",
            Command::CycleHealthFilter => "health_filter",
            Command::ToggleArchived => "archived",
            Command::NextTab => "next_tab",
            Command::ShowProblems => "problems",
            Command::Help => "help",
            Command::Quit => "quit",
        }
    }
}

/// Everything the reducer reacts to.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// A bound key's command.
    Command(Command),
    /// The catalog changed: fresh rows and problems.
    Rows {
        rows: Vec<Session>,
        problems: Vec<Problem>,
    },
    /// What tmux said at the last poll.
    Tmux(ServerState),
    /// The clock moved (ages, stuck detection, status-line expiry).
    Tick(DateTime<Utc>),
    /// A pane capture for the preview.
    Preview {
        id: String,
        text: String,
    },
    /// Text typed while an input (filter, dialog) has focus.
    Input(InputKey),
    /// Mouse: a click on a sidebar row (index into the visible list).
    ClickRow(usize),
    ScrollUp,
    ScrollDown,
    /// The terminal's size, for paging.
    Resize {
        width: u16,
        height: u16,
    },
    /// An effect finished with a message for the status line.
    Status(String),
    /// The new-session form, filled with defaults (run.rs asked the world).
    OpenSpawnForm(super::dialog::SpawnForm),
    /// The form's spawn finished: the new session's id, or why it failed.
    Spawned(Result<String, String>),
    /// A folder completion for the form: the completed text, if any.
    PathCompleted(Option<String>),
    /// The pane beside the dashboard opened or closed.
    Beside(bool),
}

/// Keys an input field understands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputKey {
    Char(char),
    Backspace,
    Enter,
    Esc,
    Tab,
    BackTab,
    Up,
    Down,
    Left,
    Right,
}

/// What the new-session form submits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpawnForm {
    pub name: String,
    pub cwd: String,
    pub agent: Option<String>,
    pub worktree: Option<String>,
    pub prompt: Option<String>,
}

/// Work the reducer asks for; run.rs does it and reports back as actions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Capture the selected session's pane for the preview.
    CapturePreview {
        id: String,
        tmux_session: String,
    },
    /// Ring the terminal bell and post a desktop notification.
    Alert {
        title: String,
        body: String,
    },
    /// Attach to the session (switch-client inside tmux, else suspend and attach).
    Attach {
        id: String,
    },
    /// Fill the new-session form with defaults and open it.
    OpenSpawnForm,
    Spawn(SpawnForm),
    Kill {
        ids: Vec<String>,
    },
    Restore {
        id: String,
    },
    Dismiss {
        ids: Vec<String>,
    },
    Send {
        id: String,
        text: String,
    },
    CompletePath {
        text: String,
    },
    /// Open the session in a pane beside the dashboard (inside tmux).
    OpenBeside {
        id: String,
    },
    /// Move the pane beside to the newly selected session.
    Follow {
        id: String,
    },
    Quit,
}
