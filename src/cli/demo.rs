//! `greenroom demo`: the dashboard on eight simulated agents, so a newcomer
//! sees greenroom alive in one command, with no agent installed and no
//! network.
//!
//! Everything the demo makes lives in one new temporary folder (the agents'
//! workspaces, greenroom's session records, Maestro hook state, transcripts,
//! the log) and one private tmux server started with `-f /dev/null` on a
//! socket of its own. The operator's settings, sessions, tmux server and log
//! are neither read nor written.
//!
//! Cleaning up has two layers. When the dashboard returns (`q`, Ctrl-C,
//! SIGTERM, SIGHUP, an error) or panics, a guard kills the demo's tmux
//! server and removes the folder. Should greenroom die without unwinding
//! (SIGKILL, an abort), a watchdog in the demo's tmux server notices within
//! a second and does the same.
//!
//! The agents are this binary's hidden `greenroom demo-agent <role>`
//! (`demo/agent.rs`): each plays its role's table of steps, prints work,
//! and writes Maestro state, Claude transcript records and hook reports
//! through greenroom's own writers and `greenroom report`'s code.

pub mod agent;
mod agents;

use std::io::Write;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use agents::{AGENTS, start_agent, start_server};
use clap::Args;
use color_eyre::eyre::{Result, WrapErr, eyre};

use crate::config::{Config, Overrides};
use crate::environ::Environ;
use crate::model::AgentPreset;
use crate::sources::maestro;
use crate::tmux::{ServerState, Tmux, TmuxError, shell_quote};

/// A session with no sign of life for this long is stuck. The default is
/// ten minutes; the demo's silent agent should turn stuck within seconds.
const STUCK_AFTER_SECONDS: u64 = 8;
/// Agents' reports win over tmux inference this long. Longer than the
/// default (five minutes) so the states the agents report hold while the
/// operator looks around.
const REPORT_TTL_SECONDS: u64 = 3600;

/// The session that keeps the demo's tmux server up and watches greenroom;
/// not an agent, and not shown in the dashboard.
const WATCHDOG: &str = "greenroom-demo";

/// The settings the demo runs with, written into its folder for the curious.
const DEMO_CONFIG: &str = "\
# greenroom demo settings. This folder is removed when the demo ends.
# A session with no sign of life for 8 s counts as stuck (default: 600 s),
# so the demo's silent agent turns stuck within seconds.
stuck_after_seconds = 8
# Agents' own reports hold for an hour (default: 300 s).
report_ttl_seconds = 3600
# No bell or desktop notifications for simulated agents.
alerts = false
";

#[derive(Debug, Clone, Default, Args)]
pub struct DemoArgs {
    /// For tests: the demo's folder, which must not exist yet; the demo's
    /// tmux socket is named after it (characters other than letters, digits,
    /// '.', '_' and '-' become '-').
    #[arg(long, env = "GREENROOM_DEMO_ROOT", value_name = "DIR", hide = true)]
    pub root: Option<PathBuf>,
}

/// The demo's folder and tmux server.
struct Place {
    root: PathBuf,
    socket: String,
}

impl Place {
    fn tmux(&self) -> Tmux {
        Tmux::new(crate::tmux::TmuxSocket::Name(self.socket.clone()))
    }

    /// Kills the demo's tmux server (and with it every agent), then removes
    /// the folder. An agent that was mid-write when the server went may
    /// still create a file, so removal is retried until the folder stays
    /// gone.
    fn cleanup(&self) {
        self.tmux().kill_server();
        let deadline = Instant::now() + Duration::from_secs(3);
        loop {
            let _ = std::fs::remove_dir_all(&self.root);
            std::thread::sleep(Duration::from_millis(50));
            if !self.root.exists() || Instant::now() > deadline {
                break;
            }
        }
    }

    /// The watchdog session's script. While greenroom runs it sleeps; once
    /// greenroom is gone (even killed outright) it stops this tmux server
    /// (by pid, from $TMUX, never another server of the same name) and
    /// removes the folder, unless greenroom already did. It ignores SIGHUP
    /// so stopping the server does not stop it before the folder is gone.
    fn watchdog_script(&self) -> String {
        format!(
            "trap '' HUP; socket=${{TMUX%%,*}}; server=${{TMUX#*,}}; server=${{server%%,*}}; \
             echo 'This session keeps the greenroom demo tmux server up; the agents run in the gr-* sessions.'; \
             echo 'When greenroom (pid {pid}) stops, it removes the demo.'; \
             while kill -0 {pid} 2>/dev/null; do sleep 1; done; \
             [ -S \"$socket\" ] && kill -0 \"$server\" 2>/dev/null && kill \"$server\"; sleep 1; \
             rm -f \"$socket\"; \
             if [ -d {root} ]; then rm -rf {root}; fi",
            pid = std::process::id(),
            root = shell_quote(&self.root.to_string_lossy()),
        )
    }
}

/// Cleans up when dropped: after the dashboard returns, on an error, on a panic.
struct Guard<'a>(&'a Place);

impl Drop for Guard<'_> {
    fn drop(&mut self) {
        self.0.cleanup();
    }
}

/// Runs the demo and returns when the operator quits the dashboard.
pub fn run(args: &DemoArgs, environ: &Environ) -> Result<()> {
    super::ensure_terminal("greenroom demo").map_err(|e| eyre!(e))?;
    let probe = Tmux::new(crate::tmux::TmuxSocket::Name("greenroom-demo-probe".into()));
    if probe.poll() == ServerState::NotInstalled {
        return Err(eyre!(
            "greenroom demo needs tmux; install it with your package manager \
             (e.g. `apt install tmux` or `brew install tmux`)"
        ));
    }
    let place = make_place(args.root.as_deref(), environ)?;
    let guard = Guard(&place);
    crate::logging::init(Some(place.root.join("greenroom.log")), environ);
    let config = set_up(&place, environ)?;

    // Writes to the terminal may fail (it may be gone): never a reason to panic.
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{}", banner(&place, environ.inside_tmux()));
    let _ = out.flush();
    let tmux = place.tmux();
    // Newest first in the sidebar: start the last agent first.
    for agent in AGENTS.iter().rev() {
        start_agent(&tmux, &config, &place.root, agent)
            .wrap_err_with(|| format!("cannot start the simulated agent {}", agent.name))?;
    }
    for agent in &AGENTS {
        let _ = writeln!(out, "  {:<9} {}", agent.name, agent.shows);
    }
    let _ = out.flush();
    drop(out);

    let result = crate::tui::launch(config);
    drop(guard);
    let mut out = std::io::stdout().lock();
    let _ = if place.root.exists() {
        writeln!(
            out,
            "greenroom demo: could not remove {}; delete it by hand",
            place.root.display()
        )
    } else {
        writeln!(
            out,
            "\ngreenroom demo ended: stopped its tmux server and removed {}.\n\
             To run greenroom on your own agents, see README.md.",
            place.root.display()
        )
    };
    result
}

fn banner(place: &Place, inside_tmux: bool) -> String {
    let back = if inside_tmux {
        // C-b would reach the operator's own tmux first (see BACK_KEY).
        format!("{} comes back", agents::BACK_KEY)
    } else {
        "C-b d comes back".to_owned()
    };
    format!(
        "greenroom demo: eight simulated agents in a private tmux server.\n\n\
         They are simulated coding agents (no model, no network): they print work,\n\
         write Maestro state and report like real agents' hooks. Within seconds one waits\n\
         for you, one errors, one goes quiet and turns stuck (after {STUCK_AFTER_SECONDS} s here, 10 min\n\
         by default) and one finishes. Try j/k, Tab, / to filter, t for triage order,\n\
         s to answer the waiting one, Enter to attach ({back}), ? for every key,\n\
         q to quit. Nothing of yours is read or changed; the demo's files and tmux\n\
         server go when you quit:\n\
         \x20 folder  {}\n\
         \x20 tmux    tmux -L {}\n",
        place.root.display(),
        place.socket,
    )
}

/// Creates the demo's folder (never an existing one: it is removed at the
/// end) and picks a tmux socket no server answers on.
fn make_place(root: Option<&Path>, environ: &Environ) -> Result<Place> {
    if let Some(root) = root {
        let socket = socket_name(root);
        if server_answers(&socket) {
            return Err(eyre!("a tmux server already runs on the socket {socket}"));
        }
        create_private_dir(root)
            .wrap_err_with(|| format!("cannot create the demo folder {}", root.display()))?;
        return Ok(Place {
            root: canonical(root),
            socket,
        });
    }
    let base = environ
        .os("TMPDIR")
        .map_or_else(|| PathBuf::from("/tmp"), PathBuf::from);
    let pid = std::process::id();
    for n in 0..100u32 {
        let name = match n {
            0 => format!("greenroom-demo-{pid}"),
            n => format!("greenroom-demo-{pid}-{n}"),
        };
        let root = base.join(&name);
        if root.exists() || server_answers(&name) {
            continue;
        }
        match create_private_dir(&root) {
            Ok(()) => {
                return Ok(Place {
                    root: canonical(&root),
                    socket: name,
                });
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                return Err(e)
                    .wrap_err_with(|| format!("cannot create the demo folder {}", root.display()));
            }
        }
    }
    Err(eyre!(
        "cannot find a free demo folder in {}",
        base.display()
    ))
}

/// Absolute and without symlinks (macOS's /var is /private/var), so the
/// paths greenroom records match what the agents see.
fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

fn create_private_dir(path: &Path) -> std::io::Result<()> {
    std::fs::DirBuilder::new().mode(0o700).create(path)
}

/// The tmux socket for a demo folder: its name, made safe.
pub fn socket_name(root: &Path) -> String {
    let name: String = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    if name.is_empty() {
        format!("greenroom-demo-{}", std::process::id())
    } else {
        name
    }
}

fn server_answers(socket: &str) -> bool {
    let tmux = Tmux::new(crate::tmux::TmuxSocket::Name(socket.to_owned()));
    !matches!(
        tmux.run(["list-sessions"]),
        Err(TmuxError::NoServer | TmuxError::NotInstalled)
    )
}

/// Writes the settings, starts the private tmux server, and
/// returns the settings the dashboard runs with.
fn set_up(place: &Place, environ: &Environ) -> Result<Config> {
    let root = &place.root;
    for dir in ["work", "sessions", "maestro-hooks", "transcripts"] {
        create_private_dir(&root.join(dir))
            .wrap_err_with(|| format!("cannot create {}", root.join(dir).display()))?;
    }
    let config_file = root.join("config.toml");
    std::fs::write(&config_file, DEMO_CONFIG)
        .wrap_err_with(|| format!("cannot write {}", config_file.display()))?;

    let overrides = Overrides {
        config: Some(config_file),
        sidecar_dir: Some(root.join("sessions")),
        state_dirs: Vec::new(),
        ao_dir: Some(root.join("agent-orchestrator")),
        claude_dir: Some(root.join("claude")),
        tmux_socket: Some(place.socket.clone()),
    };
    let mut config = Config::load(&overrides, environ).wrap_err("demo settings")?;
    // Environment variables must not point the demo at the operator's files.
    config.maestro_state_dir = maestro::DEFAULT_STATE_DIR.to_owned();
    config.maestro_hooks_dir = root.join("maestro-hooks");
    config.maestro_hooks_legacy = None;
    config.codex_dir = Some(root.join("codex"));
    // The spawn form offers the simulated agent (first) and a shell: the
    // real agents' presets would start programs the demo does not promise.
    config.agents.retain(|name, _| name == "shell");
    config.agents.insert(
        "demo".into(),
        AgentPreset {
            launch: agents::agent_command(environ, root, "general")?,
            resume: None,
            launch_with_prompt: None,
        },
    );
    debug_assert_eq!(config.thresholds.stuck_after.as_secs(), STUCK_AFTER_SECONDS);
    debug_assert_eq!(config.thresholds.report_ttl.as_secs(), REPORT_TTL_SECONDS);

    start_server(place, config.environ.inside_tmux())?;
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn socket_names_are_safe() {
        assert_eq!(
            socket_name(Path::new("/tmp/greenroom-demo-12")),
            "greenroom-demo-12"
        );
        assert_eq!(socket_name(Path::new("/tmp/a b:c")), "a-b-c");
    }

    #[test]
    fn every_agent_has_a_role_to_play() {
        let roles: Vec<&str> = agent::role_names().collect();
        for a in &AGENTS {
            assert!(roles.contains(&a.role), "{}", a.role);
        }
    }

    #[test]
    fn the_settings_parse_with_the_thresholds_the_banner_names() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("config.toml");
        std::fs::write(&file, DEMO_CONFIG).unwrap();
        let config = Config::load(
            &Overrides {
                config: Some(file),
                ..Overrides::default()
            },
            &Environ::default(),
        )
        .unwrap();
        assert_eq!(config.thresholds.stuck_after.as_secs(), STUCK_AFTER_SECONDS);
        assert_eq!(config.thresholds.report_ttl.as_secs(), REPORT_TTL_SECONDS);
        assert!(!config.alerts);
    }
}
