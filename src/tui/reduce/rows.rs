//! New rows in the dashboard: selection kept, attention marks and notices
//! for sessions that just turned urgent, the list held still while the pane
//! beside follows the selection.

use std::collections::HashMap;

use crate::model::{RowKey, Session};
use crate::tui::action::Effect;
use crate::tui::model::state::AppState;
use crate::tui::reduce::notify;

/// Installs new rows; marks sessions that just turned waiting, errored or
/// stuck, and returns the alerts for them.
pub(in crate::tui) fn replace_rows(state: &mut AppState, rows: Vec<Session>) -> Vec<Effect> {
    let mut alerts = note_turns(state, &rows);
    alerts.extend(super::budget::note_sessions(state, &rows));
    // Row ids are unique: any entry more than the rows is a row gone.
    if state.triage.last_health.len() != rows.len() {
        let keys: std::collections::HashSet<RowKey> = rows.iter().map(Session::key).collect();
        state.triage.last_health.retain(|key, _| keys.contains(key));
    }
    state
        .triage
        .attention
        .retain(|id| state.triage.last_health.contains_key(id));
    keep_spent(state, &rows);
    super::budget::keep_today(state, &rows);
    install(state, |held| *held = rows);
    alerts.extend(super::budget::note_day(state));
    alerts
}

/// Rows that leave the list (ended and gone, dismissed with the archive
/// hidden) leave their cost in `list.spent_gone`; a row back in the list is
/// counted from its row again.
fn keep_spent(state: &mut AppState, rows: &[Session]) {
    let keys: std::collections::HashSet<RowKey> = rows.iter().map(Session::key).collect();
    for r in &state.list.rows {
        let cost = r.usage.as_ref().and_then(|u| u.cost_usd);
        if let Some(cost) = cost.filter(|_| !keys.contains(&r.key())) {
            state.list.spent_gone.insert(r.key(), cost);
        }
    }
    if !state.list.spent_gone.is_empty() {
        state.list.spent_gone.retain(|key, _| !keys.contains(key));
    }
}

/// Swaps in rows that changed alone (`Action::RowsChanged`), each in place
/// of the row with its id: what [`replace_rows`] does with every row, for
/// these only, as no other row changed.
pub(in crate::tui) fn change_rows(state: &mut AppState, rows: Vec<Session>) -> Vec<Effect> {
    let mut alerts = note_turns(state, &rows);
    alerts.extend(super::budget::note_sessions(state, &rows));
    install(state, |held| {
        // By id: a host's burst swaps hundreds of rows into a thousand.
        let mut at: Option<HashMap<RowKey, usize>> =
            (rows.len() > 1).then(|| held.iter().enumerate().map(|(i, h)| (h.key(), i)).collect());
        for r in rows {
            let slot = match &at {
                Some(at) => at.get(&r.key()).copied(),
                None => held.iter().position(|h| h.is(&r.key())),
            };
            match slot {
                Some(i) => held[i] = r,
                None => {
                    if let Some(at) = &mut at {
                        at.insert(r.key(), held.len());
                    }
                    held.push(r);
                }
            }
        }
    });
    alerts.extend(super::budget::note_day(state));
    alerts
}

/// Marks the rows in `rows` that just turned urgent, notes each one's
/// health, and returns the notifications for them.
pub(in crate::tui) fn note_turns(state: &mut AppState, rows: &[Session]) -> Vec<Effect> {
    let first_load = state.list.rows.is_empty() && state.triage.last_health.is_empty();
    let mut turned = Vec::new();
    for r in rows {
        let key = r.key();
        let before = state.triage.last_health.get(&key).copied();
        // Archived rows are finished business: they never call for the operator.
        // A snoozed one neither: the operator said "not now".
        let turned_now = crate::attention::in_queue(r) && before != Some(r.health);
        if turned_now && !first_load {
            if state.nav.selected.as_ref() != Some(&key) {
                state.triage.attention.insert(key.clone());
            }
            turned.push(notify::notice_row(r, state.now));
        }
        if !r.health.needs_operator() || r.snoozed_until.is_some() {
            state.triage.attention.remove(&key);
        }
        // Handled until its health changes: then `w` visits it again.
        if state
            .triage
            .handled
            .get(&key)
            .is_some_and(|h| *h != r.health)
        {
            state.triage.handled.remove(&key);
        }
        // Noted at once: a row said twice in one burst turns as often as
        // the lines say. In place: most updates change one row, and
        // copying a thousand ids for each would cost more than the change.
        match state.triage.last_health.get_mut(&key) {
            Some(h) => *h = r.health,
            None => {
                state.triage.last_health.insert(key, r.health);
            }
        }
    }
    notify::turned(state, turned)
}

/// Puts the new rows in place with `put`, keeping the selection, the cursor's
/// line and, while the pane beside follows the selection, the list's order.
fn install(state: &mut AppState, put: impl FnOnce(&mut Vec<Session>)) {
    // Handled until its health changes (above) or its row is gone.
    state
        .triage
        .handled
        .retain(|id, h| state.triage.last_health.get(id) == Some(h));
    let line = state.cursor();
    // While the pane beside follows the selection, tmux records every switch
    // as an attach; the list keeps its order so moving down it works.
    let previous: Option<HashMap<RowKey, usize>> = state.link.beside_pane().is_some().then(|| {
        state
            .list
            .visible_sessions()
            .enumerate()
            .map(|(pos, s)| (s.key(), pos))
            .collect()
    });
    put(&mut state.list.rows);
    let rows = &state.list.rows;
    if let Some(id) = state
        .nav
        .select_when_seen
        .take_if(|key| rows.iter().any(|r| r.is(key)))
    {
        state.nav.selected = Some(id);
    }
    state.list.visible.clear();
    state.refresh_visible_at(line);
    if let Some(previous) = previous {
        let rows = &state.list.rows;
        // Stable: sessions new to the list keep their sorted place after the known ones.
        state
            .list
            .visible
            .sort_by_key(|&i| previous.get(&rows[i].key()).copied().unwrap_or(usize::MAX));
        state.clamp_offset();
    }
}
