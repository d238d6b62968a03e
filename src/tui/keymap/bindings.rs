//! The default key table, one layer per input mode. Each binding carries
//! the words help and the hint lines show, so what a key does and what the
//! screen says it does cannot drift apart.

use super::super::action::Command;

/// A keymap layer: the keys one input mode understands. Text-taking layers
/// (the filter, a message, the new-session form) bind only keys that are
/// not text; every other character is typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Layer {
    Normal,
    Overlay,
    Filter,
    Confirm,
    Send,
    Spawn,
    /// Dismissing a session whose worktree greenroom made.
    Worktree,
    /// The Changes tab, reviewing a session's files and diffs.
    Review,
    /// Keys every mode shares (Ctrl-C quits even from a dialog); a mode's
    /// own layer is looked up first.
    Anywhere,
}

impl Layer {
    /// Does the layer type unbound characters into an input?
    pub fn takes_text(self) -> bool {
        matches!(self, Layer::Filter | Layer::Send | Layer::Spawn)
    }
}

/// A command in one layer (a hint of "" keeps it off hint lines): the keys it has by default, the help section
/// it is listed under with its description, and the word a hint line uses.
pub struct Binding {
    pub layer: Layer,
    pub command: Command,
    pub section: &'static str,
    pub description: &'static str,
    pub hint: &'static str,
    pub defaults: &'static [&'static str],
}

impl Binding {
    /// Help's first page lists the list's sections; the second the
    /// filter's, the dialogs' and the overlays' (Esc clearing a kept filter
    /// is listed with the filter).
    pub fn help_page(&self) -> usize {
        usize::from(!matches!(self.section, "Move" | "Act" | "View"))
    }
}

const fn bind(
    layer: Layer,
    command: Command,
    section: &'static str,
    description: &'static str,
    hint: &'static str,
    defaults: &'static [&'static str],
) -> Binding {
    Binding {
        layer,
        command,
        section,
        description,
        hint,
        defaults,
    }
}

use Command as C;
use Layer::{Anywhere, Confirm, Filter, Normal, Overlay, Review, Send, Spawn, Worktree};

/// Help sections of the dialog layers.
const IN_FILTER: &str = "Filter (/)";
const IN_CONFIRM: &str = "Confirm";
const IN_SEND: &str = "Message (s)";
const IN_SPAWN: &str = "New session (n)";
const IN_OVERLAY: &str = "Help, problems";
const IN_REVIEW: &str = "Changes (c)";
const IN_WORKTREE: &str = "Dismiss with a worktree";
const ANYWHERE: &str = "Anywhere";

/// The default keymap, k9s/lazygit style. Order is help's order.
pub const BINDINGS: &[Binding] = &[
    bind(
        Normal,
        C::Down,
        "Move",
        "next session",
        "down",
        &["j", "down"],
    ),
    bind(
        Normal,
        C::Up,
        "Move",
        "previous session",
        "up",
        &["k", "up"],
    ),
    bind(
        Normal,
        C::Top,
        "Move",
        "first session",
        "top",
        &["g", "home"],
    ),
    bind(
        Normal,
        C::Bottom,
        "Move",
        "last session",
        "bottom",
        &["G", "end"],
    ),
    bind(
        Normal,
        C::PageDown,
        "Move",
        "page down",
        "page",
        &["pgdn", "ctrl-d"],
    ),
    bind(
        Normal,
        C::PageUp,
        "Move",
        "page up",
        "page",
        &["pgup", "ctrl-u"],
    ),
    bind(
        Normal,
        C::NextInQueue,
        "Move",
        "next session that needs you",
        "next",
        &["w"],
    ),
    bind(
        Normal,
        C::PrevInQueue,
        "Move",
        "previous session that needs you",
        "",
        &["W"],
    ),
    bind(
        Normal,
        C::JumpBack,
        "Move",
        "back to before the last jump",
        "",
        &["-"],
    ),
    bind(
        Normal,
        C::Attach,
        "Act",
        "attach to the session",
        "attach",
        &["enter"],
    ),
    bind(Normal, C::New, "Act", "new session", "new", &["n"]),
    bind(Normal, C::Kill, "Act", "kill the session", "kill", &["x"]),
    bind(
        Normal,
        C::Restore,
        "Act",
        "restore a dormant session",
        "restore",
        &["r"],
    ),
    bind(
        Normal,
        C::Dismiss,
        "Act",
        "dismiss (archive) the session",
        "dismiss",
        &["D"],
    ),
    bind(
        Normal,
        C::Send,
        "Act",
        "send a message, or a key: <Esc>, <1>...",
        "send",
        &["s"],
    ),
    bind(
        Normal,
        C::Allow,
        "Act",
        "allow: a waiting prompt's highlighted choice",
        "allow",
        &["y"],
    ),
    bind(
        Normal,
        C::Deny,
        "Act",
        "refuse a waiting prompt (Esc)",
        "deny",
        &["N"],
    ),
    bind(
        Normal,
        C::Choice(1),
        "Act",
        "answer a waiting prompt's choice 1 (2-9 too)",
        "",
        &["1"],
    ),
    bind(
        Normal,
        C::Choice(2),
        "Act",
        "answer a waiting prompt's choice 2",
        "",
        &["2"],
    ),
    bind(
        Normal,
        C::Choice(3),
        "Act",
        "answer a waiting prompt's choice 3",
        "",
        &["3"],
    ),
    bind(
        Normal,
        C::Choice(4),
        "Act",
        "answer a waiting prompt's choice 4",
        "",
        &["4"],
    ),
    bind(
        Normal,
        C::Choice(5),
        "Act",
        "answer a waiting prompt's choice 5",
        "",
        &["5"],
    ),
    bind(
        Normal,
        C::Choice(6),
        "Act",
        "answer a waiting prompt's choice 6",
        "",
        &["6"],
    ),
    bind(
        Normal,
        C::Choice(7),
        "Act",
        "answer a waiting prompt's choice 7",
        "",
        &["7"],
    ),
    bind(
        Normal,
        C::Choice(8),
        "Act",
        "answer a waiting prompt's choice 8",
        "",
        &["8"],
    ),
    bind(
        Normal,
        C::Choice(9),
        "Act",
        "answer a waiting prompt's choice 9",
        "",
        &["9"],
    ),
    bind(
        Normal,
        C::Snooze,
        "Act",
        "snooze a session that needs you, or wake it",
        "snooze",
        &["z"],
    ),
    bind(
        Normal,
        C::Mark,
        "Act",
        "mark for a bulk kill or dismiss",
        "mark",
        &["space"],
    ),
    bind(
        Normal,
        C::OpenBeside,
        "Act",
        "open in a pane beside",
        "beside",
        &["o"],
    ),
    bind(
        Normal,
        C::ToggleTriage,
        "View",
        "triage sort (health first)",
        "triage",
        &["t"],
    ),
    bind(
        Normal,
        C::Filter,
        "View",
        "filter by name, folder, branch, task",
        "filter",
        &["/"],
    ),
    bind(
        Normal,
        C::CycleHealthFilter,
        "View",
        "cycle a health filter",
        "health",
        &["f"],
    ),
    bind(
        Normal,
        C::ToggleArchived,
        "View",
        "show archived sessions too",
        "archived",
        &["A"],
    ),
    bind(
        Normal,
        C::NextTab,
        "View",
        "next detail tab",
        "tab",
        &["tab"],
    ),
    bind(
        Normal,
        C::TogglePreview,
        "View",
        "live preview of the pane",
        "preview",
        &["p"],
    ),
    bind(
        Normal,
        C::ShowProblems,
        "View",
        "files greenroom could not read",
        "problems",
        &["!"],
    ),
    bind(
        Normal,
        C::Review,
        "View",
        "review the changes (Changes tab)",
        "changes",
        &["c"],
    ),
    bind(Normal, C::Help, "View", "this help", "help", &["?"]),
    bind(
        Normal,
        C::Quit,
        "View",
        "quit (sessions keep running)",
        "quit",
        &["q", "ctrl-c"],
    ),
    bind(
        Normal,
        C::ClearFilter,
        IN_FILTER,
        "clear a kept filter (in the list)",
        "clear filter",
        &["esc"],
    ),
    bind(
        Filter,
        C::Keep,
        IN_FILTER,
        "keep the filter",
        "keeps",
        &["enter"],
    ),
    bind(
        Filter,
        C::Cancel,
        IN_FILTER,
        "clear the filter",
        "clears",
        &["esc"],
    ),
    bind(
        Confirm,
        C::Yes,
        IN_CONFIRM,
        "yes, do it",
        "yes",
        &["y", "Y"],
    ),
    bind(
        Confirm,
        C::Cancel,
        IN_CONFIRM,
        "no, leave it",
        "no",
        &["n", "N", "esc", "q", "enter"],
    ),
    bind(
        Send,
        C::Submit,
        IN_SEND,
        "send, then Enter",
        "send",
        &["enter"],
    ),
    bind(Send, C::Cancel, IN_SEND, "cancel", "cancel", &["esc"]),
    bind(
        Spawn,
        C::Submit,
        IN_SPAWN,
        "start the session",
        "start",
        &["enter"],
    ),
    bind(
        Spawn,
        C::NextField,
        IN_SPAWN,
        "next field",
        "field",
        &["down"],
    ),
    bind(
        Spawn,
        C::PrevField,
        IN_SPAWN,
        "previous field",
        "field",
        &["up", "backtab"],
    ),
    bind(
        Spawn,
        C::PrevChoice,
        IN_SPAWN,
        "previous agent",
        "agent",
        &["left"],
    ),
    bind(
        Spawn,
        C::NextChoice,
        IN_SPAWN,
        "next agent",
        "agent",
        &["right"],
    ),
    bind(
        Spawn,
        C::Complete,
        IN_SPAWN,
        "complete the folder",
        "complete folder",
        &["tab"],
    ),
    bind(Spawn, C::Cancel, IN_SPAWN, "cancel", "cancel", &["esc"]),
    bind(
        Worktree,
        C::Yes,
        IN_WORKTREE,
        "dismiss, keep the worktree",
        "dismiss",
        &["y", "Y"],
    ),
    bind(
        Worktree,
        C::RemoveWorktree,
        IN_WORKTREE,
        "dismiss and remove the worktree (twice with changes)",
        "and remove worktree",
        &["w", "W"],
    ),
    bind(
        Worktree,
        C::Cancel,
        IN_WORKTREE,
        "no, leave it",
        "no",
        &["n", "N", "esc", "q", "enter"],
    ),
    bind(
        Review,
        C::Down,
        IN_REVIEW,
        "next file, or diff line",
        "down",
        &["j", "down"],
    ),
    bind(
        Review,
        C::Up,
        IN_REVIEW,
        "previous file, or diff line",
        "up",
        &["k", "up"],
    ),
    bind(
        Review,
        C::PageDown,
        IN_REVIEW,
        "page down",
        "page",
        &["pgdn", "ctrl-d"],
    ),
    bind(
        Review,
        C::PageUp,
        IN_REVIEW,
        "page up",
        "page",
        &["pgup", "ctrl-u"],
    ),
    bind(
        Review,
        C::Submit,
        IN_REVIEW,
        "show the file's diff",
        "diff",
        &["enter"],
    ),
    bind(
        Review,
        C::NextChoice,
        IN_REVIEW,
        "the diff's other side (staged, unstaged)",
        "side",
        &["tab"],
    ),
    bind(
        Review,
        C::Mark,
        IN_REVIEW,
        "start or drop a line selection",
        "select",
        &["v", "space"],
    ),
    bind(
        Review,
        C::Comment,
        IN_REVIEW,
        "comment on the lines to the agent (as s)",
        "comment",
        &["c"],
    ),
    bind(
        Review,
        C::Cancel,
        IN_REVIEW,
        "back to the files, then to the list",
        "back",
        &["esc", "q"],
    ),
    bind(
        Overlay,
        C::Close,
        IN_OVERLAY,
        "close",
        "close",
        &["esc", "q"],
    ),
    bind(
        Overlay,
        C::NextPage,
        IN_OVERLAY,
        "the other page of help",
        "more keys",
        &["tab", "backtab", "right", "left"],
    ),
    bind(
        Anywhere,
        C::Quit,
        ANYWHERE,
        "quit, from anywhere",
        "quit",
        &["ctrl-c"],
    ),
];
