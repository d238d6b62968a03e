//! The action subcommands: spawn, attach, kill, restore, dismiss, send,
//! snooze.
//! Each resolves its ID against the rows as `greenroom ls` sees them (the
//! files and one tmux poll), then calls the same `ops` function the
//! dashboard does. Destructive actions need `--yes`, or a terminal to ask on.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::catalog::Catalog;
use crate::config::Config;
use crate::model::{Health, Session};
use crate::ops::{self, Launch, OpsError, SpawnRequest};
use crate::sources::sidecar::SidecarStore;
use crate::tmux::Tmux;

#[derive(Debug, Subcommand)]
pub enum SessionCommand {
    /// Start a new session in tmux (a shell unless --agent or -- COMMAND)
    Spawn(SpawnArgs),
    /// Attach to a session: switch to it inside tmux, else attach this terminal until you detach
    Attach(IdArg),
    /// Kill a session's tmux session (its record and worktree stay)
    Kill(ConfirmArgs),
    /// Start a dormant, killed or exited session again, resuming its agent's conversation when known (its first prompt is never sent again)
    Restore(IdArg),
    /// Move a session that is not running to the archive (nothing is deleted)
    Dismiss(DismissArgs),
    /// Type a message into a session and press Enter, or press one key (--key) to answer a prompt
    Send(SendArgs),
    /// Take a session that needs you out of the queue for a while (any new state change wakes it)
    Snooze(SnoozeArgs),
}

#[derive(Debug, Args)]
pub struct SnoozeArgs {
    /// The session's name, uuid, or a unique uuid prefix (4 characters or more)
    pub id: String,
    /// How long: 30m, 2h, 90s, or minutes [default: snooze_minutes in the settings]
    #[arg(long = "for", value_name = "LENGTH", value_parser = parse_length, conflicts_with = "wake")]
    pub length: Option<std::time::Duration>,
    /// Wake it now instead
    #[arg(long)]
    pub wake: bool,
}

/// `30m`, `2h`, `90s`, or a bare number of minutes; 1 s to 7 days.
fn parse_length(text: &str) -> Result<std::time::Duration, String> {
    let t = text.trim();
    let (number, unit) = match t.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => t.split_at(i),
        None => (t, "m"),
    };
    let n: u64 = number
        .parse()
        .map_err(|_| format!("{t:?} is not a length like 30m, 2h or 90s"))?;
    let secs = match unit {
        "s" => n,
        "m" => n.saturating_mul(60),
        "h" => n.saturating_mul(3600),
        _ => return Err(format!("{t:?} is not a length like 30m, 2h or 90s")),
    };
    if !(1..=7 * 86_400).contains(&secs) {
        return Err(format!("{t:?} must be between 1s and 7 days"));
    }
    Ok(std::time::Duration::from_secs(secs))
}

#[derive(Debug, Args)]
pub struct SpawnArgs {
    /// Session name, [A-Za-z0-9_-]{1,64} [default: <name_prefix>-<n>]
    #[arg(long, short)]
    pub name: Option<String>,
    /// Folder to start in [default: the current folder]
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Agent preset from the settings (claude, codex, gemini, aider, shell, ...)
    #[arg(long, short, value_name = "PRESET", conflicts_with = "command")]
    pub agent: Option<String>,
    /// Start in a new git worktree on this new branch, beside the repository:
    /// <repo-parent>/<repo-name>-<branch, '/' as '-'>
    #[arg(long, value_name = "BRANCH")]
    pub worktree: Option<String>,
    /// A first prompt for the agent
    #[arg(long, value_name = "TEXT")]
    pub prompt: Option<String>,
    /// The command to run instead of a preset (after --; words are joined
    /// with spaces and run by your shell, like ssh does)
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

#[derive(Debug, Args)]
pub struct IdArg {
    /// The session's name, uuid, or a unique uuid prefix (4 characters or more)
    pub id: String,
}

#[derive(Debug, Args)]
pub struct ConfirmArgs {
    /// The session's name, uuid, or a unique uuid prefix (4 characters or more)
    pub id: String,
    /// Do not ask for confirmation (needed when stdin is not a terminal)
    #[arg(long, short)]
    pub yes: bool,
}

#[derive(Debug, Args)]
pub struct DismissArgs {
    /// The session's name, uuid, or a unique uuid prefix (4 characters or more)
    #[arg(
        required_unless_present = "all_dormant",
        conflicts_with = "all_dormant"
    )]
    pub id: Option<String>,
    /// Every one of greenroom's sessions that is not running; lists them
    /// unless --yes (or a terminal to ask on)
    #[arg(long)]
    pub all_dormant: bool,
    /// Do not ask for confirmation (needed when stdin is not a terminal)
    #[arg(long, short)]
    pub yes: bool,
    /// Also remove the worktree greenroom made for it (`git worktree
    /// remove`), and delete its branch if merged
    #[arg(long, conflicts_with = "all_dormant")]
    pub remove_worktree: bool,
    /// With --remove-worktree: remove it even with uncommitted changes (the
    /// second confirmation, when there is no terminal to ask on)
    #[arg(long, requires = "remove_worktree")]
    pub discard_changes: bool,
    /// With --remove-worktree: keep the branch even if it is merged
    #[arg(long, requires = "remove_worktree")]
    pub keep_branch: bool,
}

#[derive(Debug, Args)]
pub struct SendArgs {
    /// The session's name, uuid, or a unique uuid prefix (4 characters or more)
    pub id: String,
    /// The message, typed literally (several words are joined with spaces;
    /// newlines are pasted as one block)
    #[arg(
        required_unless_present = "key",
        conflicts_with = "key",
        allow_hyphen_values = true,
        num_args = 1..
    )]
    pub text: Vec<String>,
    /// Press one key instead, to answer a prompt: Enter, Escape, C-c, Tab, or a digit 1-9
    #[arg(long, value_name = "KEY", value_parser = ops::AnswerKey::parse)]
    pub key: Option<ops::AnswerKey>,
}

/// Runs one action; the error is the one-line message for stderr.
pub fn run(command: &SessionCommand, config: &Config) -> Result<(), String> {
    let tmux = Tmux::new(config.tmux_socket.clone());
    run_with(command, config, &tmux).map_err(|e| e.to_string())
}

fn run_with(command: &SessionCommand, config: &Config, tmux: &Tmux) -> Result<(), Refusal> {
    let store = SidecarStore::new(&config.sidecar_dir);
    match command {
        SessionCommand::Spawn(a) => spawn(a, config, tmux),
        SessionCommand::Attach(a) => {
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
            ops::attach(tmux, &store, session, tmux_env)?;
            Ok(())
        }
        SessionCommand::Kill(a) => {
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
            ops::kill(tmux, &store, session)?;
            println!("killed {}", session.name);
            Ok(())
        }
        SessionCommand::Restore(a) => {
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
        SessionCommand::Dismiss(a) if a.all_dormant => dismiss_all(config, tmux, &store, a.yes),
        SessionCommand::Dismiss(a) if a.remove_worktree => {
            let rows = rows(config, tmux);
            let session = ops::resolve(&rows, a.id.as_deref().unwrap_or_default())?;
            dismiss_with_worktree(a, tmux, &store, session)
        }
        SessionCommand::Dismiss(a) => {
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
            let to = ops::dismiss(tmux, &store, session)?;
            println!(
                "dismissed {} (its record is now {})",
                session.name,
                to.display()
            );
            Ok(())
        }
        SessionCommand::Send(a) => {
            let rows = rows(config, tmux);
            let session = ops::resolve(&rows, &a.id)?;
            match a.key {
                Some(key) => {
                    ops::send_key(tmux, &store, session, key)?;
                    match key
                        .state_after()
                        .filter(|_| session.health == Health::Waiting)
                    {
                        Some(after) => println!(
                            "sent {key} to {} (it was waiting; now {})",
                            session.name,
                            after.contract_name()
                        ),
                        None => println!("sent {key} to {}", session.name),
                    }
                }
                None => ops::send(tmux, session, &a.text.join(" "))?,
            }
            Ok(())
        }
        SessionCommand::Snooze(a) => {
            let rows = rows(config, tmux);
            let session = ops::resolve(&rows, &a.id)?;
            let now = chrono::Utc::now();
            if a.wake {
                ops::wake(&store, session, now)?;
                println!("woke {}", session.name);
            } else {
                let length = a.length.unwrap_or(config.snooze);
                let until = ops::snooze(&store, session, length, now)?;
                let mark = crate::attention::snooze_mark(until, now);
                println!(
                    "snoozed {} until {} ({mark}); any new state change wakes it",
                    session.name,
                    until.with_timezone(&chrono::Local).format("%H:%M")
                );
            }
            Ok(())
        }
    }
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

/// [`rows`], with the archived ones too when `all`.
fn rows_with(config: &Config, tmux: &Tmux, all: bool) -> Vec<Session> {
    let mut catalog = Catalog::load(config, all);
    catalog.set_tmux(tmux.poll());
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
