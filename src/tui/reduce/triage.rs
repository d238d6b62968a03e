//! The reducer's part for triage: walking the attention queue (`w`, `W`),
//! jumping back (like `cd -`), snoozing, and answering a waiting prompt
//! without attaching. Decisions only; the effects do the work.

use crate::attention;
use crate::model::row_name;
use crate::model::{Health, RowKey, Session};
use crate::ops::AnswerKey;
use crate::tui::action::Effect;
use crate::tui::model::state::{AppState, Holds};
use crate::tui::reduce::act::live_check;
use crate::tui::reduce::navigate::select;
use crate::tui::reduce::op::{Verb, on_selected};

/// The queue `w` walks: the attention queue, less the sessions the
/// operator came back from whose health has not changed since.
pub(in crate::tui) fn walk_queue(state: &AppState) -> Vec<&Session> {
    attention::queue(&state.list.rows)
        .into_iter()
        .filter(|s| state.triage.handled.get(&s.key()) != Some(&s.health))
        .collect()
}

/// `w` / `W`: selects the next (previous) session of the queue, cycling.
pub(in crate::tui) fn step_queue(state: &mut AppState, back: bool) -> Vec<Effect> {
    let queue = walk_queue(state);
    let Some(next) = attention::step(&queue, state.nav.selected.as_ref(), back) else {
        state.say_while("nothing needs you right now", Holds::NothingQueued);
        return Vec::new();
    };
    let id = next.key();
    let at = queue.iter().position(|s| s.is(&id)).unwrap_or(0);
    let line = format!(
        "{}/{}: {} {}",
        at + 1,
        queue.len(),
        row_name(next),
        crate::health::provenance(next, state.now)
    );
    let holds = Holds::Rows(vec![(id.clone(), next.health)]);
    let effects = jump(state, id);
    state.say_while(line, holds);
    effects
}

/// Selects `id`, remembering where the selection was; a filter that hides
/// it is cleared so the selection is on screen.
fn jump(state: &mut AppState, id: RowKey) -> Vec<Effect> {
    if state.list.position(&id).is_none() {
        state.nav.filter.clear();
        state.nav.health_filter = None;
        state.refresh_visible();
    }
    if state.nav.selected.as_ref() != Some(&id) {
        state.triage.jumped_from = state.nav.selected.clone();
    }
    select(state, Some(id))
}

/// Back to the session selected before the last jump.
pub(in crate::tui) fn jump_back(state: &mut AppState) -> Vec<Effect> {
    let Some(back) = state
        .triage
        .jumped_from
        .clone()
        .filter(|id| state.list.row(id).is_some())
    else {
        state.say("no session to jump back to");
        return Vec::new();
    };
    jump(state, back)
}

/// `z`: wakes a snoozed session, else snoozes one that needs the operator.
pub(in crate::tui) fn snooze(state: &mut AppState) -> Vec<Effect> {
    let length = state.settings.snooze;
    on_selected(state, |s| {
        if s.snoozed_until.is_some() {
            return Ok(Verb::Wake);
        }
        if !s.health.needs_operator() || s.archived {
            return Err(format!(
                "{} is {}: only a waiting, errored, stuck or ready session can be snoozed",
                row_name(s),
                s.health
            ));
        }
        Ok(Verb::Snooze(length))
    })
}

/// Allow, deny, a numbered choice: one key to a waiting session only, so a
/// stray key never lands in an agent at work.
pub(in crate::tui) fn answer(state: &mut AppState, key: AnswerKey) -> Vec<Effect> {
    on_selected(state, |s| {
        live_check(s)?;
        if s.health != Health::Waiting {
            return Err(format!(
                "{} is {}, not waiting: nothing to answer (s sends a message)",
                row_name(s),
                s.health
            ));
        }
        Ok(Verb::Key(key))
    })
}
