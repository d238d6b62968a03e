//! What an operator does to sessions, implemented once for the dashboard
//! and the command line: attach (and, with the actions issue, spawn, kill,
//! restore, dismiss, send).

use std::time::Duration;

use chrono::Utc;
use uuid::Uuid;

use crate::model::{Session, Source};
use crate::sources::sidecar::SidecarStore;
use crate::tmux::{Tmux, TmuxError};

#[derive(Debug, thiserror::Error)]
pub enum OpsError {
    #[error("{0} is not running; restore it first (r, or `greenroom restore {0}`)")]
    NotLive(String),
    #[error("{0} has no tmux session greenroom can act on")]
    NoTmux(String),
    #[error(transparent)]
    Tmux(#[from] TmuxError),
}

/// How an attach went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attached {
    /// The current tmux client was switched; greenroom keeps running.
    Switched,
    /// This terminal was attached until the operator detached.
    Returned,
}

/// Records that the operator looked at a session (greenroom's own only).
pub fn record_focus(store: &SidecarStore, session: &Session) {
    if session.source != Source::Greenroom {
        return;
    }
    let Ok(id) = Uuid::parse_str(&session.id) else {
        return;
    };
    let now = Utc::now();
    if let Err(e) = store.update(id, Duration::from_secs(1), |s| {
        s.last_focused_at = Some(now);
        true
    }) {
        tracing::warn!(id = %id, error = %e, "cannot record focus");
    }
}

/// Attaches to a live session: `switch-client` when greenroom runs inside
/// the same tmux server, else a client in this terminal until detach.
pub fn attach(
    tmux: &Tmux,
    store: &SidecarStore,
    session: &Session,
    tmux_env: Option<&str>,
) -> Result<Attached, OpsError> {
    if !session.status.is_live() {
        return Err(OpsError::NotLive(session.name.clone()));
    }
    let name = session
        .tmux_session
        .as_deref()
        .ok_or_else(|| OpsError::NoTmux(session.name.clone()))?;
    record_focus(store, session);
    if tmux.is_current_server(tmux_env) {
        tmux.switch_client(name)?;
        Ok(Attached::Switched)
    } else {
        tmux.attach_here(name)?;
        Ok(Attached::Returned)
    }
}
