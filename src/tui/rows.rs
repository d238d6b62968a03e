//! New rows in the dashboard: selection kept, attention marks and alerts
//! for sessions that just turned urgent, the list held still while the pane
//! beside follows the selection.

use std::collections::HashMap;

use super::action::Effect;
use super::state::AppState;
use crate::model::Session;

/// Installs new rows; marks sessions that just turned waiting, errored or
/// stuck, and returns the alerts for them.
pub(super) fn replace_rows(state: &mut AppState, rows: Vec<Session>) -> Vec<Effect> {
    let first_load = state.rows.is_empty() && state.last_health.is_empty();
    let mut alerts = Vec::new();
    for r in &rows {
        let before = state.last_health.get(&r.id).copied();
        // Archived rows are finished business: they never call for the operator.
        let turned = r.health.needs_operator() && !r.archived && before != Some(r.health);
        if turned && !first_load {
            if state.selected.as_deref() != Some(r.id.as_str()) {
                state.attention.insert(r.id.clone());
            }
            let detail = r.activity.detail.clone().unwrap_or_default();
            alerts.push(Effect::Alert {
                title: format!("greenroom: {} is {}", r.name, r.health),
                body: detail,
            });
        }
        if !r.health.needs_operator() {
            state.attention.remove(&r.id);
        }
    }
    state.last_health = rows.iter().map(|r| (r.id.clone(), r.health)).collect();
    state
        .attention
        .retain(|id| state.last_health.contains_key(id));
    let line = state.cursor();
    // While the pane beside follows the selection, tmux records every switch
    // as an attach; the list keeps its order so moving down it works.
    let previous: Option<HashMap<String, usize>> = state.beside_pane().is_some().then(|| {
        state
            .visible_sessions()
            .enumerate()
            .map(|(pos, s)| (s.id.clone(), pos))
            .collect()
    });
    if let Some(id) = state
        .select_when_seen
        .take_if(|id| rows.iter().any(|r| &r.id == id))
    {
        state.selected = Some(id);
    }
    state.rows = rows;
    state.visible.clear();
    state.refresh_visible_at(line);
    if let Some(previous) = previous {
        let rows = &state.rows;
        // Stable: sessions new to the list keep their sorted place after the known ones.
        state
            .visible
            .sort_by_key(|&i| previous.get(&rows[i].id).copied().unwrap_or(usize::MAX));
        state.clamp_offset();
    }
    alerts
}
