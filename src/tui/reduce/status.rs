//! The status line's messages that say something is so ("nothing needs
//! you", "b is idle, not waiting") are withdrawn once it is not: checked
//! after every action, at the state it left; the clock ends the rest.

use crate::tui::model::state::{AppState, Holds};
use crate::tui::reduce::triage::walk_queue;

/// Withdraws the message when what it says is no longer so.
pub(in crate::tui) fn withdraw_untrue(state: &mut AppState) {
    if state
        .status
        .as_ref()
        .is_some_and(|line| !holds(state, &line.holds))
    {
        state.status = None;
    }
}

fn holds(state: &AppState, what: &Holds) -> bool {
    match what {
        // Ended by the clock, or by tmux answering (`tmux_answered`).
        Holds::Said | Holds::TmuxFailing => true,
        Holds::NothingQueued => walk_queue(state).is_empty(),
        Holds::Rows(rows) => rows
            .iter()
            .all(|(id, health)| state.list.row(id).is_some_and(|r| r.health == *health)),
        Holds::Marked(n) => state.nav.marked.len() == *n,
    }
}

/// tmux answered a poll: a message that it failed is no longer so.
pub(in crate::tui) fn tmux_answered(state: &mut AppState) {
    if state
        .status
        .as_ref()
        .is_some_and(|line| line.holds == Holds::TmuxFailing)
    {
        state.status = None;
    }
}
