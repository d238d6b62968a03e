//! Shared test fixtures: a private tmux server, temp folders with a config,
//! and waiting with a deadline (never a fixed sleep).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use greenroom::config::{Config, Environ, Overrides};
use greenroom::sources::sidecar::{Sidecar, SidecarStore};

pub mod actions;
mod dashboard;
pub mod git;
pub mod live;

/// An op on this machine's rows `ids`, as the reducer decides it.
pub fn here(op: greenroom::tui::reduce::op::Verb, ids: &[&str]) -> greenroom::tui::action::Effect {
    greenroom::tui::action::Effect::Op(greenroom::tui::reduce::op::Op {
        op,
        on: greenroom::tui::reduce::op::On::Here(ids.iter().map(|i| (*i).to_owned()).collect()),
    })
}
pub mod session;
pub mod sshd;

static SERVERS: AtomicUsize = AtomicUsize::new(0);

/// A tmux server on a private socket, never the user's default; killed on drop.
pub struct TmuxServer {
    pub name: String,
}

impl TmuxServer {
    pub fn new() -> Self {
        let n = SERVERS.fetch_add(1, Ordering::SeqCst);
        let name = format!("greenroom-test-{}-{n}", std::process::id());
        TmuxServer { name }
    }

    pub fn cmd(&self) -> Command {
        let mut c = Command::new("tmux");
        c.args(["-L", &self.name, "-f", "/dev/null"]);
        c
    }

    /// Runs tmux and returns stdout; panics with stderr on failure.
    pub fn run(&self, args: &[&str]) -> String {
        let out = self.cmd().args(args).output().expect("tmux runs");
        assert!(
            out.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// A detached session running `command` (argv, no shell).
    pub fn spawn(&self, name: &str, command: &[&str]) {
        let mut args = vec!["new-session", "-d", "-s", name, "-x", "80", "-y", "24"];
        args.extend_from_slice(command);
        self.run(&args);
    }

    /// Stops the server and removes the socket file tmux leaves behind.
    pub fn kill(&self) {
        let socket = self
            .cmd()
            .args(["display-message", "-p", "#{socket_path}"])
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
            .filter(|s| s.starts_with('/'));
        let _ = self.cmd().arg("kill-server").output();
        if let Some(s) = socket {
            let _ = std::fs::remove_file(s);
        }
    }
}

impl Drop for TmuxServer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Polls `check` until it returns Some, or panics after `secs` seconds.
pub fn wait_for<T>(secs: u64, what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(v) = check() {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Temp folders laid out like a user's machine, and a config pointing at them.
pub struct World {
    pub dir: tempfile::TempDir,
}

impl World {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("config.toml"), "").unwrap();
        World { dir }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// `greenroom ls --json` on this world's folders, no tmux server
    /// there: the document.
    pub fn ls_json(&self) -> serde_json::Value {
        let out = Command::new(env!("CARGO_BIN_EXE_greenroom"))
            .args(["ls", "--json", "--config"])
            .arg(self.path("config.toml"))
            .arg("--sidecar-dir")
            .arg(self.path("sessions"))
            .arg("--claude-dir")
            .arg(self.path("claude"))
            .arg("--ao-dir")
            .arg(self.path("ao"))
            .args(["--tmux-socket", "greenroom-test-none"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }

    /// A running session `name` in this world's sidecar folder, its tmux
    /// session `gr-NAME` (`sleep 600` in the folder `work`) on `tmux`.
    pub fn running(&self, tmux: &TmuxServer, name: &str) -> Sidecar {
        let store = SidecarStore::new(self.path("sessions"));
        let cwd = self.path("work");
        std::fs::create_dir_all(&cwd).unwrap();
        let mut s = Sidecar::new(name, &cwd, "sleep 600", chrono::Utc::now());
        s.tmux_session = Some(format!("gr-{name}"));
        store.create(&s).unwrap();
        tmux.spawn(&format!("gr-{name}"), &["sleep", "600"]);
        s
    }

    pub fn config(&self, tmux: Option<&TmuxServer>, state_dirs: &[&Path]) -> Config {
        let overrides = Overrides {
            config: Some(self.path("config.toml")),
            sidecar_dir: Some(self.path("sessions")),
            state_dirs: state_dirs.iter().map(|p| p.to_path_buf()).collect(),
            ao_dir: Some(self.path("ao")),
            claude_dir: Some(self.path("claude")),
            tmux_socket: Some(
                tmux.map(|t| t.name.clone())
                    .unwrap_or_else(|| format!("greenroom-test-none-{}", std::process::id())),
            ),
        };
        let mut config = Config::load(&overrides, &Environ::from_process()).unwrap();
        config.maestro_hooks_dir = self.path("maestro-hooks");
        config.maestro_hooks_legacy = None;
        config
    }
}

/// A pane read back with `capture-pane` and driven with `send-keys`, as a
/// person would see and type.
pub struct Pane<'a> {
    pub tmux: &'a TmuxServer,
    /// An exact window target, e.g. `=dash:`.
    pub target: String,
}

impl<'a> Pane<'a> {
    pub fn new(tmux: &'a TmuxServer, session: &str) -> Self {
        Pane {
            tmux,
            target: format!("={session}:"),
        }
    }

    pub fn text(&self) -> String {
        self.tmux.run(&["capture-pane", "-p", "-t", &self.target])
    }

    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", self.target.as_str()];
        args.extend_from_slice(keys);
        self.tmux.run(&args);
    }

    /// Waits up to `secs` until the screen satisfies `check`; on timeout
    /// fails showing the screen.
    pub fn until(&self, secs: u64, what: &str, check: impl Fn(&str) -> bool) -> String {
        let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            wait_for(secs, what, || {
                let s = self.text();
                check(&s).then_some(s)
            })
        }));
        found.unwrap_or_else(|_| {
            panic!("timed out waiting for {what}; the screen:\n{}", self.text())
        })
    }
}

impl World {
    /// The shell line that runs the built binary on this world's folders
    /// and the given tmux server.
    pub fn greenroom_line(&self, tmux_socket: &str) -> String {
        format!(
            "exec {bin} --config {c} --sidecar-dir {s} --ao-dir {a} --claude-dir {cl} --tmux-socket {t}",
            bin = env!("CARGO_BIN_EXE_greenroom"),
            c = self.path("config.toml").display(),
            s = self.path("sessions").display(),
            a = self.path("ao").display(),
            cl = self.path("claude").display(),
            t = tmux_socket,
        )
    }
}

/// A key pressed in the dashboard: read through the default keymap in the
/// state's mode, as the terminal's key would be, then reduced.
pub fn key_in(
    state: &mut greenroom::tui::model::state::AppState,
    code: crossterm::event::KeyCode,
) -> Vec<greenroom::tui::action::Effect> {
    let event = crossterm::event::KeyEvent::new(code, crossterm::event::KeyModifiers::NONE);
    let keymap = greenroom::tui::keymap::Keymap::default();
    match greenroom::tui::shell::input::key_action(&event, &state.mode, &keymap) {
        Some(action) => greenroom::tui::reduce::update::update(state, action),
        None => Vec::new(),
    }
}
