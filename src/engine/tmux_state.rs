//! The engine's side of tmux: a poll taken or handed in, a refresh or a
//! closed window folded into the last poll, the statuses tmux contradicts
//! and the work trees whose pane moved.

use std::sync::atomic::Ordering;

use super::{Engine, STATUS_RETRY, owes_statuses, write_statuses};
use crate::catalog::StatusUpdate;
use crate::tmux::ServerState;

impl Engine {
    /// One tmux poll (one process for all sessions). Records status changes
    /// in the sidecars. Returns whether the rows changed.
    pub fn poll_tmux(&mut self) -> bool {
        let state = self.tmux.poll();
        self.set_tmux(state)
    }

    /// Applies a poll result taken elsewhere and records the statuses tmux
    /// changed in the sidecars, here and now; the Codex panes whose screen
    /// may have changed are captured here too (`watch` has no loop to keep
    /// free; the dashboard captures off its loop).
    pub fn set_tmux(&mut self, state: ServerState) -> bool {
        let (changed, updates) = self.set_tmux_deferred(state, chrono::Utc::now());
        write_statuses(&self.store, &updates);
        self.read_screens() || changed
    }

    /// As [`Self::set_tmux`], but hands back the status writes, so the event
    /// loop can do them off its thread: when a tmux server with a thousand
    /// sessions dies, that is a thousand fsyncs. Rows are read at `now`.
    pub fn set_tmux_deferred(
        &mut self,
        state: ServerState,
        now: chrono::DateTime<chrono::Utc>,
    ) -> (bool, Vec<StatusUpdate>) {
        let moved = self.moved_panes(&state);
        let watched = self.catalog.watch_targets_len_hint();
        let changed = self.catalog.set_tmux(state);
        let changed = self.watch_what_panes_brought(watched) || changed;
        if !moved.is_empty() {
            let rows = self.catalog.rows(now);
            for row in rows
                .iter()
                .filter(|r| r.tmux_session.as_ref().is_some_and(|n| moved.contains(n)))
            {
                if let Some(root) = self.catalog.work_tree_for(&row.cwd) {
                    self.git.mark(root);
                }
            }
        }
        let updates = if changed || STATUS_RETRY.load(Ordering::Relaxed) || owes_statuses() {
            self.catalog.status_updates()
        } else {
            Vec::new()
        };
        (changed, updates)
    }

    /// A pane found running an agent brings folders to watch (where a
    /// Codex's rollout will appear, OpenCode's database): armed now, and
    /// what they already hold read, since no event will come for it.
    /// Returns whether the rows changed.
    fn watch_what_panes_brought(&mut self, watched_before: usize) -> bool {
        if !self.watching || self.catalog.watch_targets_len_hint() == watched_before {
            return false;
        }
        let present = self.watcher.add_targets(&self.catalog.watch_targets());
        let failed = self.note_watch_failures();
        present
            .iter()
            .fold(failed, |changed, p| self.catalog.apply(p) || changed)
    }

    /// What tmux looks like with a refresh's sessions in place of theirs,
    /// or `None` when they are as the catalog has them; a refresh with no
    /// full poll before it to complete is no answer.
    pub fn refreshed(&self, part: &crate::tmux::Server) -> Option<ServerState> {
        match self.catalog.tmux_state() {
            Some(ServerState::Running(server)) if server.holds(part) => None,
            Some(ServerState::Running(server)) => {
                Some(ServerState::Running(server.refreshed(part)))
            }
            _ => None,
        }
    }

    /// What tmux looks like once window `id` closed (see
    /// [`crate::tmux::Server::without_window`]).
    pub fn without_window(&self, id: &str) -> ServerState {
        match self.catalog.tmux_state() {
            Some(ServerState::Running(server)) => ServerState::Running(server.without_window(id)),
            _ => ServerState::Error("a window closed before any poll".into()),
        }
    }

    /// The tmux sessions whose pane moved since the last poll.
    fn moved_panes(&mut self, state: &ServerState) -> std::collections::HashSet<String> {
        let ServerState::Running(map) = state else {
            return Default::default();
        };
        let mut moved = std::collections::HashSet::new();
        for (name, facts) in map.sessions() {
            let last = self
                .pane_activity
                .insert(name.clone(), facts.window_activity);
            if last.is_some_and(|l| l != facts.window_activity) {
                moved.insert(name.clone());
            }
        }
        self.pane_activity
            .retain(|n, _| map.sessions().contains_key(n));
        moved
    }
}
