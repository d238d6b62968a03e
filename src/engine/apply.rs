//! A batch of changes applied: git results taken, each changed path read
//! again, new folders armed and read until nothing new turns up, and the
//! rows handed back (all of them, or only those of records that changed
//! alone).

use std::path::PathBuf;

use chrono::{DateTime, Utc};

use super::change::{Change, split};
use super::{Engine, NewRows};
use crate::catalog::Applied;

/// New folders found while reading new folders: a bound, not a limit met in practice.
const MAX_NEW_FOLDER_ROUNDS: usize = 8;

/// What applying a batch has found so far.
struct Batch {
    changed: bool,
    /// The rows after the last change applied, once built.
    rows: Option<NewRows>,
    /// Records that changed alone, while nothing else did.
    records: Option<Vec<PathBuf>>,
}

impl Engine {
    /// Applies a batch of changes. Returns whether the rows changed.
    pub fn apply_changes(&mut self, changes: impl IntoIterator<Item = impl Into<Change>>) -> bool {
        self.apply_changes_rows(changes, Utc::now()).is_some()
    }

    /// As [`Self::apply_changes`], handing back the rows when they changed
    /// (built once, after the last change was applied) at `now`: all of
    /// them, or when only records changed whose rows reach no other (a
    /// sidecar rewritten, the common case) just those, for the caller to
    /// swap into the rows it holds from the last build.
    pub fn apply_changes_rows(
        &mut self,
        changes: impl IntoIterator<Item = impl Into<Change>>,
        now: DateTime<Utc>,
    ) -> Option<NewRows> {
        let (mut paths, git_ready) = split(changes);
        let git_changed = git_ready && self.take_git_results();
        for p in &paths {
            if let Some(root) = self.catalog.work_tree_of(p) {
                self.git.mark(root);
            }
        }
        if paths.is_empty() {
            return git_changed.then(|| NewRows::All(self.catalog.rows(now)));
        }
        paths.sort();
        paths.dedup();
        let mut reread = self.watcher.reconcile(&paths);
        reread.retain(|p| paths.binary_search(p).is_err());
        let pending = paths.iter().chain(&reread).cloned().collect();
        let grew = paths.iter().any(|p| p.is_dir());
        let mut batch = Batch {
            changed: false,
            rows: None,
            records: Some(Vec::new()),
        };
        self.apply_rounds(&mut batch, pending, grew, git_changed, now);
        // Arming new folders, or re-arming one that vanished, may fail.
        if self.note_watch_failures() {
            batch.changed = true;
            batch.rows = None;
        }
        if !(batch.changed || git_changed) {
            return None;
        }
        Some(
            batch
                .rows
                .unwrap_or_else(|| NewRows::All(self.catalog.rows(now))),
        )
    }

    /// Reading a folder can bring new folders to watch (a new session's
    /// Maestro state, a new AO project), and a folder watched for the
    /// first time must be read once armed: repeat until nothing new.
    fn apply_rounds(
        &mut self,
        batch: &mut Batch,
        mut pending: Vec<PathBuf>,
        mut grew: bool,
        git_changed: bool,
        now: DateTime<Utc>,
    ) {
        for round in 0..MAX_NEW_FOLDER_ROUNDS {
            let before = self.catalog.watch_targets_len_hint();
            let applied = self.apply_paths(std::mem::take(&mut pending), &mut batch.records);
            if round > 0 || git_changed {
                batch.records = None;
            }
            if applied {
                batch.changed = true;
                batch.rows = Some(self.rows_after(batch.records.as_mut(), now));
            }
            if self.catalog.watch_targets_len_hint() == before && !grew {
                break;
            }
            grew = false;
            pending = self.watcher.add_targets(&self.catalog.watch_targets());
            if pending.is_empty() {
                break;
            }
            batch.records = None;
        }
    }

    /// Applies each path; returns whether any changed what the catalog
    /// shows. `records` gathers the records that changed alone, and is
    /// `None` once anything else changed.
    fn apply_paths(&mut self, paths: Vec<PathBuf>, records: &mut Option<Vec<PathBuf>>) -> bool {
        let mut applied = false;
        for path in paths {
            match self.catalog.apply_path(&path) {
                Applied::Unchanged => {}
                Applied::Records(changed) => {
                    applied = true;
                    if let Some(r) = records {
                        r.extend(changed);
                    }
                }
                Applied::Other => {
                    applied = true;
                    *records = None;
                }
            }
        }
        applied
    }

    /// The rows once changes were applied: only those of the records that
    /// changed alone when their rows reach no other, else all of them.
    fn rows_after(&mut self, records: Option<&mut Vec<PathBuf>>, now: DateTime<Utc>) -> NewRows {
        if let Some(r) = records {
            // A record rewritten and its orchestration moved on, say.
            r.sort();
            r.dedup();
            if let Some(rows) = self.catalog.rows_of(r, now) {
                return NewRows::Changed(rows);
            }
        }
        NewRows::All(self.discover_work_trees(now))
    }

    /// Notes the folders that cannot be watched as problems. Returns
    /// whether there were any.
    pub(super) fn note_watch_failures(&mut self) -> bool {
        let failures = self.watcher.take_failures();
        let notes = self.watcher.take_notes();
        let any = !failures.is_empty() || !notes.is_empty();
        for (path, error) in failures {
            let reason = format!("cannot be watched ({error}); changes here may go unseen");
            self.catalog.note_problem(path, reason);
        }
        for (path, note) in notes {
            self.catalog.note_problem(path, note);
        }
        any
    }
}
