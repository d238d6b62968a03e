//! The command line: global flags, subcommands, and the commands that do
//! not open the dashboard.

pub mod actions;
pub mod all_hosts;
pub mod capture;
pub mod completions;
pub mod demo;
pub mod ls;
pub mod output;
pub mod status;
pub mod tmux_install;
pub mod watch;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::config::Overrides;

/// The dashboard draws on a terminal: without one (a script, a cron job, a
/// pipe) say so in one line instead of failing inside the terminal library.
pub fn ensure_terminal(what: &str) -> Result<(), String> {
    use std::io::IsTerminal;
    if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        Ok(())
    } else {
        Err(format!(
            "{what} needs a terminal (stdin and stdout); for scripts, use `greenroom ls --json` or `greenroom status`"
        ))
    }
}

/// A terminal dashboard for the AI coding agents you run in tmux.
///
/// Run `greenroom` with no command to open the dashboard: every agent
/// session (greenroom's own, Maestro orchestrations, Agent Orchestrator
/// sessions), which ones wait for you, errored or are stuck, and the keys to
/// act on them. `greenroom demo` shows it on simulated agents.
#[derive(Debug, Parser)]
#[command(
    name = "greenroom",
    version,
    about = "A terminal dashboard for the AI coding agents you run in tmux",
    propagate_version = true,
    after_help = "Run with no command to open the dashboard. Press ? in it for the keys."
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    /// Run the dashboard in a tmux popup of this client (what prefix G
    /// passes): attaching switches that client, then the dashboard quits
    /// and the popup closes
    #[arg(long, env = "GREENROOM_POPUP", value_name = "CLIENT", hide = true)]
    pub popup: Option<String>,
    #[command(subcommand)]
    pub command: Option<CliCommand>,
}

/// Where greenroom looks. Each flag has an environment variable, and each
/// setting a line in config.toml.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Where greenroom looks")]
pub struct GlobalArgs {
    /// Folder of greenroom's session records
    #[arg(long, global = true, env = "GREENROOM_SIDECAR_DIR", value_name = "DIR")]
    pub sidecar_dir: Option<PathBuf>,
    /// A Maestro workspace to read, its docs/maestro folder, or its state folder (repeatable)
    #[arg(
        long = "state-dir",
        global = true,
        env = "GREENROOM_STATE_DIRS",
        value_delimiter = ':',
        value_name = "DIR"
    )]
    pub state_dirs: Vec<PathBuf>,
    /// Agent Orchestrator's folder [default: ~/.agent-orchestrator]
    #[arg(long, global = true, env = "GREENROOM_AO_DIR", value_name = "DIR")]
    pub ao_dir: Option<PathBuf>,
    /// Claude Code's folder, for transcripts [default: $CLAUDE_CONFIG_DIR or ~/.claude]
    #[arg(long, global = true, env = "GREENROOM_CLAUDE_DIR", value_name = "DIR")]
    pub claude_dir: Option<PathBuf>,
    /// tmux server: a socket name (tmux -L) or a socket path (tmux -S) [default: your default server]
    #[arg(
        long,
        global = true,
        env = "GREENROOM_TMUX_SOCKET",
        value_name = "NAME|PATH"
    )]
    pub tmux_socket: Option<String>,
    /// Config file [default: $XDG_CONFIG_HOME/greenroom/config.toml]
    #[arg(long, global = true, env = "GREENROOM_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
}

impl GlobalArgs {
    pub fn overrides(&self) -> Overrides {
        Overrides {
            config: self.config.clone(),
            sidecar_dir: self.sidecar_dir.clone(),
            state_dirs: self
                .state_dirs
                .iter()
                .filter(|p| !p.as_os_str().is_empty())
                .cloned()
                .collect(),
            ao_dir: self.ao_dir.clone(),
            claude_dir: self.claude_dir.clone(),
            tmux_socket: self.tmux_socket.clone(),
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum CliCommand {
    /// List sessions, most recently focused first
    #[command(alias = "list")]
    Ls(ls::LsArgs),
    /// Print counts of sessions that need you (errored, waiting, stuck, ready) and active ones
    ///
    /// For tmux: set -g status-right '#(greenroom status --tmux)' (greenroom tmux install adds it)
    Status(status::StatusArgs),
    /// Follow the sessions as JSON lines: a snapshot, then one line per change
    ///
    /// The snapshot has every row in the `ls --json` shape plus `host`; then
    /// `added`, `changed`, `removed` and `problems` lines as they happen, and a
    /// `heartbeat` every few seconds. A dashboard on another machine reads it
    /// over ssh (`[[hosts]]` in config.toml).
    Watch(watch::WatchArgs),
    /// A session's pane as text (what another machine's dashboard previews)
    #[command(hide = true)]
    Capture {
        /// The session: a name, uuid or unique uuid prefix
        session: String,
    },
    /// Attach to the session that needs you most (waiting, then errored, stuck, then ready; the longest first)
    ///
    /// For tmux: bind-key g run-shell 'greenroom next' (greenroom tmux install adds it). Run from a
    /// tmux key, it answers in the status line.
    Next,
    /// Record an agent hook's report (reads the hook payload JSON on stdin)
    ///
    /// Agent hooks call this; it finds its session through
    /// GREENROOM_SESSION_ID and GREENROOM_SIDECAR_DIR, which `greenroom spawn`
    /// sets; an agent greenroom did not start is recorded against its tmux
    /// pane (TMUX_PANE), or not at all outside tmux. It never fails the
    /// agent: it prints nothing and exits 0, logging any error to
    /// greenroom's log file.
    Report {
        /// Force this activity instead of reading it from the payload:
        /// active, idle, awaiting_input, error or exited (or Codex's
        /// `notify` JSON, which Codex passes here: the end of a turn)
        state: Option<String>,
    },
    /// Install or remove greenroom's hooks in an agent's settings
    #[command(subcommand)]
    Hooks(HooksCommand),
    /// Add greenroom's keys to tmux (next, the dashboard, back) and its counts to the status line
    ///
    /// `greenroom tmux install` adds one marked block at the end of your
    /// tmux config (~/.tmux.conf, or $XDG_CONFIG_HOME/tmux/tmux.conf when
    /// that is the one you have); `uninstall` removes exactly that block.
    /// Both are idempotent; --dry-run shows the lines, --apply also changes
    /// the running tmux server.
    #[command(subcommand)]
    Tmux(tmux_install::TmuxCommand),
    #[command(flatten)]
    Actions(actions::SessionCommand),
    /// Try greenroom on eight simulated agents (no agent or network needed)
    ///
    /// Starts simulated agents in a private tmux server and a temporary
    /// folder, then opens the dashboard on them: within seconds one waits for
    /// you, one errors, one turns stuck and one finishes. Quitting stops that
    /// server and removes the folder. Your settings, sessions and tmux server
    /// are not read or changed (global flags are ignored).
    Demo(demo::DemoArgs),
    /// One of the demo's simulated agents (run by `greenroom demo`)
    #[command(hide = true)]
    DemoAgent(demo::agent::AgentArgs),
    /// Print a shell completion script
    ///
    /// Install it where your shell looks, e.g.:
    ///   bash: greenroom completions bash > ~/.local/share/bash-completion/completions/greenroom
    ///   zsh:  greenroom completions zsh > ~/.zfunc/_greenroom  (with ~/.zfunc in $fpath)
    ///   fish: greenroom completions fish > ~/.config/fish/completions/greenroom.fish
    #[command(verbatim_doc_comment)]
    Completions {
        /// The shell to complete for
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

#[derive(Debug, Subcommand)]
pub enum HooksCommand {
    /// Add greenroom's hook entries to the agent's settings.json or Codex's hooks.json (idempotent; backs the file up), or write greenroom's OpenCode plugin (plugins/greenroom.js)
    Install(HooksArgs),
    /// Remove greenroom's hook entries (or its OpenCode plugin), and nothing else
    Uninstall(HooksArgs),
}

#[derive(Debug, Args)]
pub struct HooksArgs {
    /// Which agent's settings to change
    #[arg(long, value_enum)]
    pub agent: crate::hook::install::HookAgent,
    /// The user's settings, or this project's (.claude/, .gemini/, .codex/ or .opencode/ in the current folder)
    #[arg(long, value_enum, default_value_t)]
    pub scope: crate::hook::install::HookScope,
    /// Show the resulting file and change nothing
    #[arg(long)]
    pub dry_run: bool,
}
