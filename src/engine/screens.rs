//! Codex CLI's screens: which of its panes to capture, the captures (tmux
//! IO: off the dashboard's loop, see `tui::shell::runner`), and what they
//! showed handed to the catalog as a fact (`catalog::screens`).
//!
//! A capture is a tmux process, so not every poll takes one: only a Codex
//! pane whose window moved since its last capture, and (Codex redraws all
//! the while it asks) at most once per [`SCREEN_EVERY`] per pane.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use super::Engine;
use crate::catalog::Catalog;
use crate::model::PaneId;
use crate::sources::codex_screen::{self, CodexApproval};
use crate::tmux::Tmux;

/// The least time between two captures of one pane.
pub const SCREEN_EVERY: Duration = Duration::from_secs(1);

/// What one capture of a pane showed: `None`, no question.
pub type Seen = (PaneId, Option<CodexApproval>);

/// Each Codex pane's last capture: its window's activity then, and when.
#[derive(Debug, Default)]
pub(super) struct LastLooks(HashMap<PaneId, (Option<DateTime<Utc>>, Instant)>);

impl Engine {
    /// The Codex panes to capture now (see the module's rule); they are
    /// counted as captured from here on.
    pub fn screens_due(&mut self, now: Instant) -> Vec<PaneId> {
        let panes = self.catalog.codex_panes();
        let looks = &mut self.screen_looks.0;
        looks.retain(|pane, _| panes.iter().any(|p| p.pane == *pane));
        let mut due = Vec::new();
        for p in panes {
            let moved = looks.get(&p.pane).is_none_or(|(activity, at)| {
                *activity != p.window_activity && now.duration_since(*at) >= SCREEN_EVERY
            });
            if moved {
                looks.insert(p.pane.clone(), (p.window_activity, now));
                due.push(p.pane);
            }
        }
        due
    }

    /// Hands what the captures showed to the catalog. Returns whether the
    /// rows changed.
    pub fn set_screens(&mut self, seen: Vec<Seen>) -> bool {
        let mut changed = false;
        for (pane, asked) in seen {
            changed |= self.catalog.set_screen(&pane, asked);
        }
        changed
    }

    /// [`Self::screens_due`], captured here and handed in: for callers
    /// with no loop to keep free (`watch`).
    pub fn read_screens(&mut self) -> bool {
        let due = self.screens_due(Instant::now());
        let seen = capture_screens(&self.tmux, &due);
        self.set_screens(seen)
    }
}

/// Captures each pane (its visible screen alone, through the tmux module's
/// bounded run) and reads Codex's question off it. A pane that cannot be
/// captured is left out: what it showed last stands until the next poll
/// says whether it is still there.
pub fn capture_screens(tmux: &Tmux, panes: &[PaneId]) -> Vec<Seen> {
    panes
        .iter()
        .filter_map(|pane| {
            let text = tmux.capture_text(crate::model::TmuxTarget::Pane(pane.clone()));
            match text {
                Ok(text) => Some((pane.clone(), codex_screen::approval(&text))),
                Err(e) => {
                    tracing::debug!(error = %e, %pane, "cannot capture a Codex pane");
                    None
                }
            }
        })
        .collect()
}

/// Every Codex pane's screen, read once into `catalog`: what a one-shot
/// command (`ls`, `next`) sees. Returns whether the rows changed.
pub fn read_codex_screens(catalog: &mut Catalog, tmux: &Tmux) -> bool {
    let panes: Vec<PaneId> = catalog.codex_panes().into_iter().map(|p| p.pane).collect();
    let mut changed = false;
    for (pane, asked) in capture_screens(tmux, &panes) {
        changed |= catalog.set_screen(&pane, asked);
    }
    changed
}
