//! Ops on a host's rows, run through `hosts::remote` over the host's one
//! connection, their outcome typed for the reducer to word.

use crate::hosts::remote::{self, Reach};
use crate::tui::action::op::{HostRow, Verb};
use crate::tui::action::{Action, Finished};
use crate::tui::reduce::op::host_args;

/// `verb` on a host's rows, one `greenroom` command each; what it did.
/// Capture and attach have their own ([`capture`], [`attach`]).
pub fn act(reach: Reach, verb: &Verb, rows: &[HostRow]) -> Action {
    let calls: Vec<(String, Vec<String>)> = rows
        .iter()
        .map(|r| (r.name.clone(), host_args(verb, &r.id)))
        .collect();
    let (ok, failed) = match remote::run_each(reach, &calls) {
        Ok(done) => done,
        Err(why) => return Action::Finished(Finished::Failed(why)),
    };
    Action::Finished(worded(verb, ok, failed))
}

/// Records a look at a host's rows there (`greenroom look`), quietly: a
/// failure (a host whose greenroom predates `look`) is logged, and its
/// rows stay ready until looked at there.
pub fn look(reach: Reach, rows: &[HostRow]) -> Action {
    let calls: Vec<(String, Vec<String>)> = rows
        .iter()
        .map(|r| (r.name.clone(), host_args(&Verb::Look, &r.id)))
        .collect();
    match remote::run_each(reach, &calls) {
        Ok((_, failed)) if failed.is_empty() => {}
        Ok((_, failed)) => {
            tracing::warn!(failed = %failed.join("; "), "cannot record a look on its host")
        }
        Err(why) => tracing::warn!(%why, "cannot record a look on its host"),
    }
    Action::Nothing
}

/// What `verb` did on the rows named in `ok`, and why the others failed.
fn worded(verb: &Verb, ok: Vec<String>, failed: Vec<String>) -> Finished {
    let name = ok.first().cloned().unwrap_or_default();
    match verb {
        Verb::Kill => Finished::Killed { ok, failed },
        Verb::Dismiss | Verb::DismissWorktree { .. } => Finished::Dismissed { ok, failed },
        _ if !failed.is_empty() => Finished::Failed(failed.join("; ")),
        Verb::Restore => Finished::Restored {
            name,
            resumed: false,
        },
        Verb::Send(_) => Finished::Sent { name },
        // The host records the state the key leads to; its stream says it.
        Verb::Key(key) => Finished::Answered {
            name,
            key: *key,
            after: None,
        },
        Verb::Snooze(length) => Finished::Snoozed {
            name,
            until: chrono::Utc::now()
                + chrono::Duration::from_std(*length).unwrap_or(chrono::Duration::zero()),
        },
        Verb::Wake => Finished::Woke { name },
        Verb::Capture | Verb::Attach | Verb::Look | Verb::OpenBeside | Verb::Follow(_) => {
            Finished::Failed(format!("{name}: not a command for its host"))
        }
    }
}

/// The pane of a host's row, for its preview.
pub fn capture(reach: Reach, row: HostRow) -> Action {
    Action::Preview {
        text: remote::capture(reach, &row.id),
        id: row.row,
    }
}

/// Inside tmux: attaching in a new window of its server; `None` outside.
pub fn attach_in_window(reach: Reach, tmux_env: Option<&str>, row: &HostRow) -> Option<Action> {
    let done = match remote::attach_in_window(reach, tmux_env, &row.id, &row.name)? {
        Ok(()) => Finished::Switched {
            name: row.name.clone(),
        },
        Err(why) => Finished::Failed(why),
    };
    Some(Action::Finished(done))
}

/// Attaching with the terminal handed over: back once the operator detached.
pub fn attach(reach: Reach, row: HostRow) -> Finished {
    match remote::attach(reach, &row.id, &row.name) {
        Ok(()) => Finished::Returned {
            row: row.row,
            name: row.name,
        },
        Err(why) => Finished::Failed(why),
    }
}
