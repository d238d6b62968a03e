//! The reducer's part for acting on sessions: which sessions an action
//! applies to, refusing up front what the action would refuse, wording what
//! a finished effect did, what a finished spawn does to the form, and the
//! pane beside.

use crate::model::row_name;
use crate::model::{RowKey, Session};
use crate::tui::action::UiEffect;
use crate::tui::action::{Effect, Finished};
use crate::tui::model::dialog::{Bulk, Dialog};
use crate::tui::model::state::{AppState, BesidePane, Holds, Mode};

/// Words what an effect on sessions did for the status line.
pub(in crate::tui) fn finished(state: &mut AppState, done: Finished) {
    if let Finished::Returned { row, .. } = &done
        && let Some(s) = state.list.row(row)
    {
        // Back from it: handled, until its state changes.
        state.triage.attention.remove(row);
        state.triage.handled.insert(row.clone(), s.health);
    }
    let text = match done {
        Finished::Killed { ok, failed } => each("killed", &ok, &failed),
        Finished::Dismissed { ok, failed } => each("dismissed", &ok, &failed),
        Finished::WorktreeHasWork {
            id,
            name,
            path,
            work,
        } => ask_again(state, id, name, path, work),
        Finished::Restored {
            name,
            resumed: true,
        } => {
            format!("restored {name} (resumed its conversation)")
        }
        Finished::Restored { name, .. } => format!("restored {name}"),
        Finished::Sent { name } => format!("sent to {name}"),
        Finished::Answered {
            name,
            key,
            after: Some(after),
        } => format!("sent {key} to {name}: now {}", after.contract_name()),
        Finished::Answered { name, key, .. } => format!("sent {key} to {name}"),
        Finished::Snoozed { name, until } => format!(
            "snoozed {name} ({}); z wakes it, so does any new state change",
            crate::attention::snooze_mark(until, state.now)
        ),
        Finished::Woke { name } => format!("woke {name}"),
        Finished::Switched { name } => format!("switched to {name}"),
        Finished::Returned { name, .. } => format!("back from {name}"),
        Finished::Failed(why) => why,
    };
    if !text.is_empty() {
        state.say(text);
    }
}

/// The dismiss dialog again, at its second `w`, naming what would go; the
/// status line says it instead when another dialog is open meanwhile.
fn ask_again(
    state: &mut AppState,
    id: RowKey,
    name: String,
    path: std::path::PathBuf,
    work: Vec<String>,
) -> String {
    if state.mode != Mode::Normal {
        return format!(
            "{name}: its worktree holds uncommitted work ({}); nothing was dismissed",
            work.join(", ")
        );
    }
    state.mode = Mode::Dialog(Dialog::DismissWorktree {
        id,
        name,
        path,
        dirty: true,
        second: true,
        work,
    });
    String::new()
}

/// "killed a, b; c: why": the sessions done, then why the others were not.
fn each(done: &str, ok: &[String], failed: &[String]) -> String {
    let mut parts = Vec::new();
    if !ok.is_empty() {
        parts.push(format!("{done} {}", ok.join(", ")));
    }
    parts.extend(failed.iter().cloned());
    parts.join("; ")
}

pub(in crate::tui) fn spawned(state: &mut AppState, result: Result<String, String>) -> Vec<Effect> {
    match result {
        Ok(id) => {
            if matches!(state.mode, Mode::Dialog(Dialog::Spawn(_))) {
                state.mode = Mode::Normal;
            }
            state.say("session started");
            // Its row arrives with the sidecar's file event: select it then.
            state.nav.select_when_seen = Some(RowKey::here(id));
            Vec::new()
        }
        Err(e) => {
            if let Mode::Dialog(Dialog::Spawn(form)) = &mut state.mode {
                form.busy = false;
                form.error = Some(e);
            } else {
                state.say(e);
            }
            Vec::new()
        }
    }
}

/// The sessions an action applies to: the marked ones, else the selected
/// one; each with its name as the screen shows it.
fn targets(state: &AppState) -> Vec<(RowKey, String)> {
    let named = |r: &Session| (r.key(), row_name(r).into_owned());
    let marked: Vec<(RowKey, String)> = state
        .list
        .rows
        .iter()
        .filter(|r| state.nav.marked.contains(&r.key()))
        .map(named)
        .collect();
    if !marked.is_empty() {
        return marked;
    }
    state
        .selected_session()
        .map(|s| vec![named(s)])
        .unwrap_or_default()
}

pub(in crate::tui) fn confirm(state: &mut AppState, action: Bulk) -> Vec<Effect> {
    let targets = targets(state);
    if targets.is_empty() {
        state.say("no session selected");
        return Vec::new();
    }
    // Refuse up front what the action would refuse, so the dialog only
    // lists what will really happen.
    let mut ok: Vec<(RowKey, String)> = Vec::new();
    let mut refused = Vec::new();
    // What a refusal is said of: the rows as they are.
    let mut as_is = Vec::new();
    for (id, name) in targets {
        let Some(s) = state.list.row(&id) else {
            continue;
        };
        as_is.push((id.clone(), s.health));
        let check = match action {
            Bulk::Kill => crate::ops::ensure_killable(s),
            // A host's row: its greenroom decides, and says why not.
            Bulk::Dismiss if s.host.is_some() => Ok(()),
            Bulk::Dismiss => crate::ops::ensure_dismissable(s),
        };
        match check {
            Ok(()) => ok.push((id, name)),
            Err(e) => refused.push(e.to_string()),
        }
    }
    if ok.is_empty() {
        state.say_while(refused.join("; "), Holds::Rows(as_is));
        return Vec::new();
    }
    if !refused.is_empty() {
        state.say_while(
            format!("skipped: {}", refused.join("; ")),
            Holds::Rows(as_is),
        );
    }
    // One session whose worktree greenroom made: offer to remove it too.
    if let (Bulk::Dismiss, [(id, name)]) = (action, ok.as_slice())
        && let Some(s) = state.list.row(id)
        && let Some(path) = &s.own_worktree
    {
        // Not known to be clean counts as changed: a second `w` is needed.
        let dirty = s.changes.as_ref().is_none_or(|c| !c.is_clean());
        state.mode = Mode::Dialog(Dialog::DismissWorktree {
            id: id.clone(),
            name: name.clone(),
            path: path.clone(),
            dirty,
            second: false,
            work: Vec::new(),
        });
        return Vec::new();
    }
    let (ids, names): (Vec<RowKey>, Vec<String>) = ok.into_iter().unzip();
    let panes_only = ids.iter().all(|id| {
        state
            .list
            .rows
            .iter()
            .any(|r| r.is(id) && r.adopted.is_some())
    });
    state.mode = Mode::Dialog(Dialog::Confirm {
        action,
        ids,
        names,
        panes_only,
    });
    Vec::new()
}

pub(in crate::tui) fn live_check(s: &crate::model::Session) -> Result<(), String> {
    crate::ops::ensure_live(s).map_err(|e| e.to_string())
}

/// Quitting closes the pane beside: it shows greenroom's choice and would
/// stop following once greenroom is gone.
pub(in crate::tui) fn quit(state: &mut AppState) -> Vec<Effect> {
    let mut effects = Vec::new();
    if let BesidePane::Open(pane) = std::mem::replace(&mut state.link.beside, BesidePane::Closed) {
        effects.push(Effect::Ui(UiEffect::CloseBeside { pane }));
    }
    effects.push(Effect::Ui(UiEffect::Quit));
    effects
}

/// `o` opens one pane beside at most; pressed again it closes it.
pub(in crate::tui) fn beside(state: &mut AppState) -> Vec<Effect> {
    match std::mem::replace(&mut state.link.beside, BesidePane::Closed) {
        BesidePane::Open(pane) => {
            state.say("closed the pane beside");
            vec![Effect::Ui(UiEffect::CloseBeside { pane })]
        }
        BesidePane::Opening => {
            state.link.beside = BesidePane::Opening;
            Vec::new()
        }
        BesidePane::Closed => {
            let effects = crate::tui::reduce::op::on_selected(state, |s| {
                live_check(s)?;
                Ok(crate::tui::reduce::op::Verb::OpenBeside)
            });
            if !effects.is_empty() {
                state.link.beside = BesidePane::Opening;
            }
            effects
        }
    }
}
