//! Where the operator is in the list and how it is cut: the selection, the
//! sidebar's window, the sort and the filters, the marks, the help's page.
//! The navigate and commands reducers change it (the act reducer marks and
//! pre-selects a session just started, the update reducer sets the page
//! from the terminal's size); the views read it.

use std::collections::BTreeSet;

use super::mode::SortMode;
use crate::model::{Health, RowKey};

#[derive(Debug, Clone, PartialEq)]
pub struct Nav {
    /// The selected session's id: selection follows the session, not the line.
    pub selected: Option<RowKey>,
    /// The first sidebar line on screen.
    pub offset: usize,
    /// Sidebar lines per page, from the terminal size.
    pub page: usize,
    pub sort: SortMode,
    pub filter: String,
    pub health_filter: Option<Health>,
    /// Show archived and dismissed sessions too (`A`).
    pub show_archived: bool,
    /// Sessions marked with Space for a bulk kill or dismiss.
    pub marked: BTreeSet<RowKey>,
    /// A session just started: selected when its row first arrives.
    pub select_when_seen: Option<RowKey>,
    /// Help's page: 0 the list's keys, 1 the dialogs' and the filter's.
    pub help_page: usize,
    /// Lines help is scrolled down by, where the screen is too short for
    /// it (the view stops at its last line).
    pub help_scroll: usize,
}

/// Past any help's end (a few lines per key binding): the view stops at
/// the last line, and Up comes back from here in few presses.
pub const HELP_SCROLL_MAX: usize = 200;

impl Default for Nav {
    fn default() -> Self {
        Self {
            selected: None,
            offset: 0,
            page: 10,
            sort: SortMode::LastFocus,
            filter: String::new(),
            health_filter: None,
            show_archived: false,
            marked: BTreeSet::new(),
            select_when_seen: None,
            help_page: 0,
            help_scroll: 0,
        }
    }
}
