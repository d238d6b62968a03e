//! The one place greenroom runs git. Every call passes argv (never a
//! shell), runs within a time bound, reads at most a bounded amount of
//! output, never prompts (`GIT_TERMINAL_PROMPT=0`), never takes optional
//! locks (`GIT_OPTIONAL_LOCKS=0`: a status must not rewrite `.git/index`,
//! which greenroom watches), and ignores the operator's pager and colour
//! settings unless a caller asks for colour, and starts no program that a
//! work tree or its git folder names (`guard.rs`: every call's argv and
//! environment are built in [`Git::command`]).
//!
//! What git prints is untrusted input: it is parsed with limits
//! (`status.rs`, `numstat.rs`), and paths that are not UTF-8 are shown
//! lossily, never used to build a command.

use std::ffi::{OsStr, OsString};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod diff;
mod guard;
mod monitor;
mod numstat;
mod pr;
mod repo;
mod status;
pub mod worktree;

pub use diff::{DiffText, MAX_DIFF_BYTES, file_diff};
pub use monitor::Monitor;
pub use pr::{PrCache, gh_pr};
pub use repo::{Repo, discover};
pub use status::{MAX_FILES, read_changes};

/// How long a read (status, diff) may take before it is given up.
pub const READ_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a change to the repository (worktree add/remove) may take.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// At most this much of git's output is read; the rest is drained unread.
pub const MAX_OUTPUT: usize = 16 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GitError {
    #[error("git is not installed")]
    NotInstalled,
    #[error("git {command} did not answer within {secs} s")]
    TimedOut { command: String, secs: u64 },
    #[error("git {command} failed: {message}")]
    Failed { command: String, message: String },
    #[error("cannot run git: {0}")]
    Io(String),
}

/// What one git call gave back.
#[derive(Debug, Clone, Default)]
pub struct GitOutput {
    pub stdout: Vec<u8>,
    /// The output went past the bound and was cut there.
    pub truncated: bool,
}

/// A handle on the git program (tests and benchmarks pass one that counts
/// its starts).
#[derive(Debug, Clone)]
pub struct Git {
    program: PathBuf,
}

impl Default for Git {
    fn default() -> Self {
        Self::new()
    }
}

impl Git {
    pub fn new() -> Self {
        Self::with_program("git")
    }

    pub fn with_program(program: impl Into<PathBuf>) -> Self {
        Self {
            program: program.into(),
        }
    }

    /// A git command in `dir` with no surprises from the environment. The
    /// one place argv is built: whatever git is asked, it gets `guard.rs`'s
    /// overrides and attribute source before the command and reads the
    /// repository through `view` (see `guard.rs` for why each is needed).
    fn command(&self, dir: &Path, view: &guard::View) -> Command {
        let mut cmd = Command::new(&self.program);
        cmd.arg("-C")
            .arg(dir)
            .args(guard::global_args(view.empty_tree))
            .args(["-c", "core.quotePath=false", "-c", "color.ui=never"])
            .arg("--no-pager")
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GIT_OPTIONAL_LOCKS", "0")
            .env("GIT_PAGER", "cat")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        view.apply(&mut cmd);
        cmd
    }

    /// Runs git in `dir` (inside a work tree), reading the repository
    /// through a private view of it; a failure carries git's own message.
    pub fn run<S: AsRef<OsStr>>(
        &self,
        dir: &Path,
        args: &[S],
        timeout: Duration,
    ) -> Result<GitOutput, GitError> {
        self.run_accepting(dir, args, timeout, false)
    }

    /// As [`Self::run`]; with `differ_ok`, exit status 1 is an answer too
    /// (`git diff --no-index` says "the files differ" with it).
    pub fn run_accepting<S: AsRef<OsStr>>(
        &self,
        dir: &Path,
        args: &[S],
        timeout: Duration,
        differ_ok: bool,
    ) -> Result<GitOutput, GitError> {
        let view = guard::view(dir, true)?;
        self.exec(dir, &view, args, timeout, differ_ok)
    }

    /// Runs a git command that changes the repository itself (`worktree
    /// add|prune|remove`, `branch -d`): it must see the repository's own
    /// common folder, so no private view; the overrides still hold.
    pub fn change<S: AsRef<OsStr>>(
        &self,
        dir: &Path,
        args: &[S],
        timeout: Duration,
    ) -> Result<GitOutput, GitError> {
        let view = guard::view(dir, false)?;
        self.exec(dir, &view, args, timeout, false)
    }

    fn exec<S: AsRef<OsStr>>(
        &self,
        dir: &Path,
        view: &guard::View,
        args: &[S],
        timeout: Duration,
        differ_ok: bool,
    ) -> Result<GitOutput, GitError> {
        let args: Vec<OsString> = args.iter().map(|a| a.as_ref().to_owned()).collect();
        let what = args
            .iter()
            .take(2)
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ");
        let child = self
            .command(dir, view)
            .args(&args)
            .spawn()
            .map_err(|e| match e.kind() {
                io::ErrorKind::NotFound => GitError::NotInstalled,
                _ => GitError::Io(e.to_string()),
            })?;
        let out = bounded_output(child, timeout).map_err(|e| match e.kind() {
            io::ErrorKind::TimedOut => GitError::TimedOut {
                command: what.clone(),
                secs: timeout.as_secs().max(1),
            },
            _ => GitError::Io(e.to_string()),
        })?;
        if out.success || (differ_ok && out.code == Some(1)) {
            return Ok(GitOutput {
                stdout: out.stdout,
                truncated: out.truncated,
            });
        }
        let message = String::from_utf8_lossy(&out.stderr);
        // A git older than 2.40 does not know `--attr-source`, so it cannot
        // be kept from applying the tree's attributes: it ran nothing.
        if message.contains("--attr-source") {
            return Err(GitError::Failed {
                command: what,
                message: "this git cannot be kept from running a work tree's filters; \
                          greenroom needs git 2.40 or newer"
                    .into(),
            });
        }
        let message = message
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .take(4)
            .collect::<Vec<_>>()
            .join("; ");
        Err(GitError::Failed {
            command: what,
            message: crate::display::safe(&message),
        })
    }

    /// As [`Self::run`], the output as trimmed text.
    pub fn text<S: AsRef<OsStr>>(
        &self,
        dir: &Path,
        args: &[S],
        timeout: Duration,
    ) -> Result<String, GitError> {
        let out = self.run(dir, args, timeout)?;
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    }
}

struct Bounded {
    success: bool,
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    truncated: bool,
}

/// Reads at most `max` bytes of a pipe and drains the rest, so the child
/// never blocks on a full pipe.
fn read_bounded(mut pipe: impl Read, max: usize) -> (Vec<u8>, bool) {
    let mut kept = Vec::new();
    let mut buf = [0u8; 64 * 1024];
    let mut truncated = false;
    loop {
        match pipe.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = max.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
                truncated |= n > room;
            }
        }
    }
    (kept, truncated)
}

/// The child's output, or an error once `timeout` has passed (the child is
/// then killed and reaped).
fn bounded_output(mut child: Child, timeout: Duration) -> io::Result<Bounded> {
    let stdout = child
        .stdout
        .take()
        .map(|p| std::thread::spawn(move || read_bounded(p, MAX_OUTPUT)));
    let stderr = child
        .stderr
        .take()
        .map(|p| std::thread::spawn(move || read_bounded(p, 64 * 1024)));
    let deadline = Instant::now() + timeout;
    let mut pause = Duration::from_micros(100);
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "git did not answer",
            ));
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(5));
    };
    let join = |h: Option<std::thread::JoinHandle<(Vec<u8>, bool)>>| {
        h.and_then(|h| h.join().ok()).unwrap_or_default()
    };
    let (stdout, truncated) = join(stdout);
    let (stderr, _) = join(stderr);
    Ok(Bounded {
        success: status.success(),
        code: status.code(),
        stdout,
        stderr,
        truncated,
    })
}

/// Shows a path git printed (bytes, maybe not UTF-8) safely.
pub fn show_path(bytes: &[u8]) -> String {
    crate::display::safe(&String::from_utf8_lossy(bytes))
}
