//! Which rollout is a Codex session's when no hook named it: the one Codex
//! began in the session's folder after greenroom started it (or, once the
//! session's id is known, the one of that id).

use std::path::{Path, PathBuf};

use crate::sources::codex_rollout;
use crate::sources::sidecar::Sidecar;

/// Whether a session runs Codex CLI: its preset is `codex`, or its command's
/// program is.
pub(super) fn is_codex(s: &Sidecar) -> bool {
    let program = crate::model::program_of(&s.command)
        .map(|p| Path::new(p).file_name().is_some_and(|n| n == "codex"));
    s.agent.as_deref() == Some("codex") || program == Some(true)
}

/// The session's rollout under `codex_home` (its own `CODEX_HOME` when it
/// was started with one), that `taken` does not give another session.
pub(super) fn rollout_of(
    codex_home: Option<&Path>,
    s: &Sidecar,
    taken: &dyn Fn(&Path) -> bool,
) -> Option<PathBuf> {
    let own = s.env.get("CODEX_HOME").map(PathBuf::from);
    let home = own.as_deref().or(codex_home)?;
    let since = s.restored_at.or(s.created_at)?;
    let id = s.agent_session_id.as_deref();
    codex_rollout::locate(home, &s.cwd, since, id, taken)
}
