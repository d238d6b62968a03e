//! An OpenCode someone started by hand in a pane, without greenroom's
//! plugin (found by its program, `catalog::probe`): which of OpenCode's
//! sessions is its conversation, for its row's id and totals.
//!
//! The rule, in this one place:
//! - the session its argv names (`--session <id>`, `-s <id>`, not forked):
//!   OpenCode resumes exactly that one;
//! - else the session in the process's working folder (OpenCode records
//!   the folder it runs in) created or updated since the process started,
//!   the most recently updated (`/new` starts another: the latest written
//!   is the one in front), sessions another OpenCode's argv names
//!   excepted;
//! - no guess when another OpenCode with no session named runs in the
//!   same folder (found in another pane, or greenroom's own running
//!   there): both write sessions with that folder, and nothing in the
//!   database says which process wrote which. The id stays unknown.
//!
//! A sub-agent's session (its `parent_id`) counts toward its parent's, as
//! for greenroom's own. The process is read (`/proc`: its argv, folder and
//! start) once, when its pane's probe changes; the database when a new
//! one is followed and when it or its WAL changes, never while rows are
//! built.

use std::collections::HashMap;
use std::path::PathBuf;

use super::OpencodeStore;
use crate::catalog::probe::{Found, Probe};
use crate::model::{Session, Status};
use crate::sources::opencode_db::OpencodeSession;
use crate::sources::{opencode_cli, procs};
use crate::tmux::PaneId;

/// The agent name discovery gives OpenCode (`probe::KNOWN_AGENTS`).
const OPENCODE: &str = "opencode";

/// What an OpenCode process in a pane says of itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ByHand {
    pid: u32,
    /// Its working folder, as the system names it (as OpenCode records it).
    cwd: Option<PathBuf>,
    /// When it started, in OpenCode's milliseconds.
    started_ms: i64,
    /// The session its argv tells it to resume.
    named: Option<String>,
}

impl ByHand {
    /// Reads `found`'s process: bounded IO (`/proc`). `None` once it has
    /// gone.
    fn look(found: &Found) -> Option<ByHand> {
        Some(ByHand {
            pid: found.pid,
            cwd: found.cwd.clone(),
            started_ms: procs::started_ms(found.pid)?,
            named: opencode_cli::session_named(&procs::argv(found.pid)),
        })
    }
}

impl OpencodeStore {
    /// Follows the OpenCodes the panes were found running (and stops
    /// following those gone); a process not seen before is read, and the
    /// database then too. Returns whether rows may change.
    fn follow_panes(&mut self, probes: &HashMap<PaneId, Probe>) -> bool {
        let mut next = HashMap::new();
        let mut new = false;
        for (pane, found) in probes
            .iter()
            .filter_map(|(id, p)| Some((id, p.found.as_ref()?)))
        {
            if found.agent != OPENCODE {
                continue;
            }
            let known = self.by_hand.get(pane).filter(|h| h.pid == found.pid);
            let Some(h) = known.cloned().or_else(|| ByHand::look(found)) else {
                continue;
            };
            new |= known.is_none();
            next.insert(pane.clone(), h);
        }
        let changed = next != self.by_hand;
        self.by_hand = next;
        (new && self.refresh()) || changed
    }

    /// The OpenCode session that is the conversation of the OpenCode found
    /// in `pane`, by the rule above. No IO.
    pub(super) fn session_of_pane(&self, pane: &PaneId) -> Option<&OpencodeSession> {
        let h = self.by_hand.get(pane)?;
        let mut roots = self.sessions.iter().filter(|o| o.parent_id.is_none());
        if let Some(id) = &h.named {
            return roots.find(|o| o.id == *id);
        }
        let cwd = h.cwd.as_ref()?;
        if self.shares_folder(pane, cwd) {
            return None;
        }
        // `sessions` is most recently updated first.
        roots
            .filter(|o| o.directory == *cwd)
            .filter(|o| o.created_ms.max(o.updated_ms) >= h.started_ms)
            .find(|o| !self.named_elsewhere(&o.id))
    }

    /// Whether another OpenCode with no session named runs in `cwd`: one
    /// found in another pane, or one of greenroom's own sessions.
    fn shares_folder(&self, pane: &PaneId, cwd: &PathBuf) -> bool {
        let by_hand = self
            .by_hand
            .iter()
            .any(|(p, o)| p != pane && o.named.is_none() && o.cwd.as_ref() == Some(cwd));
        let own = self
            .followed
            .values()
            .any(|s| s.status == Status::Running && s.agent_session_id.is_none() && s.cwd == *cwd);
        by_hand || own
    }

    /// Whether an OpenCode's argv, or a report of greenroom's own, names
    /// the session `id`: it is that one's.
    fn named_elsewhere(&self, id: &str) -> bool {
        let by_hand = self
            .by_hand
            .values()
            .any(|h| h.named.as_deref() == Some(id));
        let own = self
            .followed
            .values()
            .any(|s| s.agent_session_id.as_deref() == Some(id));
        by_hand || own
    }

    /// Whether an OpenCode found in a pane has `o` as its conversation:
    /// no session of greenroom's own then.
    pub(super) fn taken_by_hand(&self, o: &OpencodeSession) -> bool {
        self.by_hand
            .keys()
            .any(|pane| self.session_of_pane(pane).is_some_and(|m| m.id == o.id))
    }

    /// Whether any OpenCode is found in a pane.
    pub(super) fn follows_panes(&self) -> bool {
        !self.by_hand.is_empty()
    }

    /// The earliest start of an OpenCode found in a pane, and the sessions
    /// their argv name: what the database is read for.
    pub(super) fn pane_reads(&self) -> (Option<i64>, Vec<&str>) {
        let since = self.by_hand.values().map(|h| h.started_ms).min();
        let named = self
            .by_hand
            .values()
            .filter_map(|h| h.named.as_deref())
            .collect();
        (since, named)
    }
}

/// What the catalog asks about OpenCodes found in panes.
impl super::super::UsageFiles {
    /// Follows the OpenCodes the panes were found running, when token usage
    /// is followed: called when the panes' probes change. Returns whether
    /// rows may change.
    pub(in crate::catalog) fn follow_opencode_panes(
        &mut self,
        probes: &HashMap<PaneId, Probe>,
    ) -> bool {
        self.on && self.opencode.follow_panes(probes)
    }

    /// The id and running totals of the OpenCode found in `pane`, on its
    /// row, when its conversation is known. No IO.
    pub(in crate::catalog) fn opencode_by_hand(&self, pane: &PaneId, row: &mut Session) {
        let Some(main) = self.opencode.session_of_pane(pane) else {
            return;
        };
        row.agent_session_id = Some(main.id.clone());
        row.usage = Some(self.judged(self.opencode.totals(main, &self.prices)));
    }
}

#[cfg(test)]
mod tests;
