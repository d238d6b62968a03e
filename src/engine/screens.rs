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
use crate::catalog::{Catalog, CodexPane};
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

impl LastLooks {
    /// Of `panes`, those never captured, and those whose window moved
    /// since their last capture at least [`SCREEN_EVERY`] ago; counted as
    /// captured at `now`. Panes no longer listed are forgotten.
    fn due(&mut self, panes: Vec<CodexPane>, now: Instant) -> Vec<PaneId> {
        let looks = &mut self.0;
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
}

impl Engine {
    /// The Codex panes to capture now (see the module's rule); they are
    /// counted as captured from here on.
    pub fn screens_due(&mut self, now: Instant) -> Vec<PaneId> {
        let panes = self.catalog.codex_panes();
        self.screen_looks.due(panes, now)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn pane(id: &str, activity_secs: i64) -> CodexPane {
        CodexPane {
            pane: PaneId::parse(id).unwrap(),
            window_activity: DateTime::from_timestamp(activity_secs, 0),
        }
    }

    #[test]
    fn a_pane_is_captured_when_it_moved_at_most_once_a_second() {
        let mut looks = LastLooks::default();
        let t0 = Instant::now();
        let ids = |v: Vec<PaneId>| v.iter().map(|p| p.to_string()).collect::<Vec<_>>();
        assert_eq!(
            ids(looks.due(vec![pane("%1", 10)], t0)),
            ["%1"],
            "never seen"
        );
        let later = t0 + SCREEN_EVERY * 5;
        assert!(looks.due(vec![pane("%1", 10)], later).is_empty(), "still");
        let soon = t0 + SCREEN_EVERY / 2;
        assert!(looks.due(vec![pane("%1", 11)], soon).is_empty(), "too soon");
        assert_eq!(ids(looks.due(vec![pane("%1", 11)], later)), ["%1"], "moved");
        // Gone, then back: captured again at once.
        assert!(looks.due(Vec::new(), later).is_empty());
        assert_eq!(ids(looks.due(vec![pane("%1", 11)], later)), ["%1"]);
    }
}
