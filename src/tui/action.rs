//! What can happen to the dashboard (actions) and what it asks the outside
//! world to do in return (effects). The reducer turns one into the other.

use chrono::{DateTime, Utc};

pub mod effect;
pub mod op;

pub use effect::{Effect, GitEffect, HostEffect, TmuxEffect, UiEffect};

use crate::model::{Problem, Session};
use crate::tmux::ServerState;
pub use crate::tui::model::dialog::{Completion, NewSession, SpawnDefaults};

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
    /// Sort by spend, highest first, or back to last focus (`S`).
    ToggleSpendSort,
    Filter,
    CycleHealthFilter,
    ToggleArchived,
    NextTab,
    ShowProblems,
    Help,
    Quit,
    /// Esc in the list: clear a kept filter (text and health).
    ClearFilter,
    // The dialogs' and the filter's layers.
    Keep,
    Cancel,
    Yes,
    Submit,
    NextField,
    PrevField,
    NextChoice,
    PrevChoice,
    Complete,
    /// Close the overlay.
    Close,
    /// Help's other page.
    NextPage,
    /// Dismissing: remove the worktree greenroom made too.
    RemoveWorktree,
    /// Review the selected session's changes: the Changes tab, its keys.
    Review,
    /// In a diff: comment on the selected lines to the agent.
    Comment,
    // Triage: the attention queue and answers without attaching.
    /// The next session that needs the operator (`w`), cycling.
    NextInQueue,
    /// The previous one (`W`).
    PrevInQueue,
    /// Back to the session selected before the last jump, like `cd -`.
    JumpBack,
    /// Snooze the selected session, or wake it.
    Snooze,
    /// Answer a waiting prompt with its highlighted choice (Enter).
    Allow,
    /// Refuse a waiting prompt (Escape).
    Deny,
    /// Answer a waiting prompt with a numbered choice, 1 to 9.
    Choice(u8),
}

/// Everything the reducer reacts to.
/// How much an editing key takes back from the end of an input, as
/// shells and readline do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Erase {
    Char,
    Word,
    Line,
}

impl Erase {
    pub fn apply(self, text: &mut String) {
        match self {
            Erase::Char => drop(text.pop()),
            Erase::Word => {
                let kept = text.trim_end().len();
                let start = text[..kept].rfind(char::is_whitespace).map_or(0, |i| i + 1);
                text.truncate(start);
            }
            Erase::Line => text.clear(),
        }
    }
}

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
    /// Some of greenroom's own rows changed alone since the last
    /// [`Action::Rows`] (`Catalog::rows_of`): the new rows, each to take
    /// the place of the row with its id; no other row and no problem moved.
    RowsChanged(Vec<Session>),
    /// The poll interval came round.
    PollDue,
    /// What tmux said at a poll, and how many effects had finished when it
    /// started (an older answer may describe a world they changed).
    Polled {
        server: ServerState,
        generation: u64,
    },
    /// What a refresh of the rows in [`Effect::Refresh`] found.
    Refreshed {
        refresh: crate::tmux::Refresh,
        generation: u64,
    },
    /// What tmux's control client said.
    TmuxEvent(crate::tmux::Event),
    /// What captures of Codex's panes showed (its approval question).
    Screens(Vec<crate::engine::Seen>),
    /// The dashboard's terminal gained (true) or lost the focus.
    Focus(bool),
    /// The clock moved (ages, stuck detection, status-line expiry).
    Tick(DateTime<Utc>),
    /// A pane capture for the preview.
    Preview {
        id: crate::model::RowKey,
        text: String,
    },
    /// A character typed into the mode's input (the filter, a dialog's field).
    Type(char),
    /// Backspace (a character), `C-w` (a word) or `C-u` (the line) in the
    /// mode's input.
    Erase(Erase),
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
    /// A message for the status line: always words to show.
    Status(String),
    /// A job finished with nothing to say (the pane beside followed the
    /// selection; a host's attach had no window to open).
    Nothing,
    /// An effect that acted on sessions finished: what it did.
    Finished(Finished),
    /// What the new-session form starts with (the driver asked the world).
    OpenSpawnForm(SpawnDefaults),
    /// The form's spawn finished: the new session's id, or why it failed.
    Spawned(Result<String, String>),
    /// A folder completion for the form.
    PathCompleted(Completion),
    /// The pane beside the dashboard opened, or why it could not.
    BesideOpened(Result<crate::tmux::Beside, String>),
    /// The pane beside is gone (closed by the operator or its client ended).
    BesideClosed,
    /// A file's diff for the Changes tab, with the generation it was asked
    /// with (an older one is dropped), or why git could not give it.
    DiffLoaded {
        generation: u64,
        text: Result<crate::git::DiffText, String>,
    },
    /// What connections to `[[hosts]]` entries said, in order (a burst
    /// that arrived together is one action).
    Hosts(Vec<crate::tui::model::hosts::HostSaid>),
}

impl Action {
    /// Whether reducing it changes only the poll's bookkeeping, which no
    /// frame shows, unless it moves the events' state (the header says
    /// that): the interval's round and a refresh's answer, each second.
    pub fn is_bookkeeping(&self) -> bool {
        matches!(self, Action::PollDue | Action::Refreshed { .. })
    }
}

/// What an effect on sessions did, for the reducer to word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finished {
    /// Sessions killed (by name), and why the others were not.
    Killed {
        ok: Vec<String>,
        failed: Vec<String>,
    },
    Dismissed {
        ok: Vec<String>,
        failed: Vec<String>,
    },
    /// Removing a worktree was refused for the work it holds (changed,
    /// untracked or ignored files, named in `work`): the dismiss dialog
    /// comes back at its second confirmation, showing them.
    WorktreeHasWork {
        id: crate::model::RowKey,
        name: String,
        path: std::path::PathBuf,
        work: Vec<String>,
    },
    /// `resumed`: the agent's own conversation was resumed.
    Restored {
        name: String,
        resumed: bool,
    },
    Sent {
        name: String,
    },
    /// A key answered a prompt: which, and the state it leads to when the
    /// session was waiting.
    Answered {
        name: String,
        key: crate::ops::AnswerKey,
        after: Option<crate::model::Activity>,
    },
    Snoozed {
        name: String,
        until: DateTime<Utc>,
    },
    Woke {
        name: String,
    },
    /// The client switched to the session (greenroom inside tmux).
    Switched {
        name: String,
    },
    /// The operator detached and is back in the dashboard: from which
    /// row, and its name as shown.
    Returned {
        row: crate::model::RowKey,
        name: String,
    },
    /// The effect failed: why, in one line.
    Failed(String),
}
