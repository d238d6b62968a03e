//! Start-up recovery: records whose tmux session still runs are adopted,
//! the rest turn dormant, and records whose folder is gone are archived.

use std::path::PathBuf;

use super::{Engine, write_statuses};
use crate::catalog::StatusUpdate;
use crate::model::Status;
use crate::tmux::ServerState;

/// What start-up recovery did: records whose tmux session still runs
/// (adopted), records of sessions that are gone (now dormant), and records
/// whose folder is gone (archived, where they went).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Recovery {
    pub adopted: usize,
    pub dormant: usize,
    pub archived: Vec<PathBuf>,
}

impl Engine {
    /// Start-up recovery: adopt live sessions, mark the rest dormant, and
    /// move records whose folder is gone to the archive. Needs tmux's answer;
    /// without tmux nothing is changed.
    pub fn recover(&mut self) -> Recovery {
        let (report, statuses) = self.recover_deferred();
        write_statuses(&self.store, &statuses);
        report
    }

    /// As [`Self::recover`], but hands back the status writes, for the
    /// dashboard to do after its first frame, off its loop: after a reboot
    /// every session turns dormant, and 1,000 fsyncs would hold the first
    /// frame for a third of a second (10,000: seconds). The rows say
    /// dormant already; the files follow.
    pub fn recover_deferred(&mut self) -> (Recovery, Vec<StatusUpdate>) {
        let state = self.tmux.poll();
        let live: Option<std::collections::BTreeSet<String>> = match &state {
            ServerState::Running(map) => Some(map.keys().cloned().collect()),
            ServerState::NoServer => Some(Default::default()),
            ServerState::NotInstalled | ServerState::Error(_) => None,
        };
        let mut report = Recovery::default();
        let Some(live) = live else {
            return (report, Vec::new());
        };
        let sidecars: Vec<_> = self.catalog.sidecars().cloned().collect();
        let mut gone = Vec::new();
        for s in sidecars {
            let is_live = s.tmux_session.as_ref().is_some_and(|n| live.contains(n));
            if is_live {
                report.adopted += 1;
                continue;
            }
            // A worktree whose folder is gone can be recreated from its
            // branch on restore, as long as its repository is still there.
            let recoverable = s.worktree.as_ref().is_some_and(|w| w.repo.is_dir());
            if !s.cwd.is_dir() && !recoverable {
                match self.store.archive(s.id) {
                    Ok(to) => {
                        report.archived.push(to);
                        gone.push(self.store.path_for(s.id));
                    }
                    Err(e) => tracing::warn!(id = %s.id, error = %e, "cannot archive"),
                }
                continue;
            }
            if matches!(s.status, Status::Running | Status::Unknown(_)) {
                report.dormant += 1;
            }
        }
        // Adopted and dormant statuses are written by the regular path.
        let (_, statuses) = self.set_tmux_deferred(state, chrono::Utc::now());
        // Records of agents greenroom did not start, whose pane has closed.
        for path in self.catalog.stale_adopted() {
            if let Err(e) = std::fs::remove_file(&path) {
                tracing::warn!(path = %path.display(), error = %e, "cannot remove a stale record");
            }
            if let (Some(dir), Some(stem)) = (path.parent(), path.file_stem()) {
                let _ = std::fs::remove_file(dir.join(format!(".{}.lock", stem.to_string_lossy())));
            }
            gone.push(path);
        }
        self.apply_changes(gone);
        (report, statuses)
    }
}
