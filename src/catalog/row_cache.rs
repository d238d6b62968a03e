//! The rows of greenroom's own records, kept from one build to the next:
//! a change to one file of a thousand rebuilds one row, not a thousand.
//!
//! A kept row is used again only when everything it was built from is the
//! same: the record itself, whether it is archived, its orchestration (the
//! same shared state file read), what tmux says of its session and whether
//! tmux answered at all, the agent Maestro's hooks name for it, the
//! transcript's words for a vague error, and the clock, up to the first
//! instant the health rules would read it differently
//! (`health::clock_moves_after`; a row's ages are times the view states).
//! So the dashboard's clock, moving once a second, rebuilds only the rows
//! whose health it turns. What a row's problems and usage say is not kept:
//! it is looked up again at each build (no IO either way).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};

use crate::health::TmuxFacts;
use crate::model::{Orchestration, Session};
use crate::sources::sidecar::Sidecar;

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
    /// A row built here is kept as any other, so the next build agrees.
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
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
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
mod tests {
    use std::collections::BTreeMap;

    use chrono::{DateTime, Duration, TimeZone, Utc};

    use super::super::Catalog;
    use crate::health::TmuxFacts;
    use crate::model::{Activity, Health, Session, Status};
    use crate::sources::sidecar::Sidecar;
    use crate::tmux::{Server, ServerState};

    struct NoEnv;
    impl crate::config::Env for NoEnv {
        fn var(&self, _: &str) -> Option<String> {
            None
        }
    }

    fn t0() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap()
    }

    fn facts(dead: &[usize]) -> ServerState {
        let sessions: BTreeMap<String, TmuxFacts> = (0..3)
            .map(|i| {
                let f = TmuxFacts {
                    pane_dead: dead.contains(&i),
                    exit_status: dead.contains(&i).then_some(1),
                    window_activity: Some(t0() - Duration::seconds(30)),
                    last_attached: None,
                };
                (format!("s{i}"), f)
            })
            .collect();
        ServerState::Running(Server::new(sessions, Vec::new()))
    }

    /// Three live sessions, each working on a report 20 s old.
    fn catalog() -> Catalog {
        let config =
            crate::config::Config::load(&crate::config::Overrides::default(), &NoEnv).unwrap();
        let mut c = Catalog::empty(&config, false);
        for i in 0..3 {
            let mut s = Sidecar::new(
                &format!("agent-{i}"),
                std::path::Path::new("/nowhere"),
                "sleep 1",
                t0(),
            );
            s.tmux_session = Some(format!("s{i}"));
            s.activity = Some(Activity::Active);
            s.activity_since = Some(t0() - Duration::seconds(20));
            s.activity_reported_at = s.activity_since;
            c.sidecars.insert(c.store.path_for(s.id), s);
        }
        c.set_tmux(facts(&[]));
        c
    }

    /// What a build with nothing kept says at `now`.
    fn fresh(c: &Catalog, now: DateTime<Utc>) -> Vec<Session> {
        let kept = std::mem::take(&mut *c.row_cache.kept.lock().unwrap());
        let rows = c.rows(now);
        *c.row_cache.kept.lock().unwrap() = kept;
        rows
    }

    fn path_of(c: &Catalog, name: &str) -> std::path::PathBuf {
        let (path, _) = c.sidecars.iter().find(|(_, s)| s.name == name).unwrap();
        path.clone()
    }

    #[test]
    fn rows_read_at_the_same_time_are_kept_and_equal_a_fresh_build() {
        let c = catalog();
        assert_eq!(c.rows(t0()).len(), 3);
        assert_eq!(c.rows_built(), 3);
        let rows = c.rows(t0());
        assert_eq!(c.rows_built(), 0);
        assert_eq!(rows, fresh(&c, t0()));
    }

    #[test]
    fn a_changed_record_rebuilds_its_row_only() {
        let mut c = catalog();
        let _ = c.rows(t0());
        let path = path_of(&c, "agent-1");
        c.sidecars.get_mut(&path).unwrap().name = "renamed".into();
        let rows = c.rows(t0());
        assert_eq!(c.rows_built(), 1);
        assert!(rows.iter().any(|r| r.name == "renamed"));
        assert!(!rows.iter().any(|r| r.name == "agent-1"));
        assert_eq!(rows, fresh(&c, t0()));

        // A field that only decides the health: the report turns waiting.
        c.sidecars.get_mut(&path).unwrap().activity = Some(Activity::AwaitingInput);
        let rows = c.rows(t0());
        assert_eq!(c.rows_built(), 1);
        let row = rows.iter().find(|r| r.name == "renamed").unwrap();
        assert_eq!(row.health, Health::Waiting);
        assert_eq!(rows, fresh(&c, t0()));
    }

    #[test]
    fn a_tmux_fact_rebuilds_the_rows_it_concerns() {
        let mut c = catalog();
        let _ = c.rows(t0());
        c.set_tmux(facts(&[2]));
        let rows = c.rows(t0());
        assert_eq!(c.rows_built(), 1);
        let row = rows.iter().find(|r| r.name == "agent-2").unwrap();
        assert_eq!(row.status, Status::Exited);
        assert_eq!(rows, fresh(&c, t0()));

        // tmux gone: every session it held is dormant.
        c.set_tmux(ServerState::NoServer);
        let rows = c.rows(t0());
        assert_eq!(c.rows_built(), 3);
        assert!(
            rows.iter().all(|r| r.status == Status::Dormant),
            "{rows:#?}"
        );
    }

    #[test]
    fn tmux_answering_at_all_rebuilds_rows_it_says_nothing_of() {
        let mut c = catalog();
        c.tmux = None;
        let rows = c.rows(t0());
        // Not asked yet: the records' own status stands.
        assert!(
            rows.iter().all(|r| r.status == Status::Running),
            "{rows:#?}"
        );
        c.set_tmux(ServerState::NoServer);
        let rows = c.rows(t0());
        assert_eq!(c.rows_built(), 3);
        assert!(
            rows.iter().all(|r| r.status == Status::Dormant),
            "{rows:#?}"
        );
    }

    #[test]
    fn the_clock_rebuilds_only_rows_whose_health_it_turns() {
        let c = catalog();
        let _ = c.rows(t0());
        // The panes' activity (30 s old) leaves `active_window` now: a
        // bound the reported rows do not read, but the clock passed one.
        let before = c.rows(t0() + Duration::seconds(1));
        assert_eq!(c.rows_built(), 3);
        // Within every other rule's window: the same rows, the ages read later.
        let later = t0() + Duration::seconds(61);
        assert!(!c.clock_moves_rows(later));
        let rows = c.rows(later);
        assert_eq!(c.rows_built(), 0);
        assert_eq!(rows, before);
        assert_ne!(rows[0].why.at(later), rows[0].why.at(t0()));
        assert_eq!(rows, fresh(&c, later));
        // The reports (20 s old at t0) expire after `report_ttl`: tmux's
        // inference takes over, in every row.
        let ttl = chrono::Duration::from_std(c.config.thresholds.report_ttl).unwrap();
        let expired = t0() - Duration::seconds(20) + ttl + Duration::seconds(1);
        assert!(c.clock_moves_rows(expired));
        let rows = c.rows(expired);
        assert_eq!(c.rows_built(), 3);
        assert_eq!(rows, fresh(&c, expired));
        assert_ne!(rows, before);
    }

    /// Every second of a quarter of an hour, rows kept by their clock
    /// bound equal rows built from nothing: no rule that reads the clock is
    /// left out of `health::clock_moves_after`.
    #[test]
    fn kept_rows_equal_a_fresh_build_at_every_second() {
        let mut c = catalog();
        let paths: Vec<_> = ["agent-0", "agent-1", "agent-2"]
            .iter()
            .map(|n| path_of(&c, n))
            .collect();
        // agent-0: an Active report whose pane moved after it (the silence
        // rule), agent-1: waiting and snoozed for 2 minutes, agent-2: no
        // report (tmux's inference; stuck rules never apply).
        c.set_tmux(facts(&[]));
        let s1 = c.sidecars.get_mut(&paths[1]).unwrap();
        s1.activity = Some(Activity::AwaitingInput);
        s1.snooze = Some(crate::attention::snooze_for(
            Health::Waiting,
            std::time::Duration::from_secs(120),
            t0(),
        ));
        let s2 = c.sidecars.get_mut(&paths[2]).unwrap();
        s2.activity = None;
        s2.activity_reported_at = None;
        let mut moved = facts(&[]);
        if let ServerState::Running(server) = &mut moved {
            *server = Server::new(
                (0..3)
                    .map(|i| {
                        let f = TmuxFacts {
                            window_activity: Some(t0() - Duration::seconds(10 + i)),
                            ..TmuxFacts::default()
                        };
                        (format!("s{i}"), f)
                    })
                    .collect(),
                Vec::new(),
            );
        }
        c.set_tmux(moved);
        let mut healths = std::collections::BTreeSet::new();
        for second in 0..900 {
            let now = t0() + Duration::seconds(second);
            let rows = c.rows(now);
            assert_eq!(rows, fresh(&c, now), "at +{second}s");
            healths.extend(rows.iter().map(|r| (r.name.clone(), r.health)));
        }
        // The clock did turn them: the snooze and tmux's inference ran out.
        let turned = ["agent-1", "agent-2"]
            .iter()
            .all(|n| healths.iter().filter(|(name, _)| name == n).count() > 1);
        assert!(turned, "{healths:?}");
    }

    #[test]
    fn problems_are_looked_up_at_every_build_and_gone_records_leave() {
        let mut c = catalog();
        let _ = c.rows(t0());
        let path = path_of(&c, "agent-0");
        c.problems
            .insert(path.clone(), "is not a valid sidecar".into());
        let rows = c.rows(t0());
        assert_eq!(c.rows_built(), 0);
        let row = rows.iter().find(|r| r.name == "agent-0").unwrap();
        assert_eq!(row.problems.len(), 1, "{:?}", row.problems);

        c.sidecars.remove(&path);
        assert_eq!(c.rows(t0()).len(), 2);
        assert_eq!(c.row_cache.kept.lock().unwrap().len(), 2);
    }

    #[test]
    fn a_record_changed_alone_is_rebuilt_alone_as_a_full_build_would() {
        let mut c = catalog();
        let _ = c.rows(t0());
        let path = path_of(&c, "agent-1");
        c.sidecars.get_mut(&path).unwrap().name = "renamed".into();
        let one = c.rows_of(std::slice::from_ref(&path), t0()).unwrap();
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].name, "renamed");
        let full = fresh(&c, t0());
        assert_eq!(full.iter().find(|r| r.id == one[0].id), Some(&one[0]));
        // Kept: the next build has nothing to make anew.
        assert_eq!(c.rows(t0()), full);
        assert_eq!(c.rows_built(), 0);
    }

    #[test]
    fn a_change_that_reaches_other_rows_or_another_clock_builds_them_all() {
        let mut c = catalog();
        let _ = c.rows(t0());
        let path = path_of(&c, "agent-1");
        // Another clock: the other rows' ages and health may have moved.
        c.sidecars.get_mut(&path).unwrap().name = "renamed".into();
        assert!(
            c.rows_of(std::slice::from_ref(&path), t0() + Duration::seconds(1))
                .is_none()
        );
        // Another tmux session: which panes are adopted may change.
        c.sidecars.get_mut(&path).unwrap().tmux_session = Some("s0".into());
        assert!(c.rows_of(std::slice::from_ref(&path), t0()).is_none());
        c.sidecars.get_mut(&path).unwrap().tmux_session = Some("s1".into());
        // Another folder: orchestrations and work trees are found by it.
        c.sidecars.get_mut(&path).unwrap().cwd = "/elsewhere".into();
        assert!(c.rows_of(std::slice::from_ref(&path), t0()).is_none());
        // A record the last build did not have.
        let mut s = Sidecar::new("new", std::path::Path::new("/nowhere"), "sleep 1", t0());
        s.tmux_session = Some("s9".into());
        let new = c.store.path_for(s.id);
        c.sidecars.insert(new.clone(), s);
        assert!(c.rows_of(&[new], t0()).is_none());
    }

    #[test]
    fn ids_made_unique_build_them_all() {
        let mut c = catalog();
        let first = path_of(&c, "agent-0");
        let twin = path_of(&c, "agent-1");
        let id = c.sidecars[&first].id;
        c.sidecars.get_mut(&twin).unwrap().id = id;
        let _ = c.rows(t0());
        c.sidecars.get_mut(&twin).unwrap().name = "renamed".into();
        assert!(c.rows_of(&[twin], t0()).is_none());
    }
}
