//! Agents started by hand in panes, whose own records carry their id and
//! usage: a Codex's rollout (the file its process holds open,
//! `codex_hand`) and an OpenCode's session in its database
//! (`opencode::by_hand`). One entry for the catalog: which panes to
//! follow when the poll's probes change, and what a pane's row gets.

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use super::UsageFiles;
use crate::catalog::probe::Probe;
use crate::model::Session;
use crate::tmux::PaneId;

impl UsageFiles {
    /// Follows the agents the panes were found running (called when the
    /// probes change): a Codex's held rollout, an OpenCode's session.
    /// Returns whether rows may change.
    pub(in crate::catalog) fn follow_panes(
        &mut self,
        probes: &HashMap<PaneId, Probe>,
        now: DateTime<Utc>,
    ) -> bool {
        let codex = probes
            .iter()
            .filter(|(_, p)| p.found.as_ref().is_some_and(|f| f.agent == "codex"))
            .map(|(id, p)| (id.clone(), p.pid))
            .collect();
        self.set_codex_panes(codex, now);
        self.follow_opencode_panes(probes)
    }

    /// Starts reading what the agents in panes hold, once usage is
    /// followed at all (see `Catalog::load_usage`).
    pub(in crate::catalog) fn load_panes(&mut self, probes: &HashMap<PaneId, Probe>) -> bool {
        self.follow_hands() | self.follow_opencode_panes(probes)
    }

    /// The id and running totals of the agent found in `pane`, on its row,
    /// when its own record is known. No IO.
    pub(in crate::catalog) fn by_hand(&self, pane: &PaneId, row: &mut Session, now: DateTime<Utc>) {
        self.codex_by_hand(pane, row, now);
        self.opencode_by_hand(pane, row);
    }
}
