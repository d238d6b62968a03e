//! What an operator does to sessions, implemented once for the dashboard
//! and the command line: spawn, attach, kill, restore, dismiss, send.
//!
//! Every function takes plain data (the tmux handle, the sidecar store or
//! the settings, a catalog row) and returns a `Result` whose error is a
//! one-line, operator-facing message. Nothing here prints or asks: the
//! caller confirms destructive actions and shows the outcome.

mod answered;
mod choice;
mod command;
mod comment;
mod manage;
mod resolve;
mod restore;
mod send;
mod settings;
mod snooze;
mod spawn;
mod start_folder;
mod worktree;
mod worktree_end;

use std::path::PathBuf;
use std::time::Duration;

use chrono::Utc;
use uuid::Uuid;

use crate::model::{Session, Source};
use crate::sources::sidecar::{SidecarError, SidecarStore};
use crate::sources::tmux_conf;
use crate::tmux::{Tmux, TmuxError};

pub use crate::model::valid_agent_session_id;
/// Quoting lives with tmux, which runs the commands; callers of ops use it too.
pub use crate::tmux::shell_quote;
pub use command::installed;
pub use comment::{comment_text, send_comment};
pub use manage::{dismiss, kill};
pub use resolve::{MIN_PREFIX, dismissable, resolve};
pub use restore::{Restored, restore};
pub use send::{AnswerKey, clean_text, send, send_key};
pub use settings::Launching;
pub use snooze::{snooze, wake};
pub use spawn::{Launch, SpawnRequest, Spawned, default_name, spawn};
pub use worktree::worktree_path;
pub use worktree_end::{WorktreeEnd, WorktreeEnded, dismiss_with_worktree, worktree_offer};

/// greenroom's tmux sessions are named `gr-<name>`.
pub const TMUX_PREFIX: &str = "gr-";

/// The tmux session greenroom runs a session named `name` in.
pub fn tmux_name(name: &str) -> String {
    format!("{TMUX_PREFIX}{name}")
}

/// How long an action waits for a sidecar's lock.
const LOCK_WAIT: Duration = Duration::from_secs(2);

#[derive(Debug, thiserror::Error)]
pub enum OpsError {
    #[error("{0} is not running; restore it first (r, or `greenroom restore {0}`)")]
    NotLive(String),
    #[error("{0} has no tmux session greenroom can act on")]
    NoTmux(String),
    #[error(
        "{name} is not running ({status}), so there is nothing to kill; dismiss it (D, or `greenroom dismiss {name}`) or restore it (r, or `greenroom restore {name}`)"
    )]
    NothingToKill { name: String, status: String },
    #[error("{0} is not running, so there is nothing to kill")]
    NothingToKillElsewhere(String),
    #[error("{0} is archived already; `greenroom restore {0}` brings it back")]
    AlreadyArchived(String),
    #[error("{0} is running; kill it first (x, or `greenroom kill {0}`)")]
    Live(String),
    #[error(
        "{name} is {status}; only dormant, killed, exited or archived sessions can be restored"
    )]
    NotRestorable { name: String, status: String },
    #[error("{name} is {origin} session; greenroom can only {action} the sessions it started")]
    NotOurs {
        name: String,
        origin: &'static str,
        action: &'static str,
    },
    #[error("{0}")]
    InvalidName(String),
    #[error("a session named {0} already exists")]
    NameTaken(String),
    #[error("tmux session {0} already exists; choose another name")]
    TmuxSessionTaken(String),
    #[error("folder {0} does not exist")]
    CwdMissing(PathBuf),
    #[error("{0} is not a folder")]
    NotAFolder(PathBuf),
    #[error(
        "tmux started the session in {got:?}, not in {wanted:?}; it was ended (rename the folder, or start it from another)"
    )]
    WrongFolder { wanted: PathBuf, got: String },
    #[error("unknown agent preset {name:?}; known presets: {known}")]
    UnknownPreset { name: String, known: String },
    #[error(
        "the {preset} preset runs {program:?}, which is not on PATH; install it, or set `launch` under [agents.{preset}] in config.toml"
    )]
    ProgramMissing { preset: String, program: String },
    #[error("no command to run: pass --agent PRESET or -- COMMAND")]
    NoCommand,
    #[error("{0}")]
    Git(String),
    #[error(
        "the worktree {} has uncommitted changes ({}); nothing was dismissed (confirm a second time to remove it with its changes)",
        .path.display(),
        .work.summary()
    )]
    WorktreeHasChanges {
        path: PathBuf,
        work: crate::git::worktree::Uncommitted,
    },
    #[error("{0} has no worktree greenroom made; there is none to remove")]
    NoWorktree(String),
    #[error("{0}")]
    Prompt(String),
    #[error("no session matches {0:?} (see `greenroom ls`)")]
    UnknownId(String),
    #[error("{id:?} matches several sessions: {candidates}; use the full id")]
    Ambiguous { id: String, candidates: String },
    #[error("{0}")]
    Sidecar(#[from] SidecarError),
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

/// Records that the operator looked at a session: greenroom's own in its
/// record (`last_focused_at`), any other of this machine's rows (a
/// hand-started agent's pane, Maestro's, AO's) in greenroom's looks file.
/// A finished turn looked at is no longer ready (`health::decide`). A
/// host's row is that host's to record.
pub fn record_focus(store: &SidecarStore, session: &Session) {
    if session.host.is_some() {
        return;
    }
    let now = Utc::now();
    if session.source != Source::Greenroom {
        let looks = crate::sources::looks::LooksStore::new(store.dir());
        if let Err(e) = looks.record(&session.id, now) {
            tracing::warn!(id = %session.id, error = %e, "cannot record a look");
        }
        return;
    }
    let Ok(id) = Uuid::parse_str(&session.id) else {
        return;
    };
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
    // An adopted agent's pane: tmux selects its window and pane too.
    let name = session
        .tmux_target()
        .ok_or_else(|| OpsError::NoTmux(session.name.clone()))?;
    record_focus(store, session);
    if tmux.is_current_server(tmux_env) {
        let from = tmux.client_place(None);
        tmux.switch_client(&name)?;
        remember_back(tmux, from.as_ref());
        Ok(Attached::Switched)
    } else {
        tmux.attach_here(&name)?;
        Ok(Attached::Returned)
    }
}

/// Attaches from the dashboard's popup (`--popup CLIENT`): the client that
/// opened the popup is switched to the session (or adopted pane); the
/// dashboard then quits, which closes the popup over it.
pub fn attach_in_popup(
    tmux: &Tmux,
    store: &SidecarStore,
    session: &Session,
    client: &crate::tmux::ClientName,
) -> Result<Attached, OpsError> {
    if !session.status.is_live() {
        return Err(OpsError::NotLive(session.name.clone()));
    }
    let name = session
        .tmux_target()
        .ok_or_else(|| OpsError::NoTmux(session.name.clone()))?;
    record_focus(store, session);
    let from = tmux.client_place(Some(client));
    tmux.switch_client_of(client, &name)?;
    remember_back(tmux, from.as_ref());
    Ok(Attached::Switched)
}

/// Records where the client was before greenroom moved it, for prefix b
/// (see `crate::tmux::BackOptions`). A failure costs only the way back.
fn remember_back(tmux: &Tmux, from: Option<&crate::tmux::ClientPlace>) {
    let Some(from) = from else {
        return;
    };
    let options = crate::tmux::BackOptions {
        back: tmux_conf::BACK_OPTION,
        at: tmux_conf::BACK_AT_OPTION,
    };
    if let Err(e) = tmux.remember_back(options, from) {
        tracing::warn!(error = %e, "cannot record the way back for prefix b");
    }
}

/// Whether kill, send and attach may act on this row: its tmux session is
/// live. The `ensure_*` checks let the dashboard refuse before it opens a
/// dialog, and the CLI before it asks for confirmation; the actions run
/// them again themselves.
pub fn ensure_live(session: &Session) -> Result<(), OpsError> {
    if session.can_attach() {
        return Ok(());
    }
    live_tmux_name(session).map(drop)
}

/// Whether kill may act on this row: its tmux session is live. A stopped
/// session of greenroom's own can be dismissed or restored instead: the
/// refusal says so.
pub fn ensure_killable(session: &Session) -> Result<(), OpsError> {
    if session.archived {
        return Err(OpsError::AlreadyArchived(session.name.clone()));
    }
    if session.can_attach() {
        return Ok(());
    }
    match live_tmux_name(session) {
        Err(OpsError::NotLive(name)) if session.source == Source::Greenroom => {
            Err(OpsError::NothingToKill {
                name,
                status: session.status.as_str().to_lowercase(),
            })
        }
        Err(OpsError::NotLive(name)) => Err(OpsError::NothingToKillElsewhere(name)),
        other => other.map(drop),
    }
}

/// The folder a session is to run in, when it cannot: missing, or not a
/// folder at all.
fn folder_problem(dir: &std::path::Path) -> Option<OpsError> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => None,
        Ok(_) => Some(OpsError::NotAFolder(dir.to_path_buf())),
        Err(_) => Some(OpsError::CwdMissing(dir.to_path_buf())),
    }
}

/// Whether dismiss may act on this row: one of greenroom's own, not live,
/// not archived yet.
pub fn ensure_dismissable(session: &Session) -> Result<(), OpsError> {
    // An ended agent greenroom did not start: its hooks' record goes.
    if adopted_record(session).is_none() {
        own_id(session, "dismiss")?;
    }
    if session.can_dismiss() {
        return Ok(());
    }
    if session.archived {
        return Err(OpsError::AlreadyArchived(session.name.clone()));
    }
    Err(OpsError::Live(session.name.clone()))
}

/// Whether restore may act on this row: greenroom's own, dormant, killed,
/// exited or archived.
pub fn ensure_restorable(session: &Session) -> Result<(), OpsError> {
    own_id(session, "restore")?;
    if !session.can_restore() {
        return Err(OpsError::NotRestorable {
            name: session.name.clone(),
            status: session.status.as_str().to_lowercase(),
        });
    }
    Ok(())
}

/// What tmux is handed for a live row, for actions that need one running:
/// its tmux session, or for an adopted agent its pane alone.
fn live_tmux_name(session: &Session) -> Result<crate::tmux::TmuxTarget, OpsError> {
    let name = session
        .tmux_target()
        .ok_or_else(|| OpsError::NoTmux(session.name.clone()))?;
    if !session.status.is_live() {
        return Err(OpsError::NotLive(session.name.clone()));
    }
    Ok(name)
}

/// The hooks' record of an agent greenroom did not start, in the
/// adopted folder beside greenroom's own records.
fn adopted_record(session: &Session) -> Option<Uuid> {
    session.adopted.as_ref()?.record
}

/// The sidecar id of one of greenroom's own rows; other sources are refused.
fn own_id(session: &Session, action: &'static str) -> Result<Uuid, OpsError> {
    let not_ours = || OpsError::NotOurs {
        name: session.name.clone(),
        origin: match session.source {
            Source::Greenroom => "a greenroom",
            Source::Maestro => "a Maestro",
            Source::AgentOrchestrator => "an Agent Orchestrator",
            Source::Tmux => "an adopted",
        },
        action,
    };
    if session.source != Source::Greenroom {
        return Err(not_ours());
    }
    Uuid::parse_str(&session.id).map_err(|_| not_ours())
}

/// A missing session reported by tmux means the row was stale: not live.
fn not_live_if_missing(session: &Session) -> impl FnOnce(TmuxError) -> OpsError + '_ {
    move |e| match e {
        TmuxError::NoSession(_) | TmuxError::NoServer => OpsError::NotLive(session.name.clone()),
        e => OpsError::Tmux(e),
    }
}

/// The environment every session greenroom starts gets, so its agent's
/// hooks (`greenroom report`) find their sidecar.
fn session_env(id: Uuid, store: &SidecarStore) -> [(&'static str, String); 2] {
    let dir = std::path::absolute(store.dir()).unwrap_or_else(|_| store.dir().to_path_buf());
    [
        ("GREENROOM_SESSION_ID", id.to_string()),
        ("GREENROOM_SIDECAR_DIR", dir.to_string_lossy().into_owned()),
    ]
}

/// `tmux new-session` for a sidecar's session, as spawn and restore run it,
/// then checked: a session tmux started anywhere but `cwd` is ended again
/// and refused, so greenroom never claims a folder its agent is not in.
fn start_session(
    tmux: &Tmux,
    store: &SidecarStore,
    id: Uuid,
    tmux_session: &str,
    cwd: &std::path::Path,
    command: &str,
) -> Result<(), OpsError> {
    let env = session_env(id, store);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let made = tmux.new_session(tmux_session, cwd, &env, command)?;
    if let Err(e) = start_folder::check(tmux, &made.pane, cwd) {
        if let Err(kill) = tmux.kill_session_id(&made.session_id) {
            tracing::warn!(session = %made.session_id, error = %kill, "cannot end a session started in the wrong folder");
        }
        return Err(e);
    }
    Ok(())
}
