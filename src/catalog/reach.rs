//! How far a change reaches among the rows: the rows of records that
//! changed alone, swapped into the last build's (a sidecar rewritten), and
//! whether the clock alone changes any row (the dashboard's tick). No IO.

use std::path::PathBuf;
use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::Catalog;
use super::row_cache::Inputs;
use super::rows::Facts;
use super::word::sidecar_signal_at;
use crate::health::{self, TmuxFacts};
use crate::model::{Orchestration, Session};
use crate::sources::sidecar::Sidecar;

impl Catalog {
    /// The new rows of records that changed alone since the last build
    /// ([`super::Applied::Records`]), when that build's rows stay true for
    /// every other row: read at the same clock, each record still the same
    /// row (id, tmux session, folders, orchestration), every id unique.
    /// `None`: [`Self::rows`] must build them all. The caller holds the
    /// last build's rows and swaps these in by id; their order is its.
    pub fn rows_of(&self, paths: &[PathBuf], now: DateTime<Utc>) -> Option<Vec<Session>> {
        if !self
            .cache
            .ids_unique
            .load(std::sync::atomic::Ordering::Relaxed)
            || self.clock_moves_rows(now)
        {
            return None;
        }
        let facts = self.tmux_facts();
        paths
            .iter()
            .map(|path| {
                let sidecar = self.own.sidecars.get(path)?;
                let orchestration = self.orchestration_for(sidecar);
                let inputs = self.inputs(sidecar, false, orchestration.as_ref(), facts, now);
                let alone = |before: &Sidecar| same_row(before, sidecar);
                let mut row = self.cache.rows.replace(path, inputs, alone, || {
                    self.sidecar_row(path, sidecar, orchestration.clone(), false, &facts, now)
                })?;
                self.fresh_parts(&mut row, path, sidecar, now);
                self.git.attach(std::slice::from_mut(&mut row));
                Some(row)
            })
            .collect()
    }

    /// What a record's row is built from, as the cache compares it.
    pub(super) fn inputs<'a>(
        &'a self,
        sidecar: &'a Sidecar,
        archived: bool,
        orchestration: Option<&'a Arc<Orchestration>>,
        facts: Facts<'a>,
        now: DateTime<Utc>,
    ) -> Inputs<'a> {
        let tmux_session = sidecar.tmux_session.as_deref();
        let live = facts
            .and_then(|f| f.get(tmux_session?))
            .filter(|_| !archived);
        Inputs {
            sidecar,
            archived,
            orchestration,
            tmux_known: facts.is_some(),
            live,
            active_agent: self.active_agent_of(sidecar),
            error_words: self.usage.error_words(sidecar),
            record: self
                .registry
                .of_session(sidecar.agent_session_id.as_deref())
                .filter(|_| !archived),
            now,
            until: self.clock_moves(sidecar, live, orchestration.map(|o| &**o), now),
        }
    }

    /// The live records whose rows show these orchestrations, as the last
    /// build read them, when only such rows show them (see
    /// [`super::row_cache::RowCache::showing`]). Which record shows which
    /// orchestration has not changed since: only a record's folders decide
    /// it, and a running orchestration that moved on (the only change
    /// asked about) keeps its file.
    pub(super) fn shown_by(&self, before: &[Arc<Orchestration>]) -> Option<Vec<PathBuf>> {
        self.cache.rows.showing(before)
    }

    /// Whether the rows at `now` may differ from the last build's by the
    /// clock alone: a kept row's health turns, or the last build holds
    /// rows the clock may change at any time (Maestro's, AO's, adopted
    /// ones, a falling token rate) and was read at another time. When not,
    /// the dashboard's clock needs no rows built (its view states the ages).
    pub fn clock_moves_rows(&self, now: DateTime<Utc>) -> bool {
        self.cache.clock_moves(now)
    }

    /// The first instant after `now` the clock alone could change a
    /// record's row: a health rule's window running out, or its snooze.
    pub(super) fn clock_moves(
        &self,
        s: &Sidecar,
        live: Option<&TmuxFacts>,
        orchestration: Option<&Orchestration>,
        now: DateTime<Utc>,
    ) -> Option<DateTime<Utc>> {
        let t = &self.config.thresholds;
        let (word, _) = self.sidecar_word(s, false);
        let rules = health::clock_moves_after(
            live,
            word.as_ref().and_then(|r| r.reported_at),
            sidecar_signal_at(live, s, orchestration, word.as_ref()),
            now,
            t,
        );
        let snooze = s.snooze.as_ref().map(|z| z.until).filter(|u| *u > now);
        rules.into_iter().chain(snooze).min()
    }
}

/// Whether a record changed from `before` to `after` is still the same row
/// to every other: what other rows are built from (its id against theirs,
/// its tmux session against the panes adopted, its folders against the
/// orchestrations claimed and the work trees, its agent's id against the
/// transcripts followed) is unchanged.
fn same_row(before: &Sidecar, after: &Sidecar) -> bool {
    before.id == after.id
        && before.tmux_session == after.tmux_session
        && before.agent_session_id == after.agent_session_id
        && super::sidecar_cwds(before).eq(super::sidecar_cwds(after))
}
