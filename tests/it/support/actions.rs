//! Helpers for the action tests (ops and CLI): rows as the CLI sees them,
//! git repositories, stub programs, the greenroom binary on a private tmux
//! server, and reading back what reached a pane.
//!
//! Included with `#[path = "support/actions.rs"] mod actions_support;`
//! next to `mod support;`.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use greenroom::catalog::Catalog;
use greenroom::config::Config;
use greenroom::model::Session;
use greenroom::tmux::Tmux;

use super::{TmuxServer, World, wait_for};

/// The rows with one tmux poll, as the CLI resolves IDs against them.
pub fn rows(config: &Config) -> Vec<Session> {
    let mut catalog = Catalog::load(config, false);
    catalog.set_tmux(Tmux::new(config.tmux_socket.clone()).poll());
    catalog.rows(chrono::Utc::now())
}

pub fn row<'a>(rows: &'a [Session], name: &str) -> &'a Session {
    rows.iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("no row {name}"))
}

/// A private server kept alive by a session of its own (started with
/// `-f /dev/null`, so no user config applies).
pub fn server() -> TmuxServer {
    let tmux = TmuxServer::new();
    tmux.spawn("keep", &["sleep", "600"]);
    tmux
}

pub fn has_session(tmux: &TmuxServer, name: &str) -> bool {
    tmux.cmd()
        .args(["has-session", "-t", &format!("={name}")])
        .stderr(Stdio::null())
        .status()
        .unwrap()
        .success()
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.email=t@t", "-c", "user.name=t"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// A git repository with one commit at `dir`.
pub fn git_repo(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    git(dir, &["init", "-q"]);
    git(dir, &["commit", "-q", "--allow-empty", "-m", "init"]);
    dir.to_path_buf()
}

pub fn branch_exists(repo: &Path, branch: &str) -> bool {
    !git(repo, &["branch", "--list", branch]).is_empty()
}

/// Sends one hook report (`greenroom report ARGS`, `payload` on its
/// stdin) for greenroom's own session `id`, as its agent's hook does.
pub fn hook_report(world: &World, id: &str, args: &[&str], payload: &[u8]) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_greenroom"))
        .arg("report")
        .args(args)
        .env_clear()
        .env("GREENROOM_SESSION_ID", id)
        .env("GREENROOM_SIDECAR_DIR", world.path("sessions"))
        .env("GREENROOM_LOG", world.path("greenroom.log"))
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(payload).unwrap();
    assert!(child.wait().unwrap().success());
}

/// An executable shell script `dir/name`.
pub fn stub(dir: &Path, name: &str, body: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

pub fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A command that writes its folder to `out`, then stays.
pub fn pwd_to(out: &Path) -> String {
    format!(
        "pwd > {}; exec sleep 600",
        greenroom::ops::shell_quote(path_str(out))
    )
}

/// The folder the session's pane runs in, as tmux says.
pub fn pane_path(tmux: &TmuxServer, session: &str) -> String {
    tmux.run(&[
        "display-message",
        "-p",
        "-t",
        &format!("={session}:"),
        "#{pane_current_path}",
    ])
    .trim_end()
    .to_owned()
}

/// Waits until `path` holds at least as many bytes as `expected`, then
/// compares exactly.
pub fn assert_contents(path: &Path, expected: &str) {
    let got = wait_for(10, &format!("{} to fill", path.display()), || {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        (text.len() >= expected.len()).then_some(text)
    });
    assert_eq!(got, expected, "{}", path.display());
}

/// A shell command that copies the pane's input to `file`, literally.
pub fn cat_to(file: &Path) -> String {
    format!(
        "cat > {}",
        greenroom::ops::shell_quote(&file.to_string_lossy())
    )
}

/// The sidecar files (not lock or temp files) in the live folder.
pub fn sidecar_files(world: &World) -> Vec<PathBuf> {
    match std::fs::read_dir(world.path("sessions")) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                let name = p.file_name().unwrap().to_string_lossy();
                p.is_file() && name.ends_with(".json") && !name.starts_with('.')
            })
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// The greenroom binary on the world's folders and the private server.
pub struct Greenroom<'a> {
    pub world: &'a World,
    pub socket: String,
    pub path: Option<String>,
}

impl<'a> Greenroom<'a> {
    pub fn new(world: &'a World, tmux: &TmuxServer) -> Self {
        Greenroom {
            world,
            socket: tmux.name.clone(),
            path: None,
        }
    }

    /// The command line, as a Command with stdin closed (no terminal).
    pub fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_greenroom"));
        // Global flags first: anything after the subcommand's `--` is its command.
        cmd.arg("--config")
            .arg(self.world.path("config.toml"))
            .arg("--sidecar-dir")
            .arg(self.world.path("sessions"))
            .arg("--ao-dir")
            .arg(self.world.path("ao"))
            .arg("--claude-dir")
            .arg(self.world.path("claude"))
            .arg("--tmux-socket")
            .arg(&self.socket)
            .args(args)
            .env_remove("GREENROOM_STATE_DIRS")
            .env_remove("MAESTRO_STATE_DIR")
            .env_remove("TMUX")
            .env("HOME", self.world.dir.path())
            .env("MAESTRO_HOOKS_DIR", self.world.path("maestro-hooks"))
            .stdin(Stdio::null());
        if let Some(path) = &self.path {
            cmd.env("PATH", path);
        }
        cmd
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    /// Runs and expects success; returns stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "greenroom {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Spawns a session running `sleep 600` in `cwd`.
    pub fn sleeper(&self, name: &str, cwd: &Path) {
        let cwd = cwd.to_str().unwrap();
        self.ok(&["spawn", "-n", name, "--cwd", cwd, "--", "sleep 600"]);
    }

    /// A crashed session: spawns `name` running `exit 3` in `cwd` and waits
    /// until `ls --json` reads it as exited (its dead pane kept).
    pub fn crashed(&self, name: &str, cwd: &Path) {
        let cwd = cwd.to_str().unwrap();
        self.ok(&["spawn", "-n", name, "--cwd", cwd, "--", "exit 3"]);
        wait_for(15, "the crash to read as exited", || {
            self.ls_row(name).filter(|r| r["status"] == "Exited")
        });
    }

    /// Runs greenroom in a new session `host` of another server, so it has
    /// a terminal (the pane) and is outside the server it acts on. Its exit
    /// code is written to `done` when it ends.
    pub fn in_pane(&self, outer: &TmuxServer, host: &str, args: &[&str], done: &Path) {
        outer.spawn(host, &["sh", "-c", &self.pane_script(args, done, "")]);
    }

    /// A shell line that runs greenroom with this world's environment
    /// (variables it removes stay as the pane has them), writes its exit
    /// code to `done`, then runs `then` (e.g. `; exec sleep 600` to keep
    /// the pane).
    pub fn pane_script(&self, args: &[&str], done: &Path, then: &str) -> String {
        let q = |s: &std::ffi::OsStr| greenroom::ops::shell_quote(s.to_str().unwrap());
        let cmd = self.command(args);
        let envs: Vec<String> = cmd
            .get_envs()
            .filter_map(|(k, v)| Some(format!("{}={}", k.to_str()?, q(v?))))
            .collect();
        let argv: Vec<String> = std::iter::once(cmd.get_program())
            .chain(cmd.get_args())
            .map(q)
            .collect();
        format!(
            "env {} {}; echo $? > {}{then}",
            envs.join(" "),
            argv.join(" "),
            q(done.as_os_str())
        )
    }

    /// The `ls --json` row named `name`, if any.
    pub fn ls_row(&self, name: &str) -> Option<serde_json::Value> {
        let json: serde_json::Value = serde_json::from_str(&self.ok(&["ls", "--json"])).unwrap();
        json["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .cloned()
    }

    /// The `ls --json` row named `name`; a test without it fails.
    pub fn row(&self, name: &str) -> serde_json::Value {
        self.ls_row(name)
            .unwrap_or_else(|| panic!("no row {name}: {}", self.ok(&["ls", "--json"])))
    }

    /// Runs and expects exit code 1 with one `greenroom: ` line; returns it.
    pub fn refused(&self, args: &[&str]) -> String {
        let out = self.run(args);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(1), "greenroom {args:?}: {stderr}");
        assert!(stderr.starts_with("greenroom: "), "{stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        stderr
    }
}
