//! The reducer's part for looking: a ready session (its agent finished its
//! turn since the operator last looked) kept selected for a moment, while
//! the operator uses the dashboard, has been looked at. The look is
//! recorded (`Verb::Look`), and the row comes back idle. Decided with the
//! clock of the ticks; no IO.

use chrono::TimeDelta;

use crate::model::{Health, RowKey};
use crate::tui::action::{Action, Effect};
use crate::tui::model::state::AppState;
use crate::tui::model::triage::Dwell;
use crate::tui::reduce::op::{Verb, place};

/// How long a ready row stays selected before it counts as looked at:
/// long enough that moving through the list looks at nothing, short
/// enough that reading its detail does.
pub const DWELL: TimeDelta = TimeDelta::seconds(2);

/// How recent the operator's last input must be for a selection to be a
/// look: a dashboard left alone in a window looks at nothing, whatever
/// turns ready under its cursor.
pub const PRESENT: TimeDelta = TimeDelta::seconds(60);

/// Notes the time of the operator's own input (keys, clicks, scrolls), at
/// the clock of the last tick. A paste is not counted: with no field
/// focused it must change nothing at all.
pub fn note_input(state: &mut AppState, action: &Action) {
    let input = matches!(
        action,
        Action::Command(_)
            | Action::Type(_)
            | Action::Erase(_)
            | Action::ClickRow(_)
            | Action::ScrollUp
            | Action::ScrollDown
    );
    if input {
        state.triage.last_input = Some(state.now);
    }
}

/// Whether the operator is at the dashboard: their own input within
/// [`PRESENT`], and its terminal has the focus (terminals that never say
/// count as focused). A look by dwell and the notifications' "never about
/// what they look at" both go by it.
pub fn present(state: &AppState) -> bool {
    !state.notify.unfocused
        && state
            .triage
            .last_input
            .is_some_and(|at| state.now.signed_duration_since(at) <= PRESENT)
}

/// At a tick: follows the selected ready row, and records the look once it
/// has stayed selected for [`DWELL`] while the operator is present.
pub fn dwell(state: &mut AppState) -> Vec<Effect> {
    let now = state.now;
    let ready = state
        .selected_session()
        .filter(|s| s.health == Health::Ready)
        .map(|s| s.key());
    let Some(row) = ready else {
        state.triage.dwell = None;
        return Vec::new();
    };
    let present = present(state);
    let dwell = match &mut state.triage.dwell {
        Some(d) if d.row == row => d,
        other => {
            *other = Some(Dwell {
                row,
                since: now,
                recorded: false,
            });
            return Vec::new();
        }
    };
    if dwell.recorded || !present || now.signed_duration_since(dwell.since) < DWELL {
        return Vec::new();
    }
    dwell.recorded = true;
    let row = dwell.row.clone();
    // Quiet: a look is no news, and a host's row it cannot take is left
    // ready rather than worded.
    place(state, &Verb::Look, &[row]).0
}

/// At a tick: a ready row whose pane a tmux client shows (the operator sits
/// in it while its turn ends) is looked at, recorded once while it stays
/// ready and shown. tmux records when a client attached, not that it is
/// still there; the poll's `looked_at` says what each client shows now.
pub fn shown(state: &mut AppState) -> Vec<Effect> {
    if state.notify.looked_at.is_empty() && state.triage.shown.is_empty() {
        return Vec::new();
    }
    let looked_at = &state.notify.looked_at;
    let now_shown: Vec<RowKey> = state
        .list
        .rows
        .iter()
        .filter(|s| s.health == Health::Ready && s.host.is_none())
        .filter(|s| s.tmux_target().is_some_and(|t| looked_at.contains(&t)))
        .map(|s| s.key())
        .collect();
    state.triage.shown.retain(|k| now_shown.contains(k));
    let new: Vec<RowKey> = now_shown
        .into_iter()
        .filter(|k| state.triage.shown.insert(k.clone()))
        .collect();
    if new.is_empty() {
        return Vec::new();
    }
    place(state, &Verb::Look, &new).0
}
