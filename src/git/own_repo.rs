//! Repositories greenroom makes and writes itself: the demo's. They are
//! greenroom's own (nothing in them is an agent's doing yet), so git runs
//! on them without a private view; still with `guard.rs`'s overrides, and
//! never reading the operator's or the machine's git config
//! (`GIT_CONFIG_GLOBAL=/dev/null`, `GIT_CONFIG_NOSYSTEM`), so the author,
//! the committer, the branch name and signing come from here alone.

use std::ffi::OsStr;
use std::path::Path;

use super::{Git, GitError, WRITE_TIMEOUT, guard};
use crate::process::{ProcessError, Spec};

/// Who commits, and when: given, never read from the machine, so commits
/// (and their ids) come out the same on every run.
#[derive(Debug, Clone)]
pub struct Identity {
    pub name: String,
    pub email: String,
    /// git's date format, e.g. `2026-01-05T09:00:00+00:00`.
    pub date: String,
}

/// The branch a new repository starts on.
pub const FIRST_BRANCH: &str = "main";

/// `git init` of `dir` (made if missing), on [`FIRST_BRANCH`], with no
/// template (no sample hooks).
pub fn init(dir: &Path, who: &Identity) -> Result<(), GitError> {
    std::fs::create_dir_all(dir).map_err(|e| GitError::Io(e.to_string()))?;
    let branch = format!("--initial-branch={FIRST_BRANCH}");
    run(dir, &["init", "--quiet", "--template=", &branch], who)
}

/// Commits everything in the work tree holding `dir` (new files too);
/// `false` when there was nothing to commit.
pub fn commit_all(dir: &Path, message: &str, who: &Identity) -> Result<bool, GitError> {
    run(dir, &["add", "--all"], who)?;
    let staged = spec(dir, who, &["diff", "--cached", "--quiet"]);
    match staged.run(super::limits(WRITE_TIMEOUT)) {
        Ok(_) => return Ok(false),
        Err(ProcessError::Exited { code: Some(1), .. }) => {}
        Err(e) => return Err(GitError::Io(e.to_string())),
    }
    let args: [&OsStr; 5] = [
        "commit".as_ref(),
        "--quiet".as_ref(),
        "--no-verify".as_ref(),
        "-m".as_ref(),
        message.as_ref(),
    ];
    run(dir, &args, who).map(|()| true)
}

/// `git worktree add -b <branch> -- <path>` from the repository at `repo`:
/// a linked worktree on a new branch, as spawn's `--worktree` makes one.
pub fn add_worktree(
    repo: &Path,
    branch: &str,
    path: &Path,
    who: &Identity,
) -> Result<(), GitError> {
    if branch.starts_with('-') {
        return Err(GitError::Failed {
            command: "worktree add".into(),
            message: format!("branch name {branch:?} may not start with '-'"),
        });
    }
    let args: [&OsStr; 7] = [
        "worktree".as_ref(),
        "add".as_ref(),
        "--quiet".as_ref(),
        "-b".as_ref(),
        branch.as_ref(),
        "--".as_ref(),
        path.as_os_str(),
    ];
    run(repo, &args, who)
}

fn run<S: AsRef<OsStr>>(dir: &Path, args: &[S], who: &Identity) -> Result<(), GitError> {
    let what = args
        .iter()
        .take(2)
        .map(|a| a.as_ref().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ");
    match spec(dir, who, args).run(super::limits(WRITE_TIMEOUT)) {
        Ok(_) => Ok(()),
        Err(ProcessError::Exited { stderr, .. }) => Err(super::refused(what, &stderr)),
        Err(ProcessError::TimedOut { .. }) => Err(GitError::TimedOut {
            command: what,
            secs: WRITE_TIMEOUT.as_secs(),
        }),
        Err(e) if e.not_found() => Err(GitError::NotInstalled),
        Err(e) => Err(GitError::Io(e.to_string())),
    }
}

/// git in `dir` with the overrides, no config but the repository's own,
/// and `who` as author and committer.
fn spec<S: AsRef<OsStr>>(dir: &Path, who: &Identity, args: &[S]) -> Spec {
    let tree = guard::EMPTY_TREE_SHA1;
    let mut spec = Spec::new(Git::new().program());
    spec.arg("-C")
        .arg(dir)
        .args(guard::global_args(tree))
        .args(["-c", "core.quotePath=false", "-c", "color.ui=never"])
        .args(["-c", "commit.gpgSign=false", "-c", "tag.gpgSign=false"])
        .arg("--no-pager")
        .args(args);
    guard::apply_env(&mut spec, tree);
    spec.env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_PAGER", "cat")
        .env("GIT_AUTHOR_NAME", &who.name)
        .env("GIT_AUTHOR_EMAIL", &who.email)
        .env("GIT_AUTHOR_DATE", &who.date)
        .env("GIT_COMMITTER_NAME", &who.name)
        .env("GIT_COMMITTER_EMAIL", &who.email)
        .env("GIT_COMMITTER_DATE", &who.date);
    spec
}
