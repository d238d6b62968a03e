//! The rows the dashboard lists: every session the engine and the hosts
//! sent, the problems found reading them, and which of the rows the sidebar
//! shows. The update and hosts reducers replace the rows and problems;
//! [`super::state::AppState::refresh_visible`] recomputes `visible` from
//! them and the navigation's sort and filters. The views only read it.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::model::{Health, Problem, RowKey, Session};

#[derive(Debug, Clone, PartialEq, Default)]
pub struct RowList {
    /// Every row, in the catalog's order (last focus).
    pub rows: Vec<Session>,
    /// Indices into `rows`: what the sidebar shows, in order.
    pub visible: Vec<usize>,
    pub problems: Vec<Problem>,
    /// Where sessions were looked for, for the empty state.
    pub looked_in: Vec<PathBuf>,
    /// How many times the list was sorted anew (a host's burst of lines is
    /// one sort, whatever its length): counted for tests.
    pub sorts: u64,
    /// What the rows that left the list had spent, by row: the money was
    /// spent all the same, so the header's total keeps it (a row that
    /// comes back, the archive shown again, counts as a row again).
    pub spent_gone: HashMap<RowKey, f64>,
}

impl RowList {
    /// The row `id`, shown or not.
    pub fn row(&self, id: &RowKey) -> Option<&Session> {
        self.rows.iter().find(|r| r.is(id))
    }

    /// The key of the session on the sidebar's line `line`.
    pub fn key_at(&self, line: usize) -> Option<RowKey> {
        self.visible
            .get(line)
            .and_then(|&i| self.rows.get(i))
            .map(Session::key)
    }

    /// The line of the sidebar showing the session `id`, if it is shown.
    pub fn position(&self, id: &RowKey) -> Option<usize> {
        self.visible
            .iter()
            .position(|&i| self.rows.get(i).is_some_and(|r| r.is(id)))
    }

    /// The session `id`, if the sidebar shows it.
    pub fn shown(&self, id: &RowKey) -> Option<&Session> {
        self.visible_sessions().find(|s| s.is(id))
    }

    pub fn visible_sessions(&self) -> impl Iterator<Item = &Session> {
        self.visible.iter().map(|&i| &self.rows[i])
    }

    /// How many sessions are in each health class (all rows, unfiltered).
    pub fn counts(&self) -> HashMap<Health, usize> {
        let mut counts = HashMap::new();
        for r in self.rows.iter().filter(|r| !r.archived) {
            *counts.entry(r.health).or_insert(0) += 1;
        }
        counts
    }
}
