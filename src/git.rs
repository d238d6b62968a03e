//! The one place greenroom runs git. Every call passes argv (never a
//! shell), runs within a time bound and reads at most a bounded amount of
//! output (through `crate::process`), never prompts (`GIT_TERMINAL_PROMPT=0`), never takes optional
//! locks (`GIT_OPTIONAL_LOCKS=0`: a status must not rewrite `.git/index`,
//! which greenroom watches), and ignores the operator's pager and colour
//! settings unless a caller asks for colour, and starts no program that a
//! work tree or its git folder names (`guard.rs`: every call's argv and
//! environment are built in [`Git::spec`]).
//!
//! What git prints is untrusted input: it is parsed with limits
//! (`status.rs`, `numstat.rs`), and paths that are not UTF-8 are shown
//! lossily, never used to build a command.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::process::{Limits, Overflow, ProcessError, Spec};

mod diff;
mod guard;
mod monitor;
mod numstat;
pub mod own_repo;
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

    /// The program this handle runs.
    fn program(&self) -> &Path {
        &self.program
    }

    /// A git call in `dir` with no surprises from the environment. The
    /// one place argv is built: whatever git is asked, it gets `guard.rs`'s
    /// overrides and attribute source before the command and reads the
    /// repository through `view` (see `guard.rs` for why each is needed).
    fn spec(&self, dir: &Path, view: &guard::View) -> Spec {
        let mut spec = Spec::new(&self.program);
        spec.arg("-C")
            .arg(dir)
            .args(guard::global_args(view.empty_tree))
            .args(["-c", "core.quotePath=false", "-c", "color.ui=never"])
            .arg("--no-pager")
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GIT_OPTIONAL_LOCKS", "0")
            .env("GIT_PAGER", "cat");
        view.apply(&mut spec);
        spec
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
        let mut spec = self.spec(dir, view);
        spec.args(&args);
        if differ_ok {
            spec.answer(1);
        }
        let stderr = match spec.run(limits(timeout)) {
            Ok(out) => {
                return Ok(GitOutput {
                    stdout: out.stdout,
                    truncated: out.cut,
                });
            }
            Err(ProcessError::Exited { stderr, .. }) => stderr,
            Err(ProcessError::TimedOut { .. }) => {
                return Err(GitError::TimedOut {
                    command: what,
                    secs: timeout.as_secs().max(1),
                });
            }
            Err(e) if e.not_found() => return Err(GitError::NotInstalled),
            Err(ProcessError::Spawn { source, .. } | ProcessError::Io { source, .. }) => {
                return Err(GitError::Io(source.to_string()));
            }
            Err(e) => return Err(GitError::Io(e.to_string())),
        };
        Err(refused(what, &stderr))
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

/// Why git refused, from its stderr: its first lines, safe to show.
fn refused(what: String, stderr: &[u8]) -> GitError {
    let message = String::from_utf8_lossy(stderr);
    // A git older than 2.40 does not know `--attr-source`, so it cannot
    // be kept from applying the tree's attributes: it ran nothing.
    if message.contains("--attr-source") {
        return GitError::Failed {
            command: what,
            message: "this git cannot be kept from running a work tree's filters; \
                      greenroom needs git 2.40 or newer"
                .into(),
        };
    }
    let message = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(4)
        .collect::<Vec<_>>()
        .join("; ");
    GitError::Failed {
        command: what,
        message: crate::display::safe(&message),
    }
}

/// What one call may cost: `timeout`, [`MAX_OUTPUT`] of stdout (the rest
/// drained unread, [`GitOutput::truncated`]) and git's last words.
fn limits(timeout: Duration) -> Limits {
    Limits {
        timeout,
        stdout: MAX_OUTPUT,
        stderr: 64 * 1024,
        overflow: Overflow::Cut,
    }
}

/// Shows a path git printed (bytes, maybe not UTF-8) safely.
pub fn show_path(bytes: &[u8]) -> String {
    crate::display::safe(&String::from_utf8_lossy(bytes))
}
