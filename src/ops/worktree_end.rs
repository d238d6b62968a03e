//! Worktrees that end cleanly: dismissing a session whose worktree
//! greenroom made can remove that worktree (`git worktree remove`) and
//! delete its branch once merged. Only a worktree the session's record
//! says greenroom made, at the session's own folder, is ever removed; one
//! with uncommitted changes (ignored files count: an `.env`, a local
//! database) only when the operator confirmed a second time, shown what
//! goes. The record is archived only once the worktree is gone. Nothing
//! else in greenroom removes a worktree.

use std::path::PathBuf;

use super::{OpsError, own_id};
use crate::git;
use crate::model::Session;
use crate::sources::sidecar::{SidecarStore, Worktree};
use crate::tmux::Tmux;

/// What dismissing can offer for a session's worktree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorktreeOffer {
    pub worktree: Worktree,
    /// It holds uncommitted changes (or untracked or ignored files, or git
    /// could not tell): a second confirmation is needed to remove it.
    pub has_changes: bool,
    /// What would go with it, named for that confirmation.
    pub work: git::worktree::Uncommitted,
    /// Its branch is merged into the repository's checked-out branch.
    pub branch_merged: bool,
}

/// What the operator chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WorktreeEnd {
    /// Confirmed a second time: remove it even with uncommitted changes.
    pub discard_changes: bool,
    /// Delete the branch too, when it is merged.
    pub delete_merged_branch: bool,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorktreeEnded {
    pub archived_to: PathBuf,
    pub removed: PathBuf,
    /// The branch, when it was deleted.
    pub branch_deleted: Option<String>,
    /// Why the branch was kept, when it was asked to go.
    pub branch_kept: Option<String>,
}

/// The worktree greenroom made for this session, if the record says so and
/// it is still there at the session's folder. Runs git (status, branch).
pub fn worktree_offer(store: &SidecarStore, session: &Session) -> Option<WorktreeOffer> {
    let worktree = made_worktree(store, session).ok()?;
    // Not known to be clean counts as changed.
    let work =
        git::worktree::uncommitted(&worktree.path).unwrap_or_else(|e| git::worktree::Uncommitted {
            listed: vec![format!("(git could not tell: {e})")],
            total: 1,
        });
    let branch_merged = git::worktree::is_merged(&worktree.repo, &worktree.branch).unwrap_or(false);
    Some(WorktreeOffer {
        worktree,
        has_changes: !work.is_empty(),
        work,
        branch_merged,
    })
}

fn made_worktree(store: &SidecarStore, session: &Session) -> Result<Worktree, OpsError> {
    let none = || OpsError::NoWorktree(session.name.clone());
    let id = own_id(session, "remove the worktree of")?;
    let sidecar = store.read(id)?;
    let w = sidecar.worktree.ok_or_else(none)?;
    // The record is a file anyone could edit: its worktree must be the
    // session's own folder, and a folder git knows as a linked worktree
    // (git itself refuses to remove a main work tree or a plain folder).
    if w.path != sidecar.cwd || !w.path.is_dir() || w.branch.starts_with('-') {
        return Err(none());
    }
    Ok(w)
}

/// Dismisses the session (as [`super::dismiss`]) and removes its worktree.
/// Refuses, dismissing nothing, when the worktree has uncommitted work
/// and `end.discard_changes` is not set. The record is archived only after
/// the worktree is removed: a refused removal leaves the session as it was.
pub fn dismiss_with_worktree(
    tmux: &Tmux,
    store: &SidecarStore,
    session: &Session,
    end: WorktreeEnd,
) -> Result<WorktreeEnded, OpsError> {
    super::ensure_dismissable(session)?;
    let w = made_worktree(store, session)?;
    let work = git::worktree::uncommitted(&w.path)?;
    if !work.is_empty() && !end.discard_changes {
        return Err(OpsError::WorktreeHasChanges {
            path: w.path.clone(),
            work,
        });
    }
    // The pane first: a session that came back to life keeps its worktree.
    let id = super::manage::clear_for_dismiss(tmux, session)?;
    git::worktree::remove(&w.repo, &w.path)?;
    let archived_to = store.archive(id).map_err(|e| {
        OpsError::Git(format!(
            "removed the worktree {}, but the record could not be archived: {e}",
            w.path.display()
        ))
    })?;
    let mut ended = WorktreeEnded {
        archived_to,
        removed: w.path.clone(),
        branch_deleted: None,
        branch_kept: None,
    };
    if end.delete_merged_branch {
        match git::worktree::is_merged(&w.repo, &w.branch) {
            Ok(true) => match git::worktree::delete_branch(&w.repo, &w.branch) {
                Ok(()) => ended.branch_deleted = Some(w.branch.clone()),
                Err(e) => ended.branch_kept = Some(e.to_string()),
            },
            Ok(false) => {
                ended.branch_kept = Some(format!("branch {} is not merged; it was kept", w.branch));
            }
            Err(e) => ended.branch_kept = Some(e.to_string()),
        }
    }
    Ok(ended)
}
