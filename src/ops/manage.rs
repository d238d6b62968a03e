//! kill and dismiss: actions on a session that exists (send: `send.rs`).

use std::path::PathBuf;

use super::{LOCK_WAIT, OpsError, live_tmux_name, not_live_if_missing, own_id};
use crate::model::{Session, Status};
use crate::sources::adopted;
use crate::sources::sidecar::{SidecarError, SidecarStore};
use crate::tmux::{Tmux, TmuxError};
use uuid::Uuid;

/// Kills a live session's tmux session (`kill-session -t =name`) and, for
/// greenroom's own, records status Killed. An adopted agent's pane is
/// killed alone (`kill-pane -t %12`): the user's session and its other
/// windows stay. A worktree is kept. The caller
/// has confirmed.
pub fn kill(tmux: &Tmux, store: &SidecarStore, session: &Session) -> Result<(), OpsError> {
    super::ensure_killable(session)?;
    let name = live_tmux_name(session)?;
    tmux.kill_session(&name)
        .map_err(not_live_if_missing(session))?;
    // An agent greenroom did not start: its record says who ended it, so
    // its row reads killed, not died. Its pane is gone either way.
    if let Some(record) = super::adopted_record(session) {
        let adopted = SidecarStore::new(adopted::adopted_dir(store.dir()));
        let written = adopted.update(record, LOCK_WAIT, |s| {
            s.status = Status::Killed;
            true
        });
        if let Err(e) = written {
            tracing::warn!(error = %e, "cannot record the adopted agent killed");
        }
    }
    // Agent Orchestrator sessions are killed through tmux; their files are theirs.
    if let Ok(id) = own_id(session, "kill") {
        let written = store.update(id, LOCK_WAIT, |s| {
            s.status = Status::Killed;
            s.exit_status = None;
            true
        });
        if let Err(e) = written {
            // The session is gone either way; a write that may pass later (a
            // full disk, a busy lock) is owed, or the next poll would record
            // the vanished session as Dormant.
            if matches!(e, SidecarError::Io { .. } | SidecarError::LockTimeout(..)) {
                crate::engine::owe_status(id, Status::Killed);
            }
            return Err(e.into());
        }
    }
    Ok(())
}

/// Moves the sidecar of one of greenroom's sessions that is not live to
/// `archive/` (recovery will not bring it back; nothing is deleted; restore
/// does), or an ended adopted agent's record to the adopted folder's. The dead pane tmux kept for it goes, so its name is free again.
/// Returns where the record went. The caller has confirmed.
pub fn dismiss(tmux: &Tmux, store: &SidecarStore, session: &Session) -> Result<PathBuf, OpsError> {
    if let Some(record) = super::adopted_record(session) {
        // An ended agent greenroom did not start: its pane is the
        // operator's and stays; its record goes to the adopted archive.
        super::ensure_dismissable(session)?;
        let adopted = SidecarStore::new(adopted::adopted_dir(store.dir()));
        return Ok(adopted.archive(record)?);
    }
    let id = clear_for_dismiss(tmux, session)?;
    Ok(store.archive(id)?)
}

/// The first half of dismissing: the checks and the dead pane tmux kept
/// cleared; the record is archived after (by the caller, once whatever
/// else goes with it has gone).
pub(super) fn clear_for_dismiss(tmux: &Tmux, session: &Session) -> Result<Uuid, OpsError> {
    super::ensure_dismissable(session)?;
    let id = own_id(session, "dismiss")?;
    if let Some(name) = &session.tmux_session {
        match tmux.clear_dead_session(name) {
            // Without tmux there is no pane to clear: the record still goes.
            Ok(true) | Err(TmuxError::NotInstalled) => {}
            // It came back to life since the row was read.
            Ok(false) => return Err(OpsError::Live(session.name.clone())),
            Err(e) => return Err(e.into()),
        }
    }
    Ok(id)
}
