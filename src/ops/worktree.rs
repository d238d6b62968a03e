//! git worktrees for sessions: created by spawn (`--worktree BRANCH`),
//! recreated by restore when the folder is gone, removed by dismiss when
//! the operator asks (`worktree_end.rs`). git runs from `src/git/`, and
//! nothing here removes a worktree greenroom did not make: only the one
//! just made, when the spawn that made it failed.

use std::path::{Path, PathBuf};

use super::OpsError;
use crate::git::{self, GitError};
use crate::sources::sidecar::Worktree;

impl From<GitError> for OpsError {
    fn from(e: GitError) -> Self {
        OpsError::Git(e.to_string())
    }
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
    let repo = git::worktree::toplevel(cwd).map_err(|_| {
        OpsError::Git(format!(
            "{} is not inside a git repository; --worktree needs one",
            cwd.display()
        ))
    })?;
    if !git::worktree::valid_branch(&repo, branch) {
        return Err(OpsError::Git(format!(
            "{branch:?} is not a valid branch name"
        )));
    }
    let path = worktree_path(&repo, branch);
    if std::fs::symlink_metadata(&path).is_ok() {
        return Err(OpsError::Git(format!(
            "cannot create the worktree: {} already exists",
            path.display()
        )));
    }
    git::worktree::add_new_branch(&repo, branch, &path)?;
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
    if let Err(e) = git::worktree::delete_branch(&w.repo, &w.branch) {
        tracing::warn!(error = %e, branch = %w.branch, "cannot delete the new branch");
    }
}

/// Removes a worktree greenroom has just made (and nothing else).
pub(super) fn remove_fresh(w: &Worktree) {
    if let Err(e) = git::worktree::remove(&w.repo, &w.path) {
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
    git::worktree::prune(&w.repo)?;
    git::worktree::add_existing(&w.repo, &w.path, &w.branch)?;
    Ok(())
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
