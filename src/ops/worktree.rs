//! git worktrees for sessions: created by spawn (`--worktree BRANCH`),
//! recreated by restore when the folder is gone. git runs with argv, never
//! through a shell, and nothing here removes a worktree the operator had
//! before: only the one just made, when the spawn that made it failed.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::OpsError;
use crate::sources::sidecar::Worktree;

/// Runs git in `dir`; the error is git's own message.
fn git(dir: &Path, args: &[&std::ffi::OsStr]) -> Result<String, OpsError> {
    let what = args
        .iter()
        .take(2)
        .map(|a| a.to_string_lossy())
        .collect::<Vec<_>>()
        .join(" ");
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => OpsError::Git("git is not installed".into()),
            _ => OpsError::Git(format!("cannot run git: {e}")),
        })?;
    if out.status.success() {
        return Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned());
    }
    let message = String::from_utf8_lossy(&out.stderr);
    let message = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    Err(OpsError::Git(format!("git {what} failed: {message}")))
}

/// The folder a new worktree for `branch` of `repo` goes in: beside the
/// repository, `<repo-parent>/<repo-name>-<branch, '/' as '-'>`.
pub fn worktree_path(repo: &Path, branch: &str) -> PathBuf {
    let name = repo
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "repo".into());
    let folder = format!("{name}-{}", branch.replace('/', "-"));
    repo.parent().unwrap_or(repo).join(folder)
}

/// `git worktree add -b <branch> <path>` for the repository holding `cwd`.
pub(super) fn create(cwd: &Path, branch: &str) -> Result<Worktree, OpsError> {
    if branch.starts_with('-') {
        return Err(OpsError::Git(format!(
            "branch name {branch:?} may not start with '-'"
        )));
    }
    let repo = git(cwd, &["rev-parse".as_ref(), "--show-toplevel".as_ref()]).map_err(|_| {
        OpsError::Git(format!(
            "{} is not inside a git repository; --worktree needs one",
            cwd.display()
        ))
    })?;
    let repo = PathBuf::from(repo);
    git(
        &repo,
        &[
            "check-ref-format".as_ref(),
            "--branch".as_ref(),
            branch.as_ref(),
        ],
    )
    .map_err(|_| OpsError::Git(format!("{branch:?} is not a valid branch name")))?;
    let path = worktree_path(&repo, branch);
    if std::fs::symlink_metadata(&path).is_ok() {
        return Err(OpsError::Git(format!(
            "cannot create the worktree: {} already exists",
            path.display()
        )));
    }
    git(
        &repo,
        &[
            "worktree".as_ref(),
            "add".as_ref(),
            "-b".as_ref(),
            branch.as_ref(),
            "--".as_ref(),
            path.as_os_str(),
        ],
    )?;
    Ok(Worktree {
        repo,
        branch: branch.to_owned(),
        path,
    })
}

/// Undoes [`create`] after a failed spawn: the fresh worktree and its new
/// branch, which hold nothing yet. Best effort; failures are logged.
pub(super) fn undo_create(w: &Worktree) {
    remove_fresh(w);
    if let Err(e) = git(
        &w.repo,
        &["branch".as_ref(), "-d".as_ref(), w.branch.as_ref()],
    ) {
        tracing::warn!(error = %e, branch = %w.branch, "cannot delete the new branch");
    }
}

/// Removes a worktree greenroom has just made (and nothing else).
pub(super) fn remove_fresh(w: &Worktree) {
    let args = [
        "worktree".as_ref(),
        "remove".as_ref(),
        "--force".as_ref(),
        "--".as_ref(),
        w.path.as_os_str(),
    ];
    if let Err(e) = git(&w.repo, &args) {
        tracing::warn!(error = %e, path = %w.path.display(), "cannot remove the new worktree");
    }
}

/// Recreates a recorded worktree whose folder is gone, from its branch.
/// git's record of the vanished folder is pruned first.
pub(super) fn recreate(w: &Worktree) -> Result<(), OpsError> {
    if !w.repo.is_dir() {
        return Err(OpsError::Git(format!(
            "cannot recreate the worktree {}: its repository {} is gone",
            w.path.display(),
            w.repo.display()
        )));
    }
    if w.branch.starts_with('-') {
        return Err(OpsError::Git(format!(
            "cannot recreate the worktree: branch name {:?} may not start with '-'",
            w.branch
        )));
    }
    git(&w.repo, &["worktree".as_ref(), "prune".as_ref()])?;
    git(
        &w.repo,
        &[
            "worktree".as_ref(),
            "add".as_ref(),
            "--".as_ref(),
            w.path.as_os_str(),
            w.branch.as_ref(),
        ],
    )
    .map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worktrees_go_beside_the_repository() {
        assert_eq!(
            worktree_path(Path::new("/src/api"), "feat/login"),
            PathBuf::from("/src/api-feat-login")
        );
        assert_eq!(
            worktree_path(Path::new("/src/api"), "fix"),
            PathBuf::from("/src/api-fix")
        );
    }
}
