//! What has the keyboard (the mode), and the detail pane's tab, the sort
//! and the overlays: plain data.

use super::dialog::Dialog;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortMode {
    LastFocus,
    Triage,
    /// The most spent first (`S`).
    Spend,
}

impl SortMode {
    pub fn label(self) -> &'static str {
        match self {
            SortMode::LastFocus => "last focus",
            SortMode::Triage => "triage",
            SortMode::Spend => "spend",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DetailTab {
    Overview,
    Orchestration,
    Preview,
    Changes,
}

impl DetailTab {
    pub const ALL: [DetailTab; 4] = [
        DetailTab::Overview,
        DetailTab::Orchestration,
        DetailTab::Preview,
        DetailTab::Changes,
    ];

    pub fn label(self) -> &'static str {
        match self {
            DetailTab::Overview => "Overview",
            DetailTab::Orchestration => "Orchestration",
            DetailTab::Preview => "Preview",
            DetailTab::Changes => "Changes",
        }
    }

    pub fn next(self) -> Self {
        match self {
            DetailTab::Overview => DetailTab::Orchestration,
            DetailTab::Orchestration => DetailTab::Preview,
            DetailTab::Preview => DetailTab::Changes,
            DetailTab::Changes => DetailTab::Overview,
        }
    }
}

/// A pane drawn over the body that takes the keys until it is closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overlay {
    Help,
    Problems,
}

/// What has the keyboard. It alone decides what a key (or a paste) means:
/// `input::key_action` maps keys by mode and the reducer matches on it.
// One Mode lives in the state: the size of its largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// Keys are the keymap's commands; Esc clears a kept filter.
    Normal,
    /// Typing the sidebar filter: keys and pastes are its text.
    Filter,
    /// Help or problems over the body: their own key, `q` or Esc close it.
    Overlay(Overlay),
    /// A dialog: keys and pastes are its input.
    Dialog(Dialog),
    /// Reviewing the Changes tab: keys move through its files and diff.
    Review,
}
