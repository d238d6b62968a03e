//! The git commands behind sessions' worktrees: made by spawn, made again
//! by restore, removed only when dismissing one greenroom made (the
//! policy lives in `ops/worktree.rs`; this is only git).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use super::{Git, GitError, READ_TIMEOUT, WRITE_TIMEOUT};

fn run(dir: &Path, args: &[&OsStr]) -> Result<String, GitError> {
    let timeout = match args.first().and_then(|a| a.to_str()) {
        Some("worktree") => WRITE_TIMEOUT,
        _ => READ_TIMEOUT,
    };
    Git::new().text(dir, args, timeout)
}

/// The top folder of the work tree holding `dir`.
pub fn toplevel(dir: &Path) -> Result<PathBuf, GitError> {
    run(dir, &["rev-parse".as_ref(), "--show-toplevel".as_ref()]).map(PathBuf::from)
}

/// Whether git takes `branch` as a branch name.
pub fn valid_branch(repo: &Path, branch: &str) -> bool {
    !branch.starts_with('-')
        && run(
            repo,
            &[
                "check-ref-format".as_ref(),
                "--branch".as_ref(),
                branch.as_ref(),
            ],
        )
        .is_ok()
}

/// `git worktree add -b <branch> -- <path>`.
pub fn add_new_branch(repo: &Path, branch: &str, path: &Path) -> Result<(), GitError> {
    let args = [
        "worktree".as_ref(),
        "add".as_ref(),
        "-b".as_ref(),
        branch.as_ref(),
        "--".as_ref(),
        path.as_os_str(),
    ];
    run(repo, &args).map(drop)
}

/// `git worktree add -- <path> <branch>` (an existing branch).
pub fn add_existing(repo: &Path, path: &Path, branch: &str) -> Result<(), GitError> {
    let args = [
        "worktree".as_ref(),
        "add".as_ref(),
        "--".as_ref(),
        path.as_os_str(),
        branch.as_ref(),
    ];
    run(repo, &args).map(drop)
}

/// `git worktree prune`: forgets worktrees whose folder is gone.
pub fn prune(repo: &Path) -> Result<(), GitError> {
    run(repo, &["worktree".as_ref(), "prune".as_ref()]).map(drop)
}

/// `git worktree remove [--force] -- <path>`. Without `force`, git itself
/// refuses a worktree with changes.
pub fn remove(repo: &Path, path: &Path, force: bool) -> Result<(), GitError> {
    let mut args: Vec<&OsStr> = vec!["worktree".as_ref(), "remove".as_ref()];
    if force {
        args.push("--force".as_ref());
    }
    args.extend(["--".as_ref(), path.as_os_str()]);
    run(repo, &args).map(drop)
}

/// `git branch -d <branch>`: git refuses a branch not merged.
pub fn delete_branch(repo: &Path, branch: &str) -> Result<(), GitError> {
    if branch.starts_with('-') {
        return Err(GitError::Failed {
            command: "branch -d".into(),
            message: format!("branch name {branch:?} may not start with '-'"),
        });
    }
    run(
        repo,
        &[
            "branch".as_ref(),
            "-d".as_ref(),
            "--".as_ref(),
            branch.as_ref(),
        ],
    )
    .map(drop)
}

/// Whether `branch` is merged into the branch checked out in `repo`.
pub fn is_merged(repo: &Path, branch: &str) -> Result<bool, GitError> {
    let refname = format!("refs/heads/{branch}");
    let out = run(
        repo,
        &[
            "branch".as_ref(),
            "--merged".as_ref(),
            "HEAD".as_ref(),
            "--format=%(refname)".as_ref(),
        ],
    )?;
    Ok(out.lines().any(|l| l == refname))
}

/// Whether the work tree at `path` has uncommitted changes (untracked files
/// included, ignored ones not).
pub fn has_changes(path: &Path) -> Result<bool, GitError> {
    let out = run(
        path,
        &["status".as_ref(), "--porcelain".as_ref(), "-z".as_ref()],
    )?;
    Ok(!out.is_empty())
}
