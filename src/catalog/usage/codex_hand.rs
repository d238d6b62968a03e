//! The rollout of a Codex CLI started by hand without greenroom's hooks (a
//! pane found running `codex`): what gives its row the thread id (what
//! `codex resume` takes) and Codex's own running token totals.
//!
//! The rule is exact, never a guess: Codex CLI holds its rollout open while
//! it runs. Its recorder hands the file to a writer task that keeps it until
//! the thread ends; a new thread creates the file at its first prompt, a
//! resumed one opens its old file at once (codex-rs'
//! `core/src/rollout/recorder.rs`; seen on the real 0.169.0 binary, whose
//! `/proc/<pid>/fd` names `…/sessions/YYYY/MM/DD/rollout-…-<id>.jsonl`). So
//! the rollout a pane's processes hold open (its first process and a few
//! levels below it: the npm `codex` is a node launcher running the native
//! binary) is that pane's Codex's, whatever folder or `CODEX_HOME` it runs
//! with. A match of the rollouts' `session_meta` (folder, start) against the
//! process's folder and start time is not made: two Codexes started in one
//! folder in the same second would fit it both ways.
//!
//! - One rollout held: that one.
//! - Several (a Codex may hold more than one thread's): the one found
//!   before, while it is still held; otherwise none: no guess.
//! - None yet (a new thread writes its rollout at the first prompt): none;
//!   the day folders it will be in are watched meanwhile.
//!
//! `/proc` is read only when the poll says a pane changed (a new pane, or
//! another program or process in it) and when a rollout not seen before
//! appears in a watched folder (a first prompt, `/new`), never when rows
//! are built. What the rollout then says is read as it grows, by the same
//! reader as greenroom's own Codex sessions' (`Transcripts`, watched).
//! Not caught: a `codex resume` whose old rollout was opened after the
//! poll that saw the pane change, in a day folder not watched; it is found
//! at the pane's next change or the next new rollout.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use super::UsageFiles;
use crate::model::Session;
use crate::sources::{codex_rollout, procs};
use crate::tmux::PaneId;

/// Rollouts remembered as no hand-started Codex's: a busy folder of other
/// Codexes' files is not looked at again for each of their writes. Past
/// this many, the memory starts again.
const MAX_SEEN: usize = 4096;

/// One pane found running Codex CLI, without hooks or with.
#[derive(Debug, Clone)]
struct Hand {
    /// The pane's first process: its family is where the rollout is held.
    pid: u32,
    /// When greenroom first saw it: the day folders from then are watched.
    since: DateTime<Utc>,
    /// The rollout its Codex holds, once it has one.
    rollout: Option<PathBuf>,
}

/// The panes found running Codex CLI and the rollout each holds.
#[derive(Debug, Default)]
pub(super) struct HandRollouts {
    panes: HashMap<PaneId, Hand>,
    /// Rollouts that appeared and were found held by no such pane.
    seen: HashSet<PathBuf>,
}

/// The rollout among the files `held` open, by the rule above: the only
/// one, or the one `before` while it is still among them.
fn choose(held: &[PathBuf], before: Option<&Path>) -> Option<PathBuf> {
    let mut rollouts: Vec<&PathBuf> = held
        .iter()
        .filter(|p| codex_rollout::is_rollout(p))
        .collect();
    rollouts.sort();
    rollouts.dedup();
    match rollouts.as_slice() {
        [one] => Some((*one).clone()),
        many => before
            .filter(|b| many.iter().any(|p| p.as_path() == *b))
            .map(Path::to_path_buf),
    }
}

/// The rollout a pane's processes hold open. Bounded IO (`/proc`).
fn held_by(pid: u32, before: Option<&Path>) -> Option<PathBuf> {
    let held: Vec<PathBuf> = procs::family(pid)
        .into_iter()
        .flat_map(procs::open_files)
        .collect();
    choose(&held, before)
}

impl UsageFiles {
    /// The panes the poll found running Codex (pane, first process): a new
    /// one, or one whose process changed, is looked at; those gone are
    /// forgotten, and the rollouts they held no longer read.
    pub(in crate::catalog) fn set_codex_panes(
        &mut self,
        panes: Vec<(PaneId, u32)>,
        now: DateTime<Utc>,
    ) {
        let mut next: HashMap<PaneId, Hand> = HashMap::with_capacity(panes.len());
        for (pane, pid) in panes {
            let kept = self.hand.panes.get(&pane).filter(|h| h.pid == pid).cloned();
            let hand = kept.unwrap_or_else(|| Hand {
                pid,
                since: now,
                rollout: held_by(pid, None),
            });
            next.insert(pane, hand);
        }
        let before = std::mem::replace(&mut self.hand.panes, next);
        for (pane, hand) in before {
            let now_held = self.hand.panes.get(&pane).and_then(|h| h.rollout.as_ref());
            if let Some(old) = hand.rollout.filter(|old| Some(old) != now_held) {
                self.release(&old);
            }
        }
        self.follow_hands();
    }

    /// Follows every held rollout (once usage is followed at all).
    pub(in crate::catalog) fn follow_hands(&mut self) -> bool {
        if !self.on {
            return false;
        }
        let held: Vec<PathBuf> = self
            .hand
            .panes
            .values()
            .filter_map(|h| h.rollout.clone())
            .collect();
        held.into_iter()
            .fold(false, |changed, p| self.transcripts.track(p) | changed)
    }

    /// Stops reading a rollout no pane holds any more, unless a session of
    /// greenroom's own names it.
    fn release(&mut self, old: &Path) {
        let named = self
            .paths
            .values()
            .chain(self.earlier.values().flatten())
            .chain(self.hand.panes.values().filter_map(|h| h.rollout.as_ref()))
            .any(|p| p == old);
        if !named {
            self.transcripts.untrack(old);
        }
    }

    /// Whether a pane's Codex holds `path` (a greenroom session's Codex
    /// cannot have written it).
    pub(super) fn held_by_hand(&self, path: &Path) -> bool {
        self.hand
            .panes
            .values()
            .any(|h| h.rollout.as_deref() == Some(path))
    }

    /// Where the panes' next rollouts will appear: the configured Codex
    /// home's day folders from when each pane was seen, and the folders
    /// of the rollouts they hold (their own `CODEX_HOME`'s).
    pub(super) fn hand_folders(&self) -> Vec<PathBuf> {
        let home = self.codex_dir.as_deref();
        let mut out: Vec<PathBuf> = self
            .hand
            .panes
            .values()
            .flat_map(|h| {
                let days = home.map(|home| codex_rollout::day_folders(home, h.since));
                let own = h.rollout.as_deref().and_then(Path::parent);
                days.into_iter().flatten().chain(own.map(Path::to_path_buf))
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// How many panes run Codex (what the watched folders grow with).
    pub(in crate::catalog) fn hand_count(&self) -> usize {
        self.hand.panes.len()
    }

    /// A new rollout (or a folder) where a pane's next one may be: the
    /// panes' open files are read again. `None` when the path is none of
    /// theirs; a rollout seen before is not looked at twice.
    pub(in crate::catalog) fn apply_codex_hand(&mut self, path: &Path) -> Option<bool> {
        if self.hand.panes.is_empty() {
            return None;
        }
        let folders = self.hand_folders();
        let folder = folders.iter().any(|f| f == path);
        let rollout = codex_rollout::is_rollout(path)
            && path
                .parent()
                .is_some_and(|d| folders.iter().any(|f| f == d));
        if !folder && !rollout {
            return None;
        }
        if rollout && (self.seen(path) || self.held_by_hand(path)) {
            return Some(false);
        }
        let changed = self.look_again();
        if rollout && !self.held_by_hand(path) {
            if self.hand.seen.len() >= MAX_SEEN {
                self.hand.seen.clear();
            }
            self.hand.seen.insert(path.to_path_buf());
        }
        Some(changed)
    }

    fn seen(&self, path: &Path) -> bool {
        self.hand.seen.contains(path)
    }

    /// Reads every pane's open files again. Returns whether a rollout changed.
    fn look_again(&mut self) -> bool {
        let mut released = Vec::new();
        let mut changed = false;
        for hand in self.hand.panes.values_mut() {
            let now = held_by(hand.pid, hand.rollout.as_deref());
            if now != hand.rollout {
                changed = true;
                released.extend(std::mem::replace(&mut hand.rollout, now));
            }
        }
        for old in released {
            self.release(&old);
        }
        changed | self.follow_hands()
    }

    /// A hand-started Codex's row given its rollout's thread id and usage
    /// (priced as greenroom's own Codex sessions' are). No IO.
    pub(in crate::catalog) fn codex_by_hand(
        &self,
        pane: &PaneId,
        row: &mut Session,
        now: DateTime<Utc>,
    ) {
        let Some(main) = self.hand.panes.get(pane).and_then(|h| h.rollout.as_ref()) else {
            return;
        };
        row.agent_session_id = self.transcripts.session_id(main).map(ToOwned::to_owned);
        row.usage = self.of_main(main, now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> PathBuf {
        PathBuf::from(s)
    }

    #[test]
    fn the_one_rollout_held_is_the_panes() {
        let db = p("/h/.codex/state_5.sqlite");
        let one = p("/h/.codex/sessions/2026/12/03/rollout-2026-12-03T07-44-43-a.jsonl");
        assert_eq!(choose(&[db.clone(), one.clone()], None), Some(one.clone()));
        // Held by two processes of the pane (a launcher and its binary).
        assert_eq!(choose(&[one.clone(), one.clone()], None), Some(one.clone()));
        assert_eq!(choose(&[db], None), None);
        assert_eq!(choose(&[], Some(&one)), None, "no longer held");
    }

    #[test]
    fn of_several_only_the_one_found_before_is_kept() {
        let a = p("/h/sessions/2026/12/03/rollout-2026-12-03T07-44-43-a.jsonl");
        let b = p("/h/sessions/2026/12/03/rollout-2026-12-03T07-45-00-b.jsonl");
        let both = [a.clone(), b.clone()];
        assert_eq!(choose(&both, None), None, "no guess");
        assert_eq!(choose(&both, Some(&a)), Some(a.clone()));
        let other = p("/h/sessions/2026/12/03/rollout-2026-12-03T07-40-00-c.jsonl");
        assert_eq!(choose(&both, Some(&other)), None);
        assert_eq!(
            choose(std::slice::from_ref(&b), Some(&a)),
            Some(b),
            "`/new`: the new one"
        );
    }
}
