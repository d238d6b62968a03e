//! What tmux says against what the sidecars record.

use std::collections::BTreeMap;

use super::own::Own;
use crate::health::TmuxFacts;

/// A status the sidecar should record because tmux says otherwise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusUpdate {
    pub id: uuid::Uuid,
    pub status: crate::model::Status,
    pub exit_status: Option<i32>,
    /// What the file said when this was decided: the write happens only if
    /// it still says so, so a kill or restore in between is never undone.
    pub was: crate::model::Status,
}

impl Own {
    /// Records whose recorded status tmux (`facts`, once it answered)
    /// contradicts: a session that vanished is Dormant, one whose pane
    /// died is Exited with its status, one that is live is Running.
    pub(super) fn status_updates(&self, facts: &BTreeMap<String, TmuxFacts>) -> Vec<StatusUpdate> {
        use crate::model::Status;
        self.sidecars
            .values()
            .filter_map(|s| {
                let live = s.tmux_session.as_deref().and_then(|n| facts.get(n));
                let (status, exit_status) = match live {
                    Some(f) if f.pane_dead => (Status::Exited, f.exit_status),
                    Some(_) => (Status::Running, None),
                    None if matches!(
                        s.status,
                        Status::Killed | Status::Exited | Status::Dormant
                    ) =>
                    {
                        return None;
                    }
                    None => (Status::Dormant, s.exit_status),
                };
                (status != s.status || exit_status != s.exit_status).then_some(StatusUpdate {
                    id: s.id,
                    status,
                    exit_status,
                    was: s.status.clone(),
                })
            })
            .collect()
    }
}
