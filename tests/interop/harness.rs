//! What every agent's harness shares: a private world in a temp folder
//! (`home/` is HOME, `work/` the agent's folder, greenroom's config,
//! sidecars and log beside them), a private tmux server, greenroom run on
//! both, the agent's launcher scripts, and the waits: on greenroom's rows,
//! on a question to go from a pane. Each agent's harness
//! (`claude/harness.rs`, `codex/harness.rs`, `opencode/harness.rs`,
//! `gemini/cli.rs`) adds its own home's files on top.
#![allow(dead_code)] // each harness uses only part of it

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::it_support::{Pane, TmuxServer, wait_for};
use crate::standin::{StandIn, Wire};
use crate::support::npm;

/// A private world: the temp folder and tmux server one test's agent and
/// greenroom share.
pub struct Private {
    pub dir: tempfile::TempDir,
    pub tmux: TmuxServer,
    /// What greenroom's environment holds beside HOME (the agent's own
    /// folders, a PATH with its launcher).
    env: Vec<(&'static str, OsString)>,
}

impl Private {
    /// The folders, with `work/` and an empty `config.toml`.
    pub fn new() -> Self {
        let p = Private {
            dir: tempfile::tempdir().unwrap(),
            tmux: TmuxServer::new(),
            env: Vec::new(),
        };
        std::fs::create_dir_all(p.work()).unwrap();
        std::fs::write(p.config(), "").unwrap();
        p
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    pub fn work(&self) -> PathBuf {
        self.dir.path().join("work")
    }

    pub fn sidecars(&self) -> PathBuf {
        self.dir.path().join("sessions")
    }

    /// greenroom's `config.toml`.
    pub fn config(&self) -> PathBuf {
        self.dir.path().join("config.toml")
    }

    /// Sets `key` in greenroom's environment (and so in the tmux server
    /// greenroom starts).
    pub fn set_env(&mut self, key: &'static str, value: impl Into<OsString>) {
        self.env.push((key, value.into()));
    }

    /// greenroom on this private world.
    pub fn greenroom(&self) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_greenroom"));
        c.env("HOME", self.home())
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .env("GREENROOM_LOG", self.dir.path().join("greenroom.log"))
            .arg("--config")
            .arg(self.config())
            .arg("--sidecar-dir")
            .arg(self.sidecars())
            .arg("--claude-dir")
            .arg(self.home().join(".claude"))
            .arg("--ao-dir")
            .arg(self.dir.path().join("ao"))
            .args(["--tmux-socket", &self.tmux.name]);
        c
    }

    /// Runs greenroom and expects success; its stdout.
    pub fn run(&self, args: &[&str]) -> String {
        let out = self.greenroom().args(args).output().unwrap();
        assert!(
            out.status.success(),
            "greenroom {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// `greenroom spawn -n <session> --cwd <work> <args>`; the session's
    /// pane.
    pub fn spawn(&self, session: &str, args: &[&str]) -> Pane<'_> {
        let work = self.work();
        let mut spawn = vec!["spawn", "-n", session, "--cwd", work.to_str().unwrap()];
        spawn.extend_from_slice(args);
        self.run(&spawn);
        Pane::new(&self.tmux, &format!("gr-{session}"))
    }

    /// Every row of `greenroom ls --json --all`.
    pub fn rows(&self) -> Vec<Value> {
        let out = self.run(&["ls", "--json", "--all"]);
        let v: Value = serde_json::from_str(&out).unwrap();
        v["sessions"].as_array().unwrap().clone()
    }

    /// Waits up to `secs` until the row named `name` satisfies `check`; on
    /// timeout shows the rows and `pane`.
    pub fn until_named(
        &self,
        pane: &Pane<'_>,
        name: &str,
        secs: u64,
        what: &str,
        check: impl Fn(&Value) -> bool,
    ) -> Value {
        until_row(
            secs,
            what,
            || {
                self.rows()
                    .into_iter()
                    .find(|r| r["name"] == name && check(r))
            },
            || format!("rows: {:#?}\npane:\n{}", self.rows(), pane.text()),
        )
    }

    /// greenroom's dashboard on this world, in session `dash` of its tmux
    /// server.
    pub fn dashboard(&self) -> Pane<'_> {
        let line = format!(
            "exec {bin} --config {config} --sidecar-dir {sidecars} --ao-dir {dir}/ao \
             --claude-dir {home}/.claude --tmux-socket {sock}",
            bin = env!("CARGO_BIN_EXE_greenroom"),
            config = self.config().display(),
            sidecars = self.sidecars().display(),
            dir = self.dir.path().display(),
            home = self.home().display(),
            sock = self.tmux.name,
        );
        dashboard(&self.tmux, &self.home(), &line)
    }

    /// Writes the executable script `rel` (e.g. `bin/codex`, the agent's
    /// launcher); its path.
    pub fn script(&self, rel: &str, text: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = self.dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }
}

/// The dashboard, the shell line `line` with HOME `home`, in a 160x40
/// session `dash` of `tmux`.
pub fn dashboard<'a>(tmux: &'a TmuxServer, home: &Path, line: &str) -> Pane<'a> {
    let home = format!("HOME={}", home.display());
    let mut args = vec!["new-session", "-d", "-s", "dash", "-x", "160", "-y", "40"];
    args.extend(["-e", &home, line]);
    tmux.run(&args);
    Pane::new(tmux, "dash")
}

/// Polls `row` until it gives a row, up to `secs`; on timeout fails with
/// `show()` (the rows and the screen as they are then).
pub fn until_row(
    secs: u64,
    what: &str,
    row: impl Fn() -> Option<Value>,
    show: impl Fn() -> String,
) -> Value {
    let found =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| wait_for(secs, what, &row)));
    found.unwrap_or_else(|_| panic!("timed out waiting for {what}\n{}", show()))
}

/// Types a prompt into the agent's pane and submits it, as a person would.
pub fn prompt(pane: &Pane<'_>, text: &str) {
    pane.keys(&["-l", text]);
    pane.until(10, "the prompt typed", |s| s.contains(text));
    pane.keys(&["Enter"]);
}

/// Holds the test until the stand-in has answered `n` turns and the
/// agent has drawn the last answer's `text`; `secs` for each of the two.
pub fn until_answered<W: Wire>(
    api: &StandIn<W>,
    pane: &Pane<'_>,
    n: usize,
    text: &str,
    secs: [u64; 2],
) {
    wait_for(secs[0], "the stand-in's turns", || {
        (api.turns() >= n).then_some(())
    });
    pane.until(secs[1], "the answer on screen", |s| s.contains(text));
}

/// Answers a question on `pane` with `press` until `shown` (the
/// question's text) leaves the screen, up to `secs`: a key that lands
/// while the question is still being drawn is lost, so it is pressed
/// again, after `settle` for the pane to take the last one (a second key
/// that lands would go on to what comes next).
pub fn press_until_gone(
    pane: &Pane<'_>,
    secs: u64,
    shown: &str,
    settle: Duration,
    press: impl Fn(),
) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while pane.text().contains(shown) {
        assert!(
            Instant::now() < deadline,
            "{shown:?} stayed on the screen:\n{}",
            pane.text()
        );
        press();
        let pressed = Instant::now();
        while pressed.elapsed() < settle && pane.text().contains(shown) {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// A file of JSON values one a line (a transcript, a rollout, captured
/// hook payloads); a missing file or a line that is not JSON reads as
/// nothing.
pub fn json_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// `target/interop-captures/<rel>`, made: where a test keeps what the
/// real agent wrote (the source of tests/fixtures/real).
pub fn captures(rel: &str) -> PathBuf {
    let out = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/target/interop-captures"
    ))
    .join(rel);
    std::fs::create_dir_all(&out).unwrap();
    out
}

/// The file `rel` of the npm package set `set`, which must be there.
pub fn npm_file(set: &str, rel: &str) -> PathBuf {
    let file = npm(set).join(rel);
    assert!(file.is_file(), "{}: missing", file.display());
    file
}
