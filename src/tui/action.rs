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
    /// The dashboard must end whatever the mode (SIGTERM, SIGHUP, the
    /// terminal gone): like quitting, without a mode to get past.
    Shutdown,
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
    /// A key for the mode's input: text for the filter or a dialog; Esc
    /// in every mode (it closes, cancels or clears whatever the mode holds).
    Input(InputKey),
    /// Text the terminal pasted (bracketed paste): input for the focused
    /// field, never commands. Untrusted: the reducer cleans it.
    Paste(String),
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
    /// A folder completion for the form.
    PathCompleted(Completion),
    /// The pane beside the dashboard opened, or why it could not.
    BesideOpened(Result<crate::tmux::Beside, String>),
    /// The pane beside is gone (closed by the operator or its client ended).
    BesideClosed,
}

/// What a folder completion found for the text typed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Completion {
    /// The text completed as far as every match agrees; `None` when
    /// nothing matches.
    pub text: Option<String>,
    /// The folder names that still match when there are several.
    pub candidates: Vec<String>,
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
        pane: crate::tmux::Beside,
    },
    /// Close the pane beside (a second `o`).
    CloseBeside {
        pane: crate::tmux::Beside,
    },
    Quit,
}
