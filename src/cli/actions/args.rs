//! The action subcommands' arguments, as clap reads them.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::ops;

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
    /// Record that you looked at a session: a turn it finished before is no
    /// longer ready (what another machine's dashboard runs here when you
    /// keep one of this machine's rows selected)
    #[command(hide = true)]
    Look(LookArg),
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

/// `look`'s session: hidden, like the command (not completed as names).
#[derive(Debug, Args)]
pub struct LookArg {
    /// The session's name, uuid, or a unique uuid prefix
    pub session: String,
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
    /// Press one key instead, to answer a prompt: Enter, Escape, C-c, Tab, a digit 1-9, or y (Enter) and n (Escape) as the dashboard's y and N
    #[arg(long, value_name = "KEY", value_parser = ops::AnswerKey::parse)]
    pub key: Option<ops::AnswerKey>,
}
