//! kill, dismiss and send: actions on a session that exists.

use std::path::PathBuf;

use super::{LOCK_WAIT, OpsError, live_tmux_name, not_live_if_missing, own_id};
use crate::model::{Session, Status};
use crate::sources::sidecar::SidecarStore;
use crate::tmux::{Tmux, TmuxError};

/// Kills a live session's tmux session (`kill-session -t =name`) and, for
/// greenroom's own, records status Killed. A worktree is kept. The caller
/// has confirmed.
pub fn kill(tmux: &Tmux, store: &SidecarStore, session: &Session) -> Result<(), OpsError> {
    super::ensure_killable(session)?;
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
/// `archive/` (recovery will not bring it back; nothing is deleted; restore
/// does). The dead pane tmux kept for it goes, so its name is free again.
/// Returns where the record went. The caller has confirmed.
pub fn dismiss(tmux: &Tmux, store: &SidecarStore, session: &Session) -> Result<PathBuf, OpsError> {
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
    Ok(store.archive(id)?)
}

/// Types `text` into a live session and presses Enter. One line goes in
/// with `send-keys -l`; several lines through a paste buffer, so they
/// arrive as one paste. The text is never interpreted by a shell or as
/// key names.
pub fn send(tmux: &Tmux, session: &Session, text: &str) -> Result<(), OpsError> {
    let name = live_tmux_name(session)?;
    type_text(tmux, name, text).map_err(not_live_if_missing(session))
}

/// [`send`] without the checks: spawn types a first prompt with it.
pub(super) fn type_text(tmux: &Tmux, tmux_session: &str, text: &str) -> Result<(), TmuxError> {
    if text.contains(['\n', '\r']) {
        let buffer = format!("greenroom-{}", uuid::Uuid::new_v4().simple());
        tmux.load_buffer(&buffer, text.as_bytes())?;
        if let Err(e) = tmux.paste_buffer(&buffer, tmux_session) {
            let _ = tmux.delete_buffer(&buffer);
            return Err(e);
        }
    } else if !text.is_empty() {
        tmux.send_literal(tmux_session, text)?;
    }
    tmux.send_key(tmux_session, "Enter")
}
