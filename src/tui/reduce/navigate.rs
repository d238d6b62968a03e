//! The reducer's part for moving through the list: selection follows the
//! session, the preview and the pane beside follow the selection.

use chrono::Duration;

use crate::model::{RowKey, Status};
use crate::tmux::Server;
use crate::tui::action::Effect;
use crate::tui::model::detail::overview_shows_pane;
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
    state.detail.settle_at = None;
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

/// Whether the detail pane shows the selected session's pane: the Preview
/// tab, or an Overview tall enough for its last lines under its rows.
fn pane_shown(state: &AppState) -> bool {
    match state.detail.tab {
        DetailTab::Preview => true,
        DetailTab::Overview => overview_shows_pane(state.detail.height),
        DetailTab::Orchestration | DetailTab::Changes => false,
    }
}

/// Asks for a fresh capture when the pane is on screen and the selected
/// session has a pane (the driver throttles how often).
pub fn preview_request(state: &AppState) -> Vec<Effect> {
    if !pane_shown(state) {
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
/// selected row's as it looked (`before`, from [`preview_look`]), and
/// another a moment later ([`settled`]); else none: the clock's rows each
/// second would capture the pane each second (a tmux process each time).
/// A host's row is captured at each in the Preview tab, as its pane's
/// output is not followed.
pub(in crate::tui) fn preview_after_rows(
    state: &mut AppState,
    before: Option<(RowKey, Status, crate::model::Health)>,
) -> Vec<Effect> {
    let shown = state.detail.preview.as_ref().map(|p| &p.id);
    // A host's pane has no activity greenroom follows: the Preview tab
    // reads it each time (the Overview's lines, when its row changes).
    let remote = state.detail.tab == DetailTab::Preview
        && state.selected_session().is_some_and(|s| s.host.is_some());
    let changed = preview_look(state) != before;
    if shown.is_some() && shown == state.nav.selected.as_ref() && !changed && !remote {
        return Vec::new();
    }
    let effects = preview_request(state);
    if changed && !effects.is_empty() {
        state.detail.settle_at = Some(state.now + Duration::seconds(SETTLE_SECONDS));
    }
    effects
}

/// How long after its row changed the pane is captured once more.
const SETTLE_SECONDS: i64 = 1;

/// The clock: the capture a moment after the selected row changed, once.
pub(in crate::tui) fn settled(state: &mut AppState) -> Vec<Effect> {
    match state.detail.settle_at {
        Some(at) if at <= state.now => {
            state.detail.settle_at = None;
            preview_request(state)
        }
        _ => Vec::new(),
    }
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
