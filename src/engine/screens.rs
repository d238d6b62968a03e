//! The screens of Codex CLI and OpenCode: which of their panes to capture, the captures (tmux
//! IO: off the dashboard's loop, see `tui::shell::runner`), and what they
//! showed handed to the catalog as a fact (`catalog::screens`).
//!
//! A capture is a tmux process, so not every poll takes one: only such a
//! pane whose window moved since its last capture, and (Codex redraws all
//! the while it asks) at most once per [`SCREEN_EVERY`] per pane. A pane
//! that moved too soon after its last capture stays due: its last drawing
//! (OpenCode draws its prompt, then nothing) is captured once the time is up.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use super::Engine;
use crate::catalog::{Asked, Catalog, ScreenPane};
use crate::model::PaneId;
use crate::tmux::Tmux;

/// The least time between two captures of one pane.
pub const SCREEN_EVERY: Duration = Duration::from_secs(1);

/// What one capture of a pane showed: `None`, no question.
pub type Seen = (PaneId, Option<Asked>);

/// tmux counts a window's activity in whole seconds: what a pane draws
/// later in the second of a capture does not move it again. A capture this
/// long after the window's last activity saw its last drawing.
const SETTLED_AFTER: chrono::TimeDelta = chrono::TimeDelta::seconds(2);

/// One pane's last capture: its window's activity then, when, and whether
/// it came late enough to have seen the last drawing.
#[derive(Debug, Clone, Copy)]
struct Look {
    activity: Option<DateTime<Utc>>,
    at: Instant,
    settled: bool,
}

/// Each such pane's last capture.
#[derive(Debug, Default)]
pub(super) struct LastLooks(HashMap<PaneId, Look>);

impl LastLooks {
    /// Of `panes`, those never captured, and those whose window moved (or
    /// whose last capture may have missed the last drawing) since their
    /// last capture at least [`SCREEN_EVERY`] ago; counted as captured at
    /// `now` (`wall`, the clock's time). Panes no longer listed are forgotten.
    fn due(&mut self, panes: Vec<ScreenPane>, now: Instant, wall: DateTime<Utc>) -> Vec<PaneId> {
        let looks = &mut self.0;
        looks.retain(|pane, _| panes.iter().any(|p| p.pane == *pane));
        let mut due = Vec::new();
        for p in panes {
            let moved = looks.get(&p.pane).is_none_or(|last| {
                let changed = last.activity != p.window_activity || !last.settled;
                changed && now.duration_since(last.at) >= SCREEN_EVERY
            });
            if moved {
                let settled = p.window_activity.is_some_and(|a| wall - a >= SETTLED_AFTER);
                let look = Look {
                    activity: p.window_activity,
                    at: now,
                    settled,
                };
                looks.insert(p.pane.clone(), look);
                due.push(p.pane);
            }
        }
        due
    }
}

impl Engine {
    /// The Codex and OpenCode panes to capture now (see the module's rule); they are
    /// counted as captured from here on.
    pub fn screens_due(&mut self, now: Instant) -> Vec<PaneId> {
        let panes = self.catalog.screen_panes();
        self.screen_looks.due(panes, now, Utc::now())
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
/// bounded run) and reads its agent's question off it. A pane that cannot be
/// captured is left out: what it showed last stands until the next poll
/// says whether it is still there.
pub fn capture_screens(tmux: &Tmux, panes: &[PaneId]) -> Vec<Seen> {
    panes
        .iter()
        .filter_map(|pane| {
            let text = tmux.capture_text(crate::model::TmuxTarget::Pane(pane.clone()));
            match text {
                Ok(text) => Some((pane.clone(), Asked::read(&text))),
                Err(e) => {
                    tracing::debug!(error = %e, %pane, "cannot capture an agent's pane");
                    None
                }
            }
        })
        .collect()
}

/// Every Codex and OpenCode pane's screen, read once into `catalog`: what
/// a one-shot command (`ls`, `next`) sees. Returns whether the rows changed.
pub fn read_agent_screens(catalog: &mut Catalog, tmux: &Tmux) -> bool {
    let panes: Vec<PaneId> = catalog.screen_panes().into_iter().map(|p| p.pane).collect();
    let mut changed = false;
    for (pane, asked) in capture_screens(tmux, &panes) {
        changed |= catalog.set_screen(&pane, asked);
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pane(id: &str, activity_secs: i64) -> ScreenPane {
        ScreenPane {
            pane: PaneId::parse(id).unwrap(),
            window_activity: DateTime::from_timestamp(activity_secs, 0),
        }
    }

    #[test]
    fn a_pane_is_captured_when_it_moved_at_most_once_a_second() {
        let mut looks = LastLooks::default();
        let t0 = Instant::now();
        // Long after the activities below: every capture is settled.
        let wall = DateTime::from_timestamp(1000, 0).unwrap();
        let ids = |v: Vec<PaneId>| v.iter().map(|p| p.to_string()).collect::<Vec<_>>();
        assert_eq!(
            ids(looks.due(vec![pane("%1", 10)], t0, wall)),
            ["%1"],
            "never seen"
        );
        let later = t0 + SCREEN_EVERY * 5;
        assert!(
            looks.due(vec![pane("%1", 10)], later, wall).is_empty(),
            "still"
        );
        let soon = t0 + SCREEN_EVERY / 2;
        assert!(
            looks.due(vec![pane("%1", 11)], soon, wall).is_empty(),
            "too soon"
        );
        assert_eq!(
            ids(looks.due(vec![pane("%1", 11)], later, wall)),
            ["%1"],
            "moved"
        );
        // Gone, then back: captured again at once.
        assert!(looks.due(Vec::new(), later, wall).is_empty());
        assert_eq!(ids(looks.due(vec![pane("%1", 11)], later, wall)), ["%1"]);
    }

    #[test]
    fn a_capture_in_the_second_of_the_last_drawing_is_taken_again() {
        let mut looks = LastLooks::default();
        let t0 = Instant::now();
        let drawn = DateTime::from_timestamp(10, 0).unwrap();
        // Captured in the second the window last moved: the agent may
        // have drawn more in that second (its prompt) without moving it.
        assert_eq!(looks.due(vec![pane("%1", 10)], t0, drawn).len(), 1);
        let soon = t0 + SCREEN_EVERY / 2;
        assert!(looks.due(vec![pane("%1", 10)], soon, drawn).is_empty());
        let later = t0 + SCREEN_EVERY;
        let after = drawn + SETTLED_AFTER;
        assert_eq!(looks.due(vec![pane("%1", 10)], later, after).len(), 1);
        // That one saw the last drawing: no more captures while still.
        let much_later = later + SCREEN_EVERY * 10;
        assert!(
            looks
                .due(vec![pane("%1", 10)], much_later, after)
                .is_empty()
        );
    }
}
