//! The work behind ops on a host's sessions, run by the runner: one
//! `greenroom VERB ID` over the host's ssh connection for each row, its
//! outcome typed for the reducer to word; attaching with a terminal (`ssh -t`).

use std::path::PathBuf;
use std::time::Duration;

use crate::hosts::HostConfig;
use crate::model::RowKey;
use crate::tui::action::{Action, Finished};
use crate::tui::reduce::op::{HostRow, Verb, host_args};

/// How long an action on a host may take.
const ACT_LIMIT: Duration = Duration::from_secs(20);

/// `verb` on a host's rows, one `greenroom` command each over the host's
/// connection; what it did, typed for the reducer to word. Capture and
/// attach have their own ([`capture`], [`attach`]).
pub fn act(
    host: Option<HostConfig>,
    control: Result<PathBuf, String>,
    verb: &Verb,
    rows: &[HostRow],
) -> Action {
    let Some(host) = host else {
        return Action::Finished(Finished::Failed(
            "its host is not in config.toml".to_owned(),
        ));
    };
    let control = match control {
        Ok(c) => c,
        Err(e) => return Action::Finished(Finished::Failed(format!("no ssh control folder: {e}"))),
    };
    let (mut ok, mut failed) = (Vec::new(), Vec::new());
    for row in rows {
        let args = host_args(verb, &row.id);
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        match crate::hosts::ssh::run(&host, &control, &argv, ACT_LIMIT) {
            Ok(_) => ok.push(row.name.clone()),
            Err(e) => failed.push(format!("{}: {e}", row.name)),
        }
    }
    let name = ok.first().cloned().unwrap_or_default();
    let done = match verb {
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
        Verb::Capture | Verb::Attach | Verb::OpenBeside | Verb::Follow(_) => {
            Finished::Failed(format!("{name}: not a command for its host"))
        }
    };
    Action::Finished(done)
}

/// The most of a host's pane the preview keeps.
const MAX_CAPTURE: usize = 256 * 1024;

/// The pane of a host's session, for the preview of row `row`.
pub fn capture(
    host: Option<HostConfig>,
    control: Result<PathBuf, String>,
    id: &str,
    row: RowKey,
) -> Action {
    let text = match (host, control) {
        (Some(host), Ok(control)) => {
            match crate::hosts::ssh::run(&host, &control, &["capture", "--", id], ACT_LIMIT) {
                Ok(mut text) => {
                    if text.len() > MAX_CAPTURE {
                        let mut cut = MAX_CAPTURE;
                        while !text.is_char_boundary(cut) {
                            cut -= 1;
                        }
                        text.truncate(cut);
                    }
                    text
                }
                Err(e) => format!("cannot capture the pane: {e}"),
            }
        }
        _ => "cannot capture the pane: its host is not reachable".into(),
    };
    Action::Preview { id: row, text }
}

/// Inside tmux: `ssh -t HOST greenroom attach ID` in a new window of the
/// server greenroom runs in, so the dashboard stays as it is; `None`
/// outside tmux (the runner suspends the dashboard and uses [`attach`]).
pub fn attach_in_window(
    host: Option<HostConfig>,
    control: Result<PathBuf, String>,
    row: HostRow,
) -> Option<Action> {
    let HostRow { id, name, .. } = row;
    let tmux_env = std::env::var("TMUX").ok();
    let here = crate::tmux::host_from_env(tmux_env.as_deref())?;
    let (Some(host), Ok(control)) = (host, control) else {
        return Some(Action::Finished(Finished::Failed(format!(
            "{name}: cannot reach its host"
        ))));
    };
    let mut cmd = crate::hosts::ssh::command(&host, &control, true);
    cmd.arg(crate::hosts::ssh::remote_line(
        &host,
        &["attach", "--", &id],
    ));
    let line: Vec<String> = std::iter::once(cmd.get_program())
        .chain(cmd.get_args())
        .map(|a| crate::ops::shell_quote(&a.to_string_lossy()))
        .collect();
    let done = match here.new_window(&host.name, &line.join(" ")) {
        Ok(()) => Finished::Switched { name },
        Err(e) => Finished::Failed(format!("{name}: cannot open a window: {e}")),
    };
    Some(Action::Finished(done))
}

/// `ssh -t HOST greenroom attach ID`, with the terminal (the runner has
/// suspended the dashboard).
pub fn attach(
    host: Option<HostConfig>,
    control: Result<PathBuf, String>,
    row: HostRow,
) -> Finished {
    let HostRow { id, row, name } = row;
    let (Some(host), Ok(control)) = (host, control) else {
        return Finished::Failed(format!("{name}: cannot reach its host"));
    };
    let mut cmd = crate::hosts::ssh::command(&host, &control, true);
    cmd.arg(crate::hosts::ssh::remote_line(
        &host,
        &["attach", "--", &id],
    ));
    match cmd.status() {
        Ok(s) if s.success() => Finished::Returned { row, name },
        Ok(s) => Finished::Failed(format!(
            "{name}: attaching over ssh failed ({})",
            s.code()
                .map_or("a signal".into(), |c| format!("exit code {c}"))
        )),
        Err(e) => Finished::Failed(format!("{name}: cannot run ssh: {e}")),
    }
}
