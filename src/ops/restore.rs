//! restore: a session that is not running (dormant, killed, exited) gets a
//! new tmux session in its folder, resuming the agent's own conversation
//! when the agent reported its id.

use chrono::Utc;

use super::{LOCK_WAIT, Launching, OpsError, command, own_id, start_session, tmux_name, worktree};
use crate::model::{Session, Status, validate_name};
use crate::sources::sidecar::{Sidecar, SidecarStore, Worktree};
use crate::tmux::Tmux;
use uuid::Uuid;

/// How a restore went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restored {
    /// The command tmux now runs.
    pub command: String,
    /// True when it is the preset's resume command with the agent's id;
    /// false when it is the original command.
    pub resumed: bool,
    /// True when the recorded worktree's folder was gone and was made again
    /// from its branch.
    pub worktree_recreated: bool,
}

/// Restores one of greenroom's stopped or archived sessions. The command is
/// the preset's `resume` with the recorded `agent_session_id` (else the
/// row's, read from the agent's own store; validated, quoted) when both exist, else the preset's `launch` (without the first
/// prompt, which is never sent twice), else the original command. Refuses a live
/// session. A session that exited but whose dead pane tmux still keeps is
/// cleared first. An archived session (dismissed, or archived at start-up
/// because its folder was gone) is moved back from the archive once its
/// folder is there again (a recorded worktree is made again).
///
/// `settings` is what `config` builds (`&Config` will do).
pub fn restore(
    tmux: &Tmux,
    settings: impl Into<Launching>,
    session: &Session,
) -> Result<Restored, OpsError> {
    let config = &settings.into();
    super::ensure_restorable(session)?;
    let id = own_id(session, "restore")?;
    let store = SidecarStore::new(&config.sidecar_dir);
    let sidecar = record_to_restore(&store, session, id)?;
    let tmux_session = tmux_session_of(&sidecar, session)?;
    // Only dead panes left (remain-on-exit) are cleared; a live session is
    // not ours to replace.
    if !tmux.clear_dead_session(&tmux_session)? {
        return Err(match session.archived {
            true => OpsError::TmuxSessionTaken(tmux_session),
            false => OpsError::NotRestorable {
                name: session.name.clone(),
                status: "running".into(),
            },
        });
    }

    let recreated = folder_back(&sidecar)?;

    if session.archived
        && let Err(e) = store.unarchive(id)
    {
        if let Some(w) = recreated {
            worktree::remove_fresh(w);
        }
        return Err(e.into());
    }
    let preset = sidecar.agent.as_deref().and_then(|a| config.agents.get(a));
    // The id the agent reported, else the one its own store holds (the
    // row's: OpenCode's database names it without a plugin).
    let agent_session_id = sidecar.agent_session_id.as_deref();
    let agent_session_id = agent_session_id.or(session.agent_session_id.as_deref());
    let resumed = command::resume(preset, agent_session_id);
    // The first prompt was the first run's: a preset session starts again
    // with its plain `launch`, never with the prompt it was spawned with.
    let command = resumed
        .clone()
        .or_else(|| preset.map(|p| p.launch.clone()))
        .unwrap_or_else(|| sidecar.command.clone());
    if let Err(e) = start_session(tmux, &store, id, &tmux_session, &sidecar.cwd, &command) {
        if let Some(w) = recreated {
            worktree::remove_fresh(w);
        }
        // As it was: an archived record goes back to the archive.
        if session.archived
            && let Err(e) = store.archive(id)
        {
            tracing::warn!(id = %id, error = %e, "cannot archive again");
        }
        return Err(e);
    }
    let now = Utc::now();
    store.update(id, LOCK_WAIT, |s| {
        s.status = Status::Running;
        s.restored_at = Some(now);
        s.exit_status = None;
        s.tmux_session = Some(tmux_session.clone());
        // What the last run reported is over; the new run reports afresh.
        s.activity = None;
        s.activity_detail = None;
        s.activity_since = None;
        s.activity_reported_at = None;
        true
    })?;
    Ok(Restored {
        command,
        resumed: resumed.is_some(),
        worktree_recreated: recreated.is_some(),
    })
}

/// The record to restore: from the archive (unless another session took
/// its name meanwhile) or from the sidecar folder.
fn record_to_restore(
    store: &SidecarStore,
    session: &Session,
    id: Uuid,
) -> Result<Sidecar, OpsError> {
    if !session.archived {
        return Ok(store.read(id)?);
    }
    let s = store.read_archived(id)?;
    if store
        .load_all()
        .0
        .iter()
        .any(|live| live.name == s.name && live.id != id)
    {
        return Err(OpsError::NameTaken(s.name));
    }
    Ok(s)
}

/// The tmux session to start. The file is not trusted: a name tmux would
/// expand never reaches it.
fn tmux_session_of(sidecar: &Sidecar, session: &Session) -> Result<String, OpsError> {
    match &sidecar.tmux_session {
        Some(t) => {
            crate::tmux::check_session_name(t).map_err(|e| {
                OpsError::InvalidName(format!("cannot restore {}: {e}", session.name))
            })?;
            Ok(t.clone())
        }
        None if validate_name(&sidecar.name).is_ok() => Ok(tmux_name(&sidecar.name)),
        None => Err(OpsError::NoTmux(session.name.clone())),
    }
}

/// The session's folder, there again: a recorded worktree whose folder is
/// gone is made again from its branch (and returned, so a later failure
/// can remove it); any other missing folder is refused.
fn folder_back(sidecar: &Sidecar) -> Result<Option<&Worktree>, OpsError> {
    if sidecar.cwd.is_dir() {
        return Ok(None);
    }
    let mut recreated = None;
    match &sidecar.worktree {
        Some(w) if sidecar.cwd.starts_with(&w.path) && !w.path.exists() => {
            worktree::recreate(w)?;
            recreated = Some(w);
        }
        _ => {}
    }
    if let Some(e) = super::folder_problem(&sidecar.cwd) {
        if let Some(w) = recreated {
            worktree::remove_fresh(w);
        }
        return Err(e);
    }
    Ok(recreated)
}
