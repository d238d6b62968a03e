//! greenroom's side of an interop test: the live catalog with the real
//! watcher (what the dashboard draws from), and `ls --json` of the built
//! binary, both on one World.

use std::path::PathBuf;
use std::process::Command;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use chrono::Utc;
use greenroom::config::Config;
use greenroom::engine::{Change, Engine};
use serde_json::Value;

use crate::it_support::{TmuxServer, World};

/// The live catalog, fed by the real watcher, as the dashboard runs it.
pub struct Live {
    pub engine: Engine,
    rx: Receiver<Change>,
}

impl Live {
    pub fn start(config: &Config) -> Self {
        let (tx, rx) = channel();
        let mut engine = Engine::load(config, false, move |p| {
            let _ = tx.send(p);
        })
        .unwrap();
        engine.poll_tmux();
        engine.watch();
        Live { engine, rx }
    }

    /// The rows as `ls --json` would print them.
    pub fn json(&self) -> Value {
        let rows = self.engine.rows(Utc::now());
        let text = greenroom::cli::ls::to_json(&rows, &self.engine.problems()).unwrap();
        serde_json::from_str(&text).unwrap()
    }

    /// Feeds file events (and tmux polls) to the engine until `check`
    /// holds; fails after `secs` showing the rows.
    pub fn until(&mut self, secs: u64, what: &str, check: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let doc = self.json();
            if check(&doc) {
                return doc;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(
                !left.is_zero(),
                "timed out waiting for {what}; the live catalog: {doc:#}"
            );
            if let Ok(first) = self.rx.recv_timeout(left.min(Duration::from_millis(100))) {
                let mut batch = vec![first];
                batch.extend(self.rx.try_iter());
                self.engine.apply_changes(batch);
            } else {
                self.engine.poll_tmux();
            }
        }
    }
}

/// `greenroom ls --json` (with `--all` when asked) of the built binary on
/// this world's folders, workspaces given with `--state-dir`.
pub fn ls_json(world: &World, tmux: &TmuxServer, all: bool, state_dirs: &[PathBuf]) -> Value {
    let mut cmd = greenroom_cmd(world, tmux);
    cmd.env("MAESTRO_HOOKS_DIR", world.path("maestro-hooks"));
    ls(cmd, all, state_dirs)
}

/// `ls --json` with the hooks folder left to greenroom's defaults.
pub fn ls_json_default_hooks(world: &World, tmux: &TmuxServer) -> Value {
    let mut cmd = greenroom_cmd(world, tmux);
    cmd.env_remove("MAESTRO_HOOKS_DIR");
    ls(cmd, false, &[])
}

fn greenroom_cmd(world: &World, tmux: &TmuxServer) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_greenroom"));
    cmd.arg("--config")
        .arg(world.path("config.toml"))
        .arg("--sidecar-dir")
        .arg(world.path("sessions"))
        .arg("--ao-dir")
        .arg(world.path("ao"))
        .arg("--claude-dir")
        .arg(world.path("claude"))
        .args(["--tmux-socket", &tmux.name])
        .env_remove("MAESTRO_WORKSPACE_PATH")
        .env_remove("MAESTRO_STATE_DIR");
    cmd
}

fn ls(mut cmd: Command, all: bool, state_dirs: &[PathBuf]) -> Value {
    for dir in state_dirs {
        cmd.arg("--state-dir").arg(dir);
    }
    cmd.arg("ls").arg("--json");
    if all {
        cmd.arg("--all");
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "greenroom ls: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The sessions of an `ls --json` document.
pub fn sessions(doc: &Value) -> &Vec<Value> {
    doc["sessions"].as_array().unwrap()
}

/// The one session named `name`; fails showing the document otherwise.
pub fn named<'a>(doc: &'a Value, name: &str) -> &'a Value {
    let found: Vec<&Value> = sessions(doc).iter().filter(|s| s["name"] == name).collect();
    assert_eq!(found.len(), 1, "one session named {name}: {doc:#}");
    found[0]
}
