//! Settings, layered: embedded defaults (assets/default-config.toml) < the
//! user's config.toml < environment < command-line flags.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::sources::{maestro, read_linked_text_file};

mod budget;
mod builds;
mod file;
mod locate;
mod wording;

use file::{ConfigFile, parse_layer};
pub use locate::{codex_home, opencode_db};
use locate::{
    default_sidecar_dir, expand_home, home, maestro_hooks, maestro_workspace, tmux_socket,
};

// The types config holds, owned by the layers that read them: config only
// builds them. Named here too so a caller holding a `Config` needs one import.
pub use crate::environ::{Env, Environ};
pub use crate::health::Thresholds;
pub use crate::model::AgentPreset;
pub use crate::tmux::TmuxSocket;

const DEFAULTS: &str = include_str!("../assets/default-config.toml");

/// The settings every part of greenroom reads, fully resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub sidecar_dir: PathBuf,
    pub state_dirs: Vec<PathBuf>,
    pub maestro_state_dir: String,
    pub maestro_hooks_dir: PathBuf,
    /// Also read when neither MAESTRO_HOOKS_DIR nor the config names the
    /// hooks folder: Maestro 1.4.0's own default, `/tmp/maestro-hooks`
    /// (later releases use `maestro_hooks_dir`'s per-user default).
    pub maestro_hooks_legacy: Option<PathBuf>,
    pub ao_dir: Option<PathBuf>,
    pub claude_dir: Option<PathBuf>,
    /// Codex CLI's home (`CODEX_HOME`, else `~/.codex`), where its rollouts are.
    pub codex_dir: Option<PathBuf>,
    /// OpenCode's database (`$XDG_DATA_HOME/opencode/opencode.db`, else
    /// `~/.local/share/opencode/opencode.db`), where its sessions are.
    pub opencode_db: Option<PathBuf>,
    pub tmux_socket: TmuxSocket,
    pub thresholds: Thresholds,
    pub poll_interval: Duration,
    /// Notifications at all (the master switch of `[notify]`).
    pub alerts: bool,
    /// `[notify]`: which classes, the bell, the program.
    pub notify: Notify,
    /// Show each session's spend in the sidebar.
    pub sidebar_cost: bool,
    /// How long `z` and `greenroom snooze` snooze a session by default.
    pub snooze: Duration,
    /// Sessions that need the operator are pinned on top of the sidebar.
    pub pin_attention: bool,
    /// When to listen to tmux's control-mode events rather than poll every
    /// interval (by default only on releases whose control clients cannot
    /// crash the server).
    pub tmux_events: crate::tmux::Listening,
    /// Key overrides: command name -> keys.
    pub keys: BTreeMap<String, Vec<String>>,
    /// Default session names are `<name_prefix>-<n>`.
    pub name_prefix: String,
    /// Agent presets by name (claude, codex, gemini, aider, shell, and the user's own).
    pub agents: BTreeMap<String, AgentPreset>,
    /// Token prices: the bundled table with config.toml's `[prices]` on top.
    pub prices: crate::sources::prices::Prices,
    /// `[budget]`: the spend limits sessions and the day are marked over.
    pub budget: crate::model::Budget,
    /// The user config file that was read, if any.
    pub config_path: Option<PathBuf>,
    /// The environment variables read after start-up (`$TMUX`, `$PATH`,
    /// the theme's), from the one snapshot `main` took.
    pub environ: Environ,
    /// The tmux client whose popup the dashboard runs in (`--popup`): an
    /// attach switches that client, and the dashboard then quits.
    pub popup_client: Option<crate::tmux::ClientName>,
    /// Other machines whose sessions are shown (`[[hosts]]`), checked.
    pub hosts: Vec<crate::hosts::HostConfig>,
}

/// `[notify]`: when a session newly needs the operator, which health
/// classes notify, whether the bell rings, and the program run (argv, no
/// shell) with the event on stdin.
#[derive(Debug, Clone, PartialEq)]
pub struct Notify {
    pub on: Vec<crate::model::Health>,
    pub bell: bool,
    pub command: Vec<String>,
}

impl Notify {
    fn from_file(file: Option<file::NotifyFile>) -> Self {
        let file = file.unwrap_or_default();
        Self {
            // Every class that needs the operator unless the file names some.
            on: file.on.unwrap_or_else(|| {
                crate::model::Health::ALL
                    .iter()
                    .copied()
                    .filter(|h| h.needs_operator())
                    .collect()
            }),
            bell: file.bell.unwrap_or(true),
            command: file.command.unwrap_or_default(),
        }
    }
}

/// Values from flags or their environment variables; `None` leaves the file's value.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub config: Option<PathBuf>,
    pub sidecar_dir: Option<PathBuf>,
    pub state_dirs: Vec<PathBuf>,
    pub ao_dir: Option<PathBuf>,
    pub claude_dir: Option<PathBuf>,
    pub tmux_socket: Option<String>,
}

impl Overrides {
    /// Sessions record absolute folders; relative flags are made absolute
    /// so a workspace named on the command line matches them.
    fn absolute(&self) -> Self {
        let absolute = |p: &PathBuf| std::path::absolute(p).unwrap_or_else(|_| p.clone());
        Self {
            config: self.config.clone(),
            sidecar_dir: self.sidecar_dir.as_ref().map(absolute),
            state_dirs: self.state_dirs.iter().map(absolute).collect(),
            ao_dir: self.ao_dir.as_ref().map(absolute),
            claude_dir: self.claude_dir.as_ref().map(absolute),
            tmux_socket: self.tmux_socket.clone(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config file {path}: {reason}")]
    Unreadable { path: PathBuf, reason: String },
    #[error("config file {path}: {reason}")]
    Invalid { path: PathBuf, reason: String },
    /// A `[keys]` binding the dashboard cannot use (checked by every
    /// command, not only when the dashboard starts).
    #[error("config file {path}: {reason}")]
    Keys { path: PathBuf, reason: String },
}

impl ConfigError {
    /// A `[keys]` mistake in the file `config` was read from.
    pub fn keys(config: &Config, reason: String) -> Self {
        ConfigError::Keys {
            path: config
                .config_path
                .clone()
                .unwrap_or_else(|| PathBuf::from("<built-in defaults>")),
            reason,
        }
    }
}

impl Config {
    /// Resolves every layer. A missing user config is normal; a broken one is an error
    /// that names the file, because silently ignoring it would surprise the operator.
    pub fn load(overrides: &Overrides, env: &dyn Env) -> Result<Self, ConfigError> {
        let mut file = parse_layer(DEFAULTS, Path::new("<built-in defaults>"))?;
        let user_path = overrides.config.clone().or_else(|| {
            let base = env
                .var("XDG_CONFIG_HOME")
                .map(PathBuf::from)
                .or_else(|| home(env).map(|h| h.join(".config")))?;
            Some(base.join("greenroom").join("config.toml"))
        });
        let mut config_path = None;
        if let Some(path) = user_path {
            // Read like every other input (a regular file, bounded, never
            // blocking on a FIFO), except that a link is followed.
            let missing =
                std::fs::metadata(&path).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound);
            if !missing || overrides.config.is_some() {
                let text =
                    read_linked_text_file(&path).map_err(|reason| ConfigError::Unreadable {
                        path: path.clone(),
                        reason,
                    })?;
                file.merge(parse_layer(&text, &path)?);
                config_path = Some(path);
            }
        }
        let config = Self::resolve(file, overrides, env, config_path);
        crate::hosts::check(&config.hosts).map_err(|reason| ConfigError::Invalid {
            path: config
                .config_path
                .clone()
                .unwrap_or_else(|| PathBuf::from("<built-in defaults>")),
            reason,
        })?;
        Ok(config)
    }

    fn resolve(
        file: ConfigFile,
        overrides: &Overrides,
        env: &dyn Env,
        config_path: Option<PathBuf>,
    ) -> Self {
        let nonempty = |v: Option<String>| v.filter(|s| !s.trim().is_empty());
        let overrides = &overrides.absolute();
        let sidecar_dir = overrides
            .sidecar_dir
            .clone()
            .or_else(|| nonempty(file.sidecar_dir).map(|s| expand_home(&s, env)))
            .unwrap_or_else(|| default_sidecar_dir(env));
        let mut state_dirs: Vec<PathBuf> = file
            .state_dirs
            .unwrap_or_default()
            .iter()
            .map(|p| expand_home(&p.to_string_lossy(), env))
            .collect();
        state_dirs.extend(overrides.state_dirs.iter().cloned());
        state_dirs.extend(maestro_workspace(env));
        let maestro_state_dir = env
            .var("MAESTRO_STATE_DIR")
            .or_else(|| nonempty(file.maestro_state_dir))
            .unwrap_or_else(|| maestro::DEFAULT_STATE_DIR.to_owned());
        let (maestro_hooks_dir, maestro_hooks_legacy) =
            maestro_hooks(nonempty(file.maestro_hooks_dir), env);
        let ao_dir = overrides
            .ao_dir
            .clone()
            .or_else(|| nonempty(file.ao_dir).map(|s| expand_home(&s, env)))
            .or_else(|| crate::sources::ao::default_root(env));
        let claude_dir = overrides
            .claude_dir
            .clone()
            .or_else(|| nonempty(file.claude_dir).map(|s| expand_home(&s, env)))
            .or_else(|| env.var("CLAUDE_CONFIG_DIR").map(PathBuf::from))
            .or_else(|| home(env).map(|h| h.join(".claude")));
        let codex_dir = codex_home(env);
        let opencode_db = opencode_db(env);
        let tmux_socket = tmux_socket(overrides.tmux_socket.clone().or(file.tmux_socket), env);
        let secs = |v: Option<u64>, d: Duration| v.map(Duration::from_secs).unwrap_or(d);
        let defaults = Thresholds::default();
        Self {
            sidecar_dir,
            state_dirs,
            maestro_state_dir,
            maestro_hooks_dir,
            maestro_hooks_legacy,
            ao_dir,
            claude_dir,
            codex_dir,
            opencode_db,
            tmux_socket,
            thresholds: Thresholds {
                report_ttl: secs(file.report_ttl_seconds, defaults.report_ttl),
                active_window: secs(file.active_window_seconds, defaults.active_window),
                stuck_after: secs(file.stuck_after_seconds, defaults.stuck_after),
                ready_is_attention: file
                    .ready_is_attention
                    .unwrap_or(defaults.ready_is_attention),
            },
            poll_interval: Duration::from_millis(file.poll_interval_ms.unwrap_or(1000).max(50)),
            alerts: file.alerts.unwrap_or(true),
            notify: Notify::from_file(file.notify),
            sidebar_cost: file.sidebar_cost.unwrap_or(true),
            snooze: Duration::from_secs(file.snooze_minutes.unwrap_or(30).clamp(1, 24 * 60) * 60),
            pin_attention: file.pin_attention.unwrap_or(true),
            tmux_events: file.tmux_events.map(Into::into).unwrap_or_default(),
            keys: file.keys.unwrap_or_default(),
            name_prefix: nonempty(file.name_prefix).unwrap_or_else(|| "agent".into()),
            agents: file.agents.unwrap_or_default(),
            prices: crate::sources::prices::Prices::with_overrides(
                &file.prices.unwrap_or_default(),
            ),
            budget: file.budget.map(|b| b.resolve()).unwrap_or_default(),
            config_path,
            environ: Environ::kept_from(env),
            popup_client: None,
            hosts: file.hosts.unwrap_or_default(),
        }
    }
}
