//! kill and dismiss: actions on a session that exists (send: `send.rs`).

use std::path::PathBuf;

use super::{LOCK_WAIT, OpsError, live_tmux_name, not_live_if_missing, own_id};
use crate::model::{Session, Status};
use crate::sources::sidecar::SidecarStore;
use crate::tmux::Tmux;

/// Kills a live session's tmux session (`kill-session -t =name`) and, for
/// greenroom's own, records status Killed. A worktree is kept. The caller
/// has confirmed.
pub fn kill(tmux: &Tmux, store: &SidecarStore, session: &Session) -> Result<(), OpsError> {
    let name = live_tmux_name(session)?;
    tmux.kill_session(name)
        .map_err(not_live_if_missing(session))?;
    // Agent Orchestrator sessions are killed through tmux; their files are theirs.
    if let Ok(id) = own_id(session, "kill") {
        store.update(id, LOCK_WAIT, |s| {
            s.status = Status::Killed;
            s.exit_status = None;
            true
        })?;
    }
    Ok(())
}

/// Moves the sidecar of one of greenroom's sessions that is not live to
/// `archive/` (recovery will not bring it back; nothing is deleted).
/// Returns where it went. The caller has confirmed.
pub fn dismiss(store: &SidecarStore, session: &Session) -> Result<PathBuf, OpsError> {
    super::ensure_dismissable(session)?;
    let id = own_id(session, "dismiss")?;
    Ok(store.archive(id)?)
}
