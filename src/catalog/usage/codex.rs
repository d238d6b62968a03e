//! Which rollout is a Codex session's when no hook named it: the one Codex
//! began in the session's folder after greenroom started it (or, once the
//! session's id is known, the one of that id).

use std::path::{Path, PathBuf};

use super::UsageFiles;
use crate::sources::codex_rollout;
use crate::sources::sidecar::Sidecar;

/// Whether a session runs Codex CLI: its preset is `codex`, or its command's
/// program is.
pub(in crate::catalog) fn is_codex(s: &Sidecar) -> bool {
    let program = crate::model::program_of(&s.command)
        .map(|p| Path::new(p).file_name().is_some_and(|n| n == "codex"));
    s.agent.as_deref() == Some("codex") || program == Some(true)
}

/// The session's Codex home (its own `CODEX_HOME` when it was started
/// with one) and since when its rollout may have begun: its start, or
/// once its id is known its first start (`codex resume` goes on writing
/// the rollout it began with).
fn home_and_start(
    codex_home: Option<&Path>,
    s: &Sidecar,
) -> Option<(PathBuf, chrono::DateTime<chrono::Utc>)> {
    let own = s.env.get("CODEX_HOME").map(PathBuf::from);
    let home = own.or_else(|| codex_home.map(Path::to_path_buf))?;
    let since = match s.agent_session_id {
        Some(_) => s.created_at.or(s.restored_at),
        None => s.restored_at.or(s.created_at),
    };
    Some((home, since?))
}

/// The session's rollout, that `taken` does not give another session.
pub(super) fn rollout_of(
    codex_home: Option<&Path>,
    s: &Sidecar,
    taken: &dyn Fn(&Path) -> bool,
) -> Option<PathBuf> {
    let (home, since) = home_and_start(codex_home, s)?;
    let id = s.agent_session_id.as_deref();
    codex_rollout::locate(&home, &s.cwd, since, id, taken)
}

/// Codex writes a session's rollout only at its first prompt: until then
/// the session waits here, and the day folders it will be in are watched.
impl UsageFiles {
    /// After looking for a session's transcript: a Codex session without
    /// one waits for its rollout.
    pub(super) fn note_codex(&mut self, s: &Sidecar, found: bool) {
        if found || !is_codex(s) {
            self.codex_waiting.remove(&s.id);
        } else {
            self.codex_waiting.insert(s.id, s.clone());
        }
    }

    /// The folders the waiting sessions' rollouts will be in.
    pub(super) fn codex_folders(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = self
            .codex_waiting
            .values()
            .filter_map(|s| home_and_start(self.codex_dir.as_deref(), s))
            .flat_map(|(home, since)| codex_rollout::day_folders(&home, since))
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// A new file or folder where a waiting session's rollout may be: each
    /// waiting session looks again. `None` when the path is none of theirs.
    pub(in crate::catalog) fn apply_codex(&mut self, path: &Path) -> Option<bool> {
        let folders = self.codex_folders();
        let ours = folders
            .iter()
            .any(|f| f == path || (path.parent() == Some(f) && codex_rollout::is_rollout(path)));
        if !ours {
            return None;
        }
        let waiting: Vec<Sidecar> = self.codex_waiting.values().cloned().collect();
        Some(
            waiting
                .iter()
                .fold(false, |changed, s| self.track_main(s) | changed),
        )
    }
}
