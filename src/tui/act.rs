//! The reducer's part for acting on sessions: which sessions an action
//! applies to, refusing up front what the action would refuse, and what a
//! finished spawn does to the form.

use super::action::Effect;
use super::dialog::{Bulk, Dialog};
use super::state::AppState;
use super::update::say;

pub(super) fn spawned(state: &mut AppState, result: Result<String, String>) -> Vec<Effect> {
    match result {
        Ok(id) => {
            state.dialog = None;
            say(state, "session started");
            // Its row arrives with the sidecar's file event: select it then.
            state.select_when_seen = Some(id);
            Vec::new()
        }
        Err(e) => {
            if let Some(Dialog::Spawn(form)) = &mut state.dialog {
                form.busy = false;
                form.error = Some(e);
            } else {
                say(state, e);
            }
            Vec::new()
        }
    }
}

/// The sessions an action applies to: the marked ones, else the selected one.
fn targets(state: &AppState) -> Vec<(String, String)> {
    let marked: Vec<(String, String)> = state
        .rows
        .iter()
        .filter(|r| state.marked.contains(&r.id))
        .map(|r| (r.id.clone(), r.name.clone()))
        .collect();
    if !marked.is_empty() {
        return marked;
    }
    state
        .selected_session()
        .map(|s| vec![(s.id.clone(), s.name.clone())])
        .unwrap_or_default()
}

pub(super) fn confirm(state: &mut AppState, action: Bulk) -> Vec<Effect> {
    let targets = targets(state);
    if targets.is_empty() {
        say(state, "no session selected");
        return Vec::new();
    }
    // Refuse up front what the action would refuse, so the dialog only
    // lists what will really happen.
    let mut ok: Vec<(String, String)> = Vec::new();
    let mut refused = Vec::new();
    for (id, name) in targets {
        let Some(s) = state.rows.iter().find(|r| r.id == id) else {
            continue;
        };
        let check = match action {
            Bulk::Kill => crate::ops::ensure_killable(s),
            Bulk::Dismiss => crate::ops::ensure_dismissable(s),
        };
        match check {
            Ok(()) => ok.push((id, name)),
            Err(e) => refused.push(e.to_string()),
        }
    }
    if ok.is_empty() {
        say(state, refused.join("; "));
        return Vec::new();
    }
    if !refused.is_empty() {
        say(state, format!("skipped: {}", refused.join("; ")));
    }
    let (ids, names) = ok.into_iter().unzip();
    state.dialog = Some(Dialog::Confirm { action, ids, names });
    Vec::new()
}

/// The selected session, or a status line saying there is none.
pub(super) fn with_selected(
    state: &mut AppState,
    f: impl FnOnce(&crate::model::Session) -> Result<Effect, String>,
) -> Vec<Effect> {
    let result = match state.selected_session() {
        Some(s) => f(s),
        None => Err("no session selected".into()),
    };
    match result {
        Ok(effect) => vec![effect],
        Err(message) => {
            say(state, message);
            Vec::new()
        }
    }
}

pub(super) fn live_check(s: &crate::model::Session) -> Result<(), String> {
    crate::ops::ensure_live(s).map_err(|e| e.to_string())
}
