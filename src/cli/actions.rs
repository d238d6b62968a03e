//! The action subcommands: spawn, attach, kill, restore, dismiss, send,
//! snooze.
//! Each resolves its ID against the rows as `greenroom ls` sees them (the
//! files and one tmux poll), then calls the same `ops` function the
//! dashboard does. Destructive actions need `--yes`, or a terminal to ask on.

use std::io::{BufRead, IsTerminal, Write};

use crate::catalog::Catalog;
use crate::config::Config;
use crate::model::Session;
use crate::ops::{self, Launch, OpsError, SpawnRequest};
use crate::sources::sidecar::SidecarStore;
use crate::tmux::Tmux;

mod args;
pub use args::{ConfirmArgs, DismissArgs, IdArg, SendArgs, SessionCommand, SnoozeArgs, SpawnArgs};

/// Runs one action; the error is the one-line message for stderr.
pub fn run(command: &SessionCommand, config: &Config) -> Result<(), String> {
    let tmux = Tmux::new(config.tmux_socket.clone());
    run_with(command, config, &tmux).map_err(|e| e.to_string())
}

fn run_with(command: &SessionCommand, config: &Config, tmux: &Tmux) -> Result<(), Refusal> {
    let store = SidecarStore::new(&config.sidecar_dir);
    match command {
        SessionCommand::Spawn(a) => spawn(a, config, tmux),
        SessionCommand::Attach(a) => attach(a, config, tmux, &store),
        SessionCommand::Kill(a) => kill(a, config, tmux, &store),
        SessionCommand::Restore(a) => restore(a, config, tmux),
        SessionCommand::Dismiss(a) if a.all_dormant => dismiss_all(config, tmux, &store, a.yes),
        SessionCommand::Dismiss(a) if a.remove_worktree => {
            let rows = rows(config, tmux);
            let session = ops::resolve(&rows, a.id.as_deref().unwrap_or_default())?;
            dismiss_with_worktree(a, tmux, &store, session)
        }
        SessionCommand::Dismiss(a) => dismiss(a, config, tmux, &store),
        SessionCommand::Send(a) => send(a, config, tmux, &store),
        SessionCommand::Snooze(a) => snooze(a, config, tmux, &store),
    }
}

fn attach(a: &IdArg, config: &Config, tmux: &Tmux, store: &SidecarStore) -> Result<(), Refusal> {
    let rows = rows(config, tmux);
    let session = ops::resolve(&rows, &a.id)?;
    ops::ensure_live(session)?;
    let tmux_env = config.environ.tmux();
    if !tmux.is_current_server(tmux_env) && !std::io::stdin().is_terminal() {
        return Err(Refusal::Other(format!(
            "cannot attach to {}: stdin is not a terminal",
            session.name
        )));
    }
    ops::attach(tmux, store, session, tmux_env)?;
    Ok(())
}

fn kill(
    a: &ConfirmArgs,
    config: &Config,
    tmux: &Tmux,
    store: &SidecarStore,
) -> Result<(), Refusal> {
    let rows = rows(config, tmux);
    let session = ops::resolve(&rows, &a.id)?;
    ops::ensure_killable(session)?;
    let question = match &session.adopted {
        // Not greenroom's session: say that only the agent's pane goes.
        Some(adopted) => format!(
            "Kill pane {} ({}; its session's other panes and windows stay)?",
            adopted.pane,
            crate::display::safe(&session.name)
        ),
        None => format!("Kill {}?", session.name),
    };
    confirm(&question, a.yes, "kill", session)?;
    ops::kill(tmux, store, session)?;
    println!("killed {}", session.name);
    Ok(())
}

fn restore(a: &IdArg, config: &Config, tmux: &Tmux) -> Result<(), Refusal> {
    // A live record first; else an archived one (dismissed, or
    // archived at start-up because its folder was gone).
    let rows = rows_with(config, tmux, true);
    let (live, archived): (Vec<Session>, Vec<Session>) =
        rows.into_iter().partition(|s| !s.archived);
    let session = match ops::resolve(&live, &a.id) {
        Err(OpsError::UnknownId(_)) => ops::resolve(&archived, &a.id)?,
        other => other?,
    };
    let r = ops::restore(tmux, config, session)?;
    let how = if r.resumed { "resumed" } else { "restarted" };
    println!("{how} {}: {}", session.name, r.command);
    if session.archived {
        println!("its record is back from the archive");
    }
    if r.worktree_recreated {
        println!("its worktree was gone and was made again from its branch");
    }
    Ok(())
}

fn dismiss(
    a: &DismissArgs,
    config: &Config,
    tmux: &Tmux,
    store: &SidecarStore,
) -> Result<(), Refusal> {
    let rows = rows(config, tmux);
    let id = a.id.as_deref().unwrap_or_default();
    let session = ops::resolve(&rows, id)?;
    ops::ensure_dismissable(session)?;
    confirm(
        &format!("Dismiss {}?", session.name),
        a.yes,
        "dismiss",
        session,
    )?;
    let to = ops::dismiss(tmux, store, session)?;
    println!(
        "dismissed {} (its record is now {})",
        session.name,
        to.display()
    );
    Ok(())
}

fn send(a: &SendArgs, config: &Config, tmux: &Tmux, store: &SidecarStore) -> Result<(), Refusal> {
    let rows = rows(config, tmux);
    let session = ops::resolve(&rows, &a.id)?;
    match a.key {
        Some(key) => match ops::send_key(tmux, store, session, key)? {
            Some(after) => println!(
                "sent {key} to {} (it was waiting; now {})",
                session.name,
                after.contract_name()
            ),
            None => println!("sent {key} to {}", session.name),
        },
        None => ops::send(tmux, session, &a.text.join(" "))?,
    }
    Ok(())
}

fn snooze(
    a: &SnoozeArgs,
    config: &Config,
    tmux: &Tmux,
    store: &SidecarStore,
) -> Result<(), Refusal> {
    let rows = rows(config, tmux);
    let session = ops::resolve(&rows, &a.id)?;
    let now = chrono::Utc::now();
    if a.wake {
        ops::wake(store, session, now)?;
        println!("woke {}", session.name);
    } else {
        let length = a.length.unwrap_or(config.snooze);
        let until = ops::snooze(store, session, length, now)?;
        let mark = crate::attention::snooze_mark(until, now);
        println!(
            "snoozed {} until {} ({mark}); any new state change wakes it",
            session.name,
            until.with_timezone(&chrono::Local).format("%H:%M")
        );
    }
    Ok(())
}

/// An action's failure: an ops error or a refusal of the CLI's own.
#[derive(Debug, thiserror::Error)]
enum Refusal {
    #[error(transparent)]
    Ops(#[from] OpsError),
    #[error("{0}")]
    Other(String),
}

/// The rows with tmux's view: one poll, as `greenroom ls` sees them.
fn rows(config: &Config, tmux: &Tmux) -> Vec<Session> {
    rows_with(config, tmux, false)
}

/// [`rows`], with the archived ones too when `all`, and each session's
/// usage followed: what a restore needs, since the agent's own id may be
/// only in its own store (OpenCode's database).
fn rows_with(config: &Config, tmux: &Tmux, all: bool) -> Vec<Session> {
    let mut catalog = Catalog::load(config, all);
    if all {
        catalog.load_usage();
    }
    catalog.set_tmux(tmux.poll());
    crate::engine::read_agent_screens(&mut catalog, tmux);
    catalog.rows(chrono::Utc::now())
}

fn spawn(a: &SpawnArgs, config: &Config, tmux: &Tmux) -> Result<(), Refusal> {
    let cwd = match &a.cwd {
        Some(dir) => dir.clone(),
        None => config
            .environ
            .current_dir()
            .map(ToOwned::to_owned)
            .ok_or_else(|| Refusal::Other("cannot read the current folder".into()))?,
    };
    let launch = match (&a.agent, a.command.is_empty()) {
        (Some(p), _) => Launch::Preset(p.clone()),
        (None, false) => Launch::Command(a.command.join(" ")),
        (None, true) => Launch::Default,
    };
    let req = SpawnRequest {
        name: a.name.clone(),
        cwd,
        launch,
        worktree: a.worktree.clone(),
        prompt: a.prompt.clone(),
    };
    let spawned = ops::spawn(tmux, config, &req)?;
    let s = &spawned.sidecar;
    println!(
        "spawned {} in {} (tmux session {}, id {})",
        s.name,
        s.cwd.display(),
        s.tmux_session.as_deref().unwrap_or_default(),
        s.id
    );
    if let Some(w) = &s.worktree {
        println!("new branch {} in worktree {}", w.branch, w.path.display());
    }
    if let Some(warning) = &spawned.warning {
        super::output::stderr_line(format_args!("greenroom: {warning}"));
    }
    Ok(())
}

/// `dismiss --remove-worktree`: asks once, and a second time when the
/// worktree has uncommitted changes.
fn dismiss_with_worktree(
    a: &DismissArgs,
    tmux: &Tmux,
    store: &SidecarStore,
    session: &Session,
) -> Result<(), Refusal> {
    ops::ensure_dismissable(session)?;
    let offer = ops::worktree_offer(store, session)
        .ok_or_else(|| OpsError::NoWorktree(session.name.clone()))?;
    let path = offer.worktree.path.display().to_string();
    let question = format!("Dismiss {} and remove its worktree {path}?", session.name);
    confirm(&question, a.yes, "dismiss", session)?;
    let mut discard = a.discard_changes;
    if offer.has_changes && !discard && std::io::stdin().is_terminal() {
        discard = ask(&format!(
            "{path} has uncommitted changes ({}). Remove it anyway, losing them?",
            crate::display::safe(&offer.work.summary())
        ))?;
    }
    let end = ops::WorktreeEnd {
        discard_changes: discard,
        delete_merged_branch: !a.keep_branch,
    };
    let ended = ops::dismiss_with_worktree(tmux, store, session, end)?;
    println!(
        "dismissed {} (its record is now {}); removed the worktree {}",
        session.name,
        ended.archived_to.display(),
        ended.removed.display()
    );
    if let Some(b) = ended.branch_deleted {
        println!("deleted the merged branch {b}");
    }
    if let Some(why) = ended.branch_kept {
        println!("{why}");
    }
    Ok(())
}

fn dismiss_all(
    config: &Config,
    tmux: &Tmux,
    store: &SidecarStore,
    yes: bool,
) -> Result<(), Refusal> {
    let rows = rows(config, tmux);
    let targets = ops::dismissable(&rows);
    if targets.is_empty() {
        println!("nothing to dismiss: no stopped greenroom session");
        return Ok(());
    }
    let verb = if yes { "dismissing" } else { "would dismiss" };
    println!("{verb} {} session(s):", targets.len());
    for s in &targets {
        println!(
            "  {:<20} {:<8} {}",
            s.name,
            s.status.as_str().to_lowercase(),
            s.cwd.display()
        );
    }
    if !yes {
        if !std::io::stdin().is_terminal() {
            println!("nothing was dismissed; pass --yes to dismiss these");
            return Ok(());
        }
        if !ask(&format!("Dismiss these {} sessions?", targets.len()))? {
            return Err(Refusal::Other("cancelled; nothing was dismissed".into()));
        }
    }
    let mut failed = Vec::new();
    for s in targets {
        match ops::dismiss(tmux, store, s) {
            Ok(_) => println!("dismissed {}", s.name),
            Err(e) => failed.push(format!("{}: {e}", s.name)),
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Refusal::Other(format!(
            "could not dismiss {}",
            failed.join("; ")
        )))
    }
}

/// Goes ahead with `--yes`; else asks on the terminal, or refuses without one.
fn confirm(question: &str, yes: bool, verb: &str, session: &Session) -> Result<(), Refusal> {
    if yes {
        return Ok(());
    }
    if !std::io::stdin().is_terminal() {
        return Err(Refusal::Other(format!(
            "refusing to {verb} {} without confirmation: pass --yes (stdin is not a terminal to ask on)",
            session.name
        )));
    }
    if ask(question)? {
        Ok(())
    } else {
        Err(Refusal::Other(format!(
            "cancelled; {} was left as it was",
            session.name
        )))
    }
}

/// `question [y/N]` on stderr; true for y or yes.
fn ask(question: &str) -> Result<bool, Refusal> {
    let mut err = std::io::stderr();
    let _ = write!(err, "{question} [y/N] ");
    let _ = err.flush();
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|e| Refusal::Other(format!("cannot read the answer: {e}")))?;
    Ok(matches!(
        line.trim().to_ascii_lowercase().as_str(),
        "y" | "yes"
    ))
}
