//! The kept rows against rows built from nothing.
use std::collections::BTreeMap;

use chrono::{DateTime, Duration, TimeZone, Utc};

use super::super::Catalog;
use crate::health::TmuxFacts;
use crate::model::{Activity, Health, Session, Status};
use crate::sources::sidecar::Sidecar;
use crate::tmux::{Server, ServerState};

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
    let config = super::super::Settings::bare("/tmp/greenroom/sessions".into());
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
        c.own.sidecars.insert(c.own.store.path_for(s.id), s);
    }
    c.set_tmux(facts(&[]));
    c
}

/// What a build with nothing kept says at `now`.
fn fresh(c: &Catalog, now: DateTime<Utc>) -> Vec<Session> {
    let kept = std::mem::take(&mut *c.cache.rows.kept.lock().unwrap());
    let rows = c.rows(now);
    *c.cache.rows.kept.lock().unwrap() = kept;
    rows
}

fn path_of(c: &Catalog, name: &str) -> std::path::PathBuf {
    let (path, _) = c.own.sidecars.iter().find(|(_, s)| s.name == name).unwrap();
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
    c.own.sidecars.get_mut(&path).unwrap().name = "renamed".into();
    let rows = c.rows(t0());
    assert_eq!(c.rows_built(), 1);
    assert!(rows.iter().any(|r| r.name == "renamed"));
    assert!(!rows.iter().any(|r| r.name == "agent-1"));
    assert_eq!(rows, fresh(&c, t0()));

    // A field that only decides the health: the report turns waiting.
    c.own.sidecars.get_mut(&path).unwrap().activity = Some(Activity::AwaitingInput);
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
    let s1 = c.own.sidecars.get_mut(&paths[1]).unwrap();
    s1.activity = Some(Activity::AwaitingInput);
    s1.snooze = Some(crate::attention::snooze_for(
        Health::Waiting,
        std::time::Duration::from_secs(120),
        t0(),
    ));
    let s2 = c.own.sidecars.get_mut(&paths[2]).unwrap();
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

    c.own.sidecars.remove(&path);
    assert_eq!(c.rows(t0()).len(), 2);
    assert_eq!(c.cache.rows.kept.lock().unwrap().len(), 2);
}

#[test]
fn a_record_changed_alone_is_rebuilt_alone_as_a_full_build_would() {
    let mut c = catalog();
    let _ = c.rows(t0());
    let path = path_of(&c, "agent-1");
    c.own.sidecars.get_mut(&path).unwrap().name = "renamed".into();
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
    c.own.sidecars.get_mut(&path).unwrap().name = "renamed".into();
    assert!(
        c.rows_of(std::slice::from_ref(&path), t0() + Duration::seconds(1))
            .is_none()
    );
    // Another tmux session: which panes are adopted may change.
    c.own.sidecars.get_mut(&path).unwrap().tmux_session = Some("s0".into());
    assert!(c.rows_of(std::slice::from_ref(&path), t0()).is_none());
    c.own.sidecars.get_mut(&path).unwrap().tmux_session = Some("s1".into());
    // Another folder: orchestrations and work trees are found by it.
    c.own.sidecars.get_mut(&path).unwrap().cwd = "/elsewhere".into();
    assert!(c.rows_of(std::slice::from_ref(&path), t0()).is_none());
    // A record the last build did not have.
    let mut s = Sidecar::new("new", std::path::Path::new("/nowhere"), "sleep 1", t0());
    s.tmux_session = Some("s9".into());
    let new = c.own.store.path_for(s.id);
    c.own.sidecars.insert(new.clone(), s);
    assert!(c.rows_of(&[new], t0()).is_none());
}

#[test]
fn ids_made_unique_build_them_all() {
    let mut c = catalog();
    let first = path_of(&c, "agent-0");
    let twin = path_of(&c, "agent-1");
    let id = c.own.sidecars[&first].id;
    c.own.sidecars.get_mut(&twin).unwrap().id = id;
    let _ = c.rows(t0());
    c.own.sidecars.get_mut(&twin).unwrap().name = "renamed".into();
    assert!(c.rows_of(&[twin], t0()).is_none());
}
