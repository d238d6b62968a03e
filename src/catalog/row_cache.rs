//! The rows of greenroom's own records, kept from one build to the next:
//! a change to one file of a thousand rebuilds one row, not a thousand.
//!
//! A kept row is used again only when everything it was built from is the
//! same: the record itself, whether it is archived, its orchestration (the
//! same shared state file read), what tmux says of its session and whether
//! tmux answered at all, the agent Maestro's hooks name for it, the
//! transcript's words for a vague error, Claude Code's own record of the
//! conversation, and the clock, up to the first
//! instant the health rules would read it differently
//! (`health::clock_moves_after`; a row's ages are times the view states).
//! So the dashboard's clock, moving once a second, rebuilds only the rows
//! whose health it turns. What a row's problems and usage say is not kept:
//! it is looked up again at each build (no IO either way).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};

use crate::health::TmuxFacts;
use crate::model::{Orchestration, Session};
use crate::sources::claude_registry::RegistryEntry;
use crate::sources::sidecar::Sidecar;

/// What the last build left for the next: the kept rows, how many it
/// made anew, whether its ids were all unique, and its clock. Interior,
/// because building rows reads the catalog (`&self`) and none of this is
/// part of what it says.
#[derive(Debug, Default)]
pub(super) struct BuildCache {
    pub(super) rows: RowCache,
    pub(super) built: AtomicUsize,
    /// Whether the last build's ids were all unique (none renamed).
    pub(super) ids_unique: AtomicBool,
    /// When the last build read the clock, and whether it holds rows the
    /// clock may change at any time (see [`super::Catalog::clock_moves_rows`]).
    pub(super) last_build: Mutex<Option<(DateTime<Utc>, bool)>>,
}

impl BuildCache {
    /// Whether the rows at `now` may differ from the last build's by the
    /// clock alone (see [`super::Catalog::clock_moves_rows`]).
    pub(super) fn clock_moves(&self, now: DateTime<Utc>) -> bool {
        let last = *self.last_build.lock().unwrap_or_else(|p| p.into_inner());
        match last {
            None => true,
            Some((at, timed)) => {
                now < at
                    || (timed && now != at)
                    || self.rows.earliest_until().is_some_and(|u| now >= u)
            }
        }
    }
}

/// What one row was built from.
#[derive(Debug)]
pub(super) struct Inputs<'a> {
    pub sidecar: &'a Sidecar,
    pub archived: bool,
    pub orchestration: Option<&'a Arc<Orchestration>>,
    /// Whether tmux has answered at all (else the record's status stands).
    pub tmux_known: bool,
    pub live: Option<&'a TmuxFacts>,
    pub active_agent: Option<&'a str>,
    pub error_words: Option<&'a str>,
    /// Claude Code's own record of the conversation (it hears an interrupt).
    pub record: Option<&'a RegistryEntry>,
    pub now: DateTime<Utc>,
    /// The first instant after `now` the clock could change the row.
    pub until: Option<DateTime<Utc>>,
}

/// [`Inputs`], owned, as kept beside the row.
#[derive(Debug)]
struct Key {
    sidecar: Sidecar,
    archived: bool,
    orchestration: Option<Arc<Orchestration>>,
    tmux_known: bool,
    live: Option<TmuxFacts>,
    active_agent: Option<String>,
    error_words: Option<String>,
    record: Option<RegistryEntry>,
    /// When the row was built, and until when the clock leaves it as it is.
    built: DateTime<Utc>,
    until: Option<DateTime<Utc>>,
}

impl Key {
    fn of(i: &Inputs<'_>) -> Self {
        Key {
            sidecar: i.sidecar.clone(),
            archived: i.archived,
            orchestration: i.orchestration.cloned(),
            tmux_known: i.tmux_known,
            live: i.live.cloned(),
            active_agent: i.active_agent.map(ToOwned::to_owned),
            error_words: i.error_words.map(ToOwned::to_owned),
            record: i.record.cloned(),
            built: i.now,
            until: i.until,
        }
    }

    /// Whether the clock at `now` leaves the row as it was built.
    fn holds_at(&self, now: DateTime<Utc>) -> bool {
        self.built <= now && self.until.is_none_or(|u| now < u)
    }

    /// Whether the row was built from these inputs but the clock has turned
    /// it since: its key is kept, only the row is built again.
    fn matches_but_the_clock(&self, i: &Inputs<'_>) -> bool {
        !self.holds_at(i.now) && self.same_facts(i)
    }

    fn matches(&self, i: &Inputs<'_>) -> bool {
        self.holds_at(i.now) && self.same_facts(i)
    }

    /// Cheapest first: tmux's facts change most often.
    fn same_facts(&self, i: &Inputs<'_>) -> bool {
        self.archived == i.archived
            && self.tmux_known == i.tmux_known
            && self.live.as_ref() == i.live
            && match (&self.orchestration, i.orchestration) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
            && self.active_agent.as_deref() == i.active_agent
            && self.error_words.as_deref() == i.error_words
            && self.record.as_ref() == i.record
            && self.sidecar == *i.sidecar
    }
}

#[derive(Debug)]
struct Kept {
    key: Key,
    row: Session,
}

/// Rows in the order they were built: greenroom's records, then its
/// archived ones, each by file name. Interior, because building rows reads
/// the catalog (`&self`) and the cache is no part of what it says.
#[derive(Debug, Default)]
pub(super) struct RowCache {
    kept: Mutex<Vec<Entry>>,
}

/// (archived, file): the order rows are built in, so one walk finds each.
type Entry = ((bool, PathBuf), Box<Kept>);

/// One build's use of the cache: rows not asked for in it are dropped at
/// its end (a removed record leaves nothing behind).
pub(super) struct Build<'c> {
    cache: &'c RowCache,
    old: std::iter::Peekable<std::vec::IntoIter<Entry>>,
    new: Vec<Entry>,
    /// Rows built rather than reused, for tests.
    built: usize,
}

impl RowCache {
    pub(super) fn begin(&self) -> Build<'_> {
        let old = std::mem::take(&mut *self.kept.lock().unwrap_or_else(|p| p.into_inner()));
        let new = Vec::with_capacity(old.len());
        Build {
            cache: self,
            old: old.into_iter().peekable(),
            new,
            built: 0,
        }
    }
}

impl RowCache {
    /// The row of one live record that changed since the last build, built
    /// at that build's clock, when `alone` says the change reaches no other
    /// row (given the record as that build read it). `None`: build them all.
    /// The record shows the orchestration it showed: the same one, or the
    /// same running state file read again (it moved on). A row built here
    /// is kept as any other, so the next build agrees.
    pub(super) fn replace(
        &self,
        path: &Path,
        inputs: Inputs<'_>,
        alone: impl FnOnce(&Sidecar) -> bool,
        build: impl FnOnce() -> Session,
    ) -> Option<Session> {
        let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        let wanted = (inputs.archived, path);
        let i = kept
            .binary_search_by(|((a, p), _)| (*a, p.as_path()).cmp(&wanted))
            .ok()?;
        let entry = &mut kept[i].1;
        let key = &entry.key;
        let same_world = key.holds_at(inputs.now)
            && key.archived == inputs.archived
            && key.tmux_known == inputs.tmux_known
            && match (&key.orchestration, inputs.orchestration) {
                (Some(a), Some(b)) => {
                    Arc::ptr_eq(a, b) || (a.path == b.path && !a.archived && !b.archived)
                }
                (None, None) => true,
                _ => false,
            };
        if !same_world || !alone(&key.sidecar) {
            return None;
        }
        if !key.matches(&inputs) {
            entry.key = Key::of(&inputs);
            entry.row = build();
        }
        Some(entry.row.clone())
    }
}

impl RowCache {
    /// The live records whose last built rows show one of `orchestrations`
    /// (as read then), when every one of them shows in such a row alone:
    /// `None` when one shows in an archived record's row, or in no
    /// record's row (it is a row of its own, or not shown). Pointers are
    /// compared: a scan of the kept rows costs microseconds.
    pub(super) fn showing(&self, orchestrations: &[Arc<Orchestration>]) -> Option<Vec<PathBuf>> {
        let kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        let mut seen = vec![false; orchestrations.len()];
        let mut records = Vec::new();
        for ((archived, path), entry) in kept.iter() {
            let Some(shown) = &entry.key.orchestration else {
                continue;
            };
            let Some(i) = orchestrations.iter().position(|o| Arc::ptr_eq(o, shown)) else {
                continue;
            };
            if *archived {
                return None;
            }
            seen[i] = true;
            records.push(path.clone());
        }
        seen.iter().all(|s| *s).then_some(records)
    }

    /// The first instant the clock turns a kept row.
    pub(super) fn earliest_until(&self) -> Option<DateTime<Utc>> {
        let kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        kept.iter().filter_map(|(_, k)| k.key.until).min()
    }
}

impl Build<'_> {
    /// The kept row for `path` if it was built from `inputs`, else `build`'s.
    /// Paths must come in the order [`Entry`] says, as the catalog's maps
    /// give them.
    pub(super) fn row(
        &mut self,
        path: &Path,
        inputs: Inputs<'_>,
        build: impl FnOnce() -> Session,
    ) -> Session {
        let archived = inputs.archived;
        let wanted = (archived, path);
        // Records gone since the last build are passed over (and dropped).
        while self
            .old
            .next_if(|((a, p), _)| (*a, p.as_path()) < wanted)
            .is_some()
        {}
        let found = self.old.next_if(|((a, p), _)| (*a, p.as_path()) == wanted);
        if let Some((path, mut kept)) = found {
            if kept.key.matches(&inputs) {
                let row = kept.row.clone();
                self.new.push((path, kept));
                return row;
            }
            if kept.key.matches_but_the_clock(&inputs) {
                self.built += 1;
                (kept.key.built, kept.key.until) = (inputs.now, inputs.until);
                kept.row = build();
                let row = kept.row.clone();
                self.new.push((path, kept));
                return row;
            }
        }
        self.built += 1;
        let row = build();
        let kept = Kept {
            key: Key::of(&inputs),
            row: row.clone(),
        };
        self.new
            .push(((archived, path.to_path_buf()), Box::new(kept)));
        row
    }

    /// Keeps this build's rows for the next; returns how many were built.
    pub(super) fn finish(self) -> usize {
        *self.cache.kept.lock().unwrap_or_else(|p| p.into_inner()) = self.new;
        self.built
    }
}

#[cfg(test)]
mod tests;
