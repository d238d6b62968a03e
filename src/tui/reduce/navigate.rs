//! The reducer's part for moving through the list: selection follows the
//! session, the preview and the pane beside follow the selection.

use crate::model::{RowKey, Status};
use crate::tmux::Server;
use crate::tui::action::Effect;
use crate::tui::model::state::{AppState, DetailTab};
use crate::tui::reduce::op::{Verb, decide, place};

pub(in crate::tui) fn move_to(state: &mut AppState, line: usize) -> Vec<Effect> {
    let id = state.list.key_at(line);
    select(state, id)
}

pub(in crate::tui) fn move_by(state: &mut AppState, delta: isize) -> Vec<Effect> {
    if state.list.visible.is_empty() {
        return Vec::new();
    }
    let current = state.cursor().unwrap_or(0) as isize;
    let last = state.list.visible.len() as isize - 1;
    move_to(state, (current + delta).clamp(0, last) as usize)
}

pub(in crate::tui) fn select(state: &mut AppState, id: Option<RowKey>) -> Vec<Effect> {
    let changed = state.nav.selected != id;
    state.nav.selected = id;
    if let Some(id) = &state.nav.selected {
        // Looking at a session is what clears its attention mark.
        state.triage.attention.remove(id);
    }
    state.clamp_offset();
    if !changed {
        return Vec::new();
    }
    state.detail.preview = None;
    state.detail.review.reset();
    let mut effects = preview_request(state);
    effects.extend(crate::tui::reduce::review::refresh_request(state));
    // Follow mode: the pane beside shows whatever is selected.
    if let Some(pane) = state.link.beside_pane()
        && let Some(s) = state.selected_session()
        && s.status.is_live()
    {
        let (verb, id) = (Verb::Follow(pane.clone()), s.key());
        effects.extend(decide(state, verb, &[id]));
    }
    effects
}

/// Asks for a fresh capture when the preview is on screen and the selected
/// session has a pane (the driver throttles how often).
pub fn preview_request(state: &AppState) -> Vec<Effect> {
    if state.detail.tab != DetailTab::Preview {
        return Vec::new();
    }
    match state.selected_session() {
        // An exited session's dead pane is kept: its last lines are the news.
        // An adopted agent's pane, not its session's current one.
        Some(s)
            if (s.status.is_live() || s.status == Status::Exited) && s.tmux_target().is_some() =>
        {
            place(state, &Verb::Capture, &[s.key()]).0
        }
        _ => Vec::new(),
    }
}

/// What of the selected row, changed by new rows, makes its preview stale:
/// which row it is, and its status and health (a pane that died, an agent
/// that turned to ask). New output is followed by [`follow_activity`].
pub(in crate::tui) fn preview_look(
    state: &AppState,
) -> Option<(RowKey, Status, crate::model::Health)> {
    state
        .selected_session()
        .map(|s| (s.key(), s.status.clone(), s.health))
}

/// A capture after new rows, when the preview shown is no longer the
/// selected row's as it looked (`before`, from [`preview_look`]); else
/// none: the clock's rows each second would capture the pane each second
/// (a tmux process each time). A host's row is captured at each, as its
/// pane's output is not followed.
pub(in crate::tui) fn preview_after_rows(
    state: &AppState,
    before: Option<(RowKey, Status, crate::model::Health)>,
) -> Vec<Effect> {
    let shown = state.detail.preview.as_ref().map(|p| &p.id);
    // A host's pane has no activity greenroom follows: it is read each time.
    let remote = state.selected_session().is_some_and(|s| s.host.is_some());
    if shown.is_some()
        && shown == state.nav.selected.as_ref()
        && preview_look(state) == before
        && !remote
    {
        return Vec::new();
    }
    preview_request(state)
}

/// The preview follows the pane: a poll that shows new activity in the
/// selected session's window asks for a fresh capture. A `partial` answer
/// (a refresh of some sessions) says nothing of the sessions it left out.
pub(in crate::tui) fn follow_activity(
    state: &mut AppState,
    map: &Server,
    partial: bool,
) -> Vec<Effect> {
    let Some(s) = state.selected_session() else {
        return Vec::new();
    };
    let Some(name) = &s.tmux_session else {
        return Vec::new();
    };
    if partial && !map.contains_key(name) {
        return Vec::new();
    }
    let seen = (s.key(), map.get(name).and_then(|f| f.window_activity));
    if state.detail.seen_activity.as_ref() == Some(&seen) {
        return Vec::new();
    }
    state.detail.seen_activity = Some(seen);
    preview_request(state)
}
