//! The default key table: one row per binding, one line per row. A row
//! carries everything said about its key (the command's `[keys]` name, the
//! help section and description, the hint word), so what a key does, what
//! config.toml calls it and what the screen says it does cannot drift
//! apart. `Command::name()` reads this table; there is no other list of
//! names.

use super::Layer;
use crate::tui::action::Command;

/// A command in one layer: the keys it has by default, its name in
/// config.toml's `[keys]`, the help section it is listed under with its
/// description, and the word a hint line uses ("" keeps it off hint lines).
pub struct Binding {
    pub layer: Layer,
    pub command: Command,
    pub name: &'static str,
    pub defaults: &'static [&'static str],
    pub section: &'static str,
    pub hint: &'static str,
    pub description: &'static str,
}

impl Binding {
    /// Help's first page lists the list's sections; the second the
    /// filter's, the dialogs' and the overlays' (Esc clearing a kept filter
    /// is listed with the filter).
    pub fn help_page(&self) -> usize {
        usize::from(![MOVE, ACT, VIEW].contains(&self.section))
    }

    /// Whether help lists the row: choices 2 to 9 are said by choice 1's line.
    pub fn in_help(&self) -> bool {
        !matches!(self.command, Command::Choice(n) if n > 1)
    }
}

impl Command {
    /// The command's name in config.toml's `[keys]` (and in messages that
    /// name a binding), from its first row in [`BINDINGS`]; a test holds
    /// every row of one command to one name.
    pub fn name(self) -> &'static str {
        BINDINGS
            .iter()
            .find(|b| b.command == self)
            .map_or("unbound", |b| b.name)
    }
}

const fn bind(
    layer: Layer,
    command: Command,
    name: &'static str,
    defaults: &'static [&'static str],
    section: &'static str,
    hint: &'static str,
    description: &'static str,
) -> Binding {
    Binding {
        layer,
        command,
        name,
        defaults,
        section,
        hint,
        description,
    }
}

use Command as C;
use Layer::{Anywhere, Confirm, Filter, Normal, Overlay, Review, Send, Spawn, Worktree};

/// Help sections: the list's three (help's first page), then the filter's,
/// the dialogs' and the overlays'.
const MOVE: &str = "Move";
const ACT: &str = "Act";
const VIEW: &str = "View";
const IN_FILTER: &str = "Filter (/)";
const IN_CONFIRM: &str = "Confirm";
const IN_SEND: &str = "Message (s)";
const IN_SPAWN: &str = "New session (n)";
const IN_OVERLAY: &str = "Help, problems";
const IN_REVIEW: &str = "Changes (c)";
const IN_WORKTREE: &str = "Dismiss with a worktree";
const ANYWHERE: &str = "Anywhere";

/// The default keymap, k9s/lazygit style. Order is help's order and each
/// hint line's order.
#[rustfmt::skip]
pub const BINDINGS: &[Binding] = &[
    //   layer     command               [keys] name          default keys                          section      hint                   description
    bind(Normal,   C::Down,              "down",              &["j", "down"],                       MOVE,        "down",                "next session"),
    bind(Normal,   C::Up,                "up",                &["k", "up"],                         MOVE,        "up",                  "previous session"),
    bind(Normal,   C::Top,               "top",               &["g", "home"],                       MOVE,        "top",                 "first session"),
    bind(Normal,   C::Bottom,            "bottom",            &["G", "end"],                        MOVE,        "bottom",              "last session"),
    bind(Normal,   C::PageDown,          "page_down",         &["pgdn", "ctrl-d"],                  MOVE,        "page",                "page down"),
    bind(Normal,   C::PageUp,            "page_up",           &["pgup", "ctrl-u"],                  MOVE,        "page",                "page up"),
    bind(Normal,   C::NextInQueue,       "next_in_queue",     &["w"],                               MOVE,        "next",                "next session that needs you"),
    bind(Normal,   C::PrevInQueue,       "previous_in_queue", &["W"],                               MOVE,        "",                    "previous session that needs you"),
    bind(Normal,   C::JumpBack,          "jump_back",         &["-"],                               MOVE,        "",                    "back to before the last jump"),
    bind(Normal,   C::Attach,            "attach",            &["enter"],                           ACT,         "attach",              "attach to the session"),
    bind(Normal,   C::New,               "new",               &["n"],                               ACT,         "new",                 "new session"),
    bind(Normal,   C::Kill,              "kill",              &["x"],                               ACT,         "kill",                "kill the session"),
    bind(Normal,   C::Restore,           "restore",           &["r"],                               ACT,         "restore",             "restore a dormant session"),
    bind(Normal,   C::Dismiss,           "dismiss",           &["D"],                               ACT,         "dismiss",             "dismiss (archive) the session"),
    bind(Normal,   C::Send,              "send",              &["s"],                               ACT,         "send",                "send a message, or a key: <Esc>, <1>..."),
    bind(Normal,   C::Allow,             "allow",             &["y"],                               ACT,         "allow",               "allow: a waiting prompt's highlighted choice"),
    bind(Normal,   C::Deny,              "deny",              &["N"],                               ACT,         "deny",                "refuse a waiting prompt (Esc)"),
    bind(Normal,   C::Choice(1),         "choice_1",          &["1"],                               ACT,         "",                    "answer a waiting prompt's choice 1 (2-9 too)"),
    bind(Normal,   C::Choice(2),         "choice_2",          &["2"],                               ACT,         "",                    "answer a waiting prompt's choice 2"),
    bind(Normal,   C::Choice(3),         "choice_3",          &["3"],                               ACT,         "",                    "answer a waiting prompt's choice 3"),
    bind(Normal,   C::Choice(4),         "choice_4",          &["4"],                               ACT,         "",                    "answer a waiting prompt's choice 4"),
    bind(Normal,   C::Choice(5),         "choice_5",          &["5"],                               ACT,         "",                    "answer a waiting prompt's choice 5"),
    bind(Normal,   C::Choice(6),         "choice_6",          &["6"],                               ACT,         "",                    "answer a waiting prompt's choice 6"),
    bind(Normal,   C::Choice(7),         "choice_7",          &["7"],                               ACT,         "",                    "answer a waiting prompt's choice 7"),
    bind(Normal,   C::Choice(8),         "choice_8",          &["8"],                               ACT,         "",                    "answer a waiting prompt's choice 8"),
    bind(Normal,   C::Choice(9),         "choice_9",          &["9"],                               ACT,         "",                    "answer a waiting prompt's choice 9"),
    bind(Normal,   C::Snooze,            "snooze",            &["z"],                               ACT,         "snooze",              "snooze a session that needs you, or wake it"),
    bind(Normal,   C::Mark,              "mark",              &["space"],                           ACT,         "mark",                "mark for a bulk kill or dismiss"),
    bind(Normal,   C::OpenBeside,        "open_beside",       &["o"],                               ACT,         "beside",              "open in a pane beside"),
    bind(Normal,   C::ToggleTriage,      "triage",            &["t"],                               VIEW,        "triage",              "triage sort (health first)"),
    bind(Normal,   C::ToggleSpendSort,   "spend_sort",        &["S"],                               VIEW,        "",                    "sort by spend, the most first"),
    bind(Normal,   C::Filter,            "filter",            &["/"],                               VIEW,        "filter",              "filter by name, folder, branch, task"),
    bind(Normal,   C::CycleHealthFilter, "health_filter",     &["f"],                               VIEW,        "health",              "cycle a health filter"),
    bind(Normal,   C::ToggleArchived,    "archived",          &["A"],                               VIEW,        "archived",            "show archived sessions too"),
    bind(Normal,   C::NextTab,           "next_tab",          &["tab"],                             VIEW,        "tab",                 "next detail tab"),
    bind(Normal,   C::TogglePreview,     "preview",           &["p"],                               VIEW,        "preview",             "live preview of the pane"),
    bind(Normal,   C::ShowProblems,      "problems",          &["!"],                               VIEW,        "problems",            "files greenroom could not read"),
    bind(Normal,   C::Review,            "review",            &["c"],                               VIEW,        "changes",             "review the changes (Changes tab)"),
    bind(Normal,   C::Help,              "help",              &["?"],                               VIEW,        "help",                "this help"),
    bind(Normal,   C::Quit,              "quit",              &["q", "ctrl-c"],                     VIEW,        "quit",                "quit (sessions keep running)"),
    bind(Normal,   C::ClearFilter,       "clear_filter",      &["esc"],                             IN_FILTER,   "clear filter",        "clear a kept filter (in the list)"),
    bind(Filter,   C::Keep,              "keep",              &["enter"],                           IN_FILTER,   "keeps",               "keep the filter"),
    bind(Filter,   C::Cancel,            "cancel",            &["esc"],                             IN_FILTER,   "clears",              "clear the filter"),
    bind(Confirm,  C::Yes,               "yes",               &["y", "Y"],                          IN_CONFIRM,  "yes",                 "yes, do it"),
    bind(Confirm,  C::Cancel,            "cancel",            &["n", "N", "esc", "q", "enter"],     IN_CONFIRM,  "no",                  "no, leave it"),
    bind(Send,     C::Submit,            "submit",            &["enter"],                           IN_SEND,     "send",                "send, then Enter"),
    bind(Send,     C::Cancel,            "cancel",            &["esc"],                             IN_SEND,     "cancel",              "cancel"),
    bind(Spawn,    C::Submit,            "submit",            &["enter"],                           IN_SPAWN,    "start",               "start the session"),
    bind(Spawn,    C::NextField,         "next_field",        &["down"],                            IN_SPAWN,    "field",               "next field"),
    bind(Spawn,    C::PrevField,         "previous_field",    &["up", "backtab"],                   IN_SPAWN,    "field",               "previous field"),
    bind(Spawn,    C::PrevChoice,        "previous_choice",   &["left"],                            IN_SPAWN,    "agent",               "previous agent"),
    bind(Spawn,    C::NextChoice,        "next_choice",       &["right"],                           IN_SPAWN,    "agent",               "next agent"),
    bind(Spawn,    C::Complete,          "complete",          &["tab"],                             IN_SPAWN,    "complete folder",     "complete the folder"),
    bind(Spawn,    C::Cancel,            "cancel",            &["esc"],                             IN_SPAWN,    "cancel",              "cancel"),
    bind(Worktree, C::Yes,               "yes",               &["y", "Y"],                          IN_WORKTREE, "dismiss",             "dismiss, keep the worktree"),
    bind(Worktree, C::RemoveWorktree,    "remove_worktree",   &["w", "W"],                          IN_WORKTREE, "and remove worktree", "dismiss and remove the worktree (twice with changes)"),
    bind(Worktree, C::Cancel,            "cancel",            &["n", "N", "esc", "q", "enter"],     IN_WORKTREE, "no",                  "no, leave it"),
    bind(Review,   C::Down,              "down",              &["j", "down"],                       IN_REVIEW,   "down",                "next file, or diff line"),
    bind(Review,   C::Up,                "up",                &["k", "up"],                         IN_REVIEW,   "up",                  "previous file, or diff line"),
    bind(Review,   C::PageDown,          "page_down",         &["pgdn", "ctrl-d"],                  IN_REVIEW,   "page",                "page down"),
    bind(Review,   C::PageUp,            "page_up",           &["pgup", "ctrl-u"],                  IN_REVIEW,   "page",                "page up"),
    bind(Review,   C::Submit,            "submit",            &["enter"],                           IN_REVIEW,   "diff",                "show the file's diff"),
    bind(Review,   C::NextChoice,        "next_choice",       &["tab"],                             IN_REVIEW,   "side",                "the diff's other side (staged, unstaged)"),
    bind(Review,   C::Mark,              "mark",              &["v", "space"],                      IN_REVIEW,   "select",              "start or drop a line selection"),
    bind(Review,   C::Comment,           "comment",           &["c"],                               IN_REVIEW,   "comment",             "comment on the lines to the agent (as s)"),
    bind(Review,   C::Cancel,            "cancel",            &["esc", "q"],                        IN_REVIEW,   "back",                "back to the files, then to the list"),
    bind(Overlay,  C::Close,             "close",             &["esc", "q"],                        IN_OVERLAY,  "close",               "close"),
    bind(Overlay,  C::NextPage,          "next_page",         &["tab", "backtab", "right", "left"], IN_OVERLAY,  "more keys",           "the other page of help"),
    bind(Anywhere, C::Quit,              "quit",              &["ctrl-c"],                          ANYWHERE,    "quit",                "quit, from anywhere"),
];
