//! Every effect on sessions is an [`Op`]: what to do ([`Verb`]) and where
//! ([`On`]): here, through this machine's tmux and files, or on a host,
//! through its greenroom over its one ssh connection. [`decide`] is the one
//! place an `On` is made, from each row's typed place (`Session.host`),
//! never from its name or id; what a host cannot take is refused there, by
//! name: the match has no catch-all, so a new verb must say what it does on
//! a host before the crate compiles.

use std::collections::BTreeMap;

use crate::model::{HostName, RowKey};
use crate::tui::action::Effect;
pub use crate::tui::action::op::{HostRow, On, Op, Verb};
use crate::tui::model::state::AppState;

/// Whether a host can take `verb`, and why not.
fn host_takes(verb: &Verb) -> Result<(), &'static str> {
    match verb {
        Verb::Kill
        | Verb::Dismiss
        | Verb::DismissWorktree { .. }
        | Verb::Restore
        | Verb::Send(_)
        | Verb::Key(_)
        | Verb::Snooze(_)
        | Verb::Wake
        | Verb::Capture
        | Verb::Attach
        | Verb::Look => Ok(()),
        Verb::OpenBeside | Verb::Follow(_) => {
            Err("the pane beside shows this machine's sessions only: enter attaches over ssh")
        }
    }
}

/// The effects of `verb` on the rows `ids` (keys in the list): one op for
/// this machine's rows, one for each host's, each acting where its rows
/// are; what a host cannot take is refused, the status line says why. A
/// row gone from the list is left out.
pub fn decide(state: &mut AppState, verb: Verb, ids: &[RowKey]) -> Vec<Effect> {
    let (effects, refused) = place(state, &verb, ids);
    if let Some(why) = refused {
        state.say(why);
    }
    effects
}

/// [`decide`] without a word: the effects, and why a host's rows were left out.
pub fn place(state: &AppState, verb: &Verb, ids: &[RowKey]) -> (Vec<Effect>, Option<&'static str>) {
    let mut here = Vec::new();
    let mut hosts: BTreeMap<HostName, Vec<HostRow>> = BTreeMap::new();
    for id in ids {
        let Some(s) = state.list.row(id) else {
            continue;
        };
        match &s.host {
            None => here.push(s.id.clone()),
            // The host's own id as its stream delivered it, typed.
            Some(place) if crate::hosts::valid_remote_id(&s.id) => {
                hosts.entry(place.name.clone()).or_default().push(HostRow {
                    id: s.id.clone(),
                    row: id.clone(),
                    name: crate::model::row_name(s).into_owned(),
                });
            }
            Some(_) => {}
        }
    }
    let mut effects = Vec::new();
    if !here.is_empty() {
        effects.push(Effect::Op(Op {
            op: verb.clone(),
            on: On::Here(here),
        }));
    }
    let mut refused = None;
    for (host, rows) in hosts {
        match host_takes(verb) {
            Ok(()) => effects.push(Effect::Op(Op {
                op: verb.clone(),
                on: On::Host { host, rows },
            })),
            Err(why) => refused = Some(why),
        }
    }
    (effects, refused)
}

/// The effects of `verb` on the selected row, when `check` allows it (a
/// host's row is checked by its host, not here); else the status line
/// says why.
pub fn on_selected(
    state: &mut AppState,
    check: impl FnOnce(&crate::model::Session) -> Result<Verb, String>,
) -> Vec<Effect> {
    let decided = match state.selected_session() {
        Some(s) => check(s).map(|verb| (verb, s.key())),
        None => Err("no session selected".into()),
    };
    match decided {
        Ok((verb, id)) => decide(state, verb, &[id]),
        // Said of the row as it is: withdrawn when it changes.
        Err(why) => {
            state.say_while(why, state.selected_as_is());
            Vec::new()
        }
    }
}

/// The `greenroom` command line on a host for `verb` on its session `id`
/// (the id last, after `--`: never taken for an option there); `None` for
/// what is not a command (capture and attach have their own).
pub fn host_args(verb: &Verb, id: &str) -> Vec<String> {
    let words: Vec<String> = match verb {
        Verb::Kill => vec!["kill".into(), "--yes".into()],
        Verb::Dismiss => vec!["dismiss".into(), "--yes".into()],
        Verb::DismissWorktree { discard_changes } => {
            let mut w = vec!["dismiss".into(), "--yes".into(), "--remove-worktree".into()];
            if *discard_changes {
                w.push("--discard-changes".into());
            }
            w
        }
        Verb::Restore => vec!["restore".into()],
        Verb::Send(_) => vec!["send".into()],
        Verb::Key(key) => vec!["send".into(), "--key".into(), key.to_string()],
        Verb::Snooze(length) => vec![
            "snooze".into(),
            "--for".into(),
            format!("{}s", length.as_secs().max(1)),
        ],
        Verb::Wake => vec!["snooze".into(), "--wake".into()],
        Verb::Capture => vec!["capture".into()],
        Verb::Attach => vec!["attach".into()],
        Verb::Look => vec!["look".into()],
        Verb::OpenBeside | Verb::Follow(_) => Vec::new(),
    };
    let mut args = words;
    args.push("--".into());
    args.push(id.to_owned());
    if let Verb::Send(text) = verb {
        args.push(text.clone());
    }
    args
}
