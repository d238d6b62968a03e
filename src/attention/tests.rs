use std::path::PathBuf;

use chrono::{DateTime, TimeDelta, Utc};

use super::*;
use crate::model::{Activity, ActivitySource, ActivityView, Source, Status};

fn at(min_ago: i64) -> DateTime<Utc> {
    now() - TimeDelta::minutes(min_ago)
}

fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-12-01T12:00:00Z")
        .unwrap()
        .to_utc()
}

fn row(name: &str, health: Health, since_min_ago: i64) -> Session {
    Session {
        id: format!("id-{name}"),
        name: name.into(),
        source: Source::Greenroom,
        status: Status::Running,
        health,
        cwd: PathBuf::from("/w"),
        agent: None,
        tmux_session: Some(name.into()),
        created_at: None,
        last_focused_at: None,
        last_activity_at: Some(at(since_min_ago)),
        agent_session_id: None,
        activity: ActivityView {
            state: Activity::Active,
            detail: None,
            since: Some(at(since_min_ago)),
            reported: true,
            source: ActivitySource::Hook,
        },
        orchestration: None,
        active_agent: None,
        usage: None,
        branch: None,
        agent_orchestrator: None,
        archived: false,
        problems: Vec::new(),
        adopted: None,
        changes: None,
        own_worktree: None,
        snoozed_until: None,
        waiting_for: None,
        why: Default::default(),
        host: None,
    }
}

fn names(q: &[&Session]) -> Vec<String> {
    q.iter().map(|s| s.name.clone()).collect()
}

#[test]
fn waiting_then_errored_then_stuck_oldest_first() {
    let rows = vec![
        row("stuck-old", Health::Stuck, 50),
        row("err-new", Health::Errored, 1),
        row("wait-new", Health::Waiting, 2),
        row("idle", Health::Idle, 90),
        row("err-old", Health::Errored, 30),
        row("wait-old", Health::Waiting, 20),
        row("active", Health::Active, 0),
    ];
    assert_eq!(
        names(&queue(&rows)),
        ["wait-old", "wait-new", "err-old", "err-new", "stuck-old"]
    );
}

#[test]
fn snoozed_and_archived_sessions_are_not_in_the_queue() {
    let mut snoozed = row("snoozed", Health::Waiting, 5);
    snoozed.snoozed_until = Some(now() + TimeDelta::minutes(10));
    let mut archived = row("archived", Health::Errored, 5);
    archived.archived = true;
    let rows = vec![snoozed, archived, row("w", Health::Waiting, 1)];
    assert_eq!(names(&queue(&rows)), ["w"]);
    assert_eq!(summary(&rows), (1, Some(at(1))));
}

#[test]
fn summary_counts_and_names_the_oldest_wait() {
    let rows = vec![row("a", Health::Stuck, 40), row("b", Health::Waiting, 3)];
    assert_eq!(summary(&rows), (2, Some(at(40))));
    assert_eq!(summary(&[row("i", Health::Idle, 1)]), (0, None));
}

#[test]
fn step_cycles_both_ways_and_starts_at_an_end() {
    let rows = vec![
        row("a", Health::Waiting, 3),
        row("b", Health::Waiting, 2),
        row("c", Health::Errored, 1),
    ];
    let q = queue(&rows);
    let next = |cur: Option<&str>, back| {
        let key = cur.map(crate::model::RowKey::here);
        step(&q, key.as_ref(), back).map(|s| s.name.clone())
    };
    assert_eq!(next(None, false).as_deref(), Some("a"));
    assert_eq!(next(None, true).as_deref(), Some("c"));
    assert_eq!(next(Some("id-a"), false).as_deref(), Some("b"));
    assert_eq!(next(Some("id-c"), false).as_deref(), Some("a"));
    assert_eq!(next(Some("id-a"), true).as_deref(), Some("c"));
    assert_eq!(next(Some("id-other"), false).as_deref(), Some("a"));
    assert!(step(&[], None, false).is_none());
}

#[test]
fn a_snooze_holds_until_its_time_a_new_class_or_a_newer_report() {
    let s = snooze_for(
        Health::Waiting,
        std::time::Duration::from_secs(1800),
        at(10),
    );
    assert!(snooze_holds(&s, Health::Waiting, Some(at(11)), now()));
    assert!(snooze_holds(&s, Health::Waiting, None, now()));
    // Time ran out.
    assert!(!snooze_holds(&s, Health::Waiting, None, at(-21)));
    // Another class.
    assert!(!snooze_holds(&s, Health::Errored, None, now()));
    // A newer report, even of the same class (a second question).
    assert!(!snooze_holds(&s, Health::Waiting, Some(at(5)), now()));
}

#[test]
fn the_mark_shows_minutes_left_rounded_up() {
    assert_eq!(
        snooze_mark(now() + TimeDelta::seconds(24 * 60 - 5), now()),
        "z 24m"
    );
    assert_eq!(snooze_mark(now() + TimeDelta::seconds(10), now()), "z 1m");
    assert_eq!(snooze_mark(now() + TimeDelta::minutes(90), now()), "z 2h");
}

#[test]
fn every_status_says_its_source_and_age() {
    use crate::health::provenance;
    use crate::model::{AoDetails, Orchestration};
    let mut w = row("w", Health::Waiting, 0);
    w.activity.since = Some(now() - TimeDelta::seconds(4));
    assert_eq!(provenance(&w, now()), "waiting · hook · 4s");
    let mut a = row("a", Health::Active, 0);
    a.activity.source = ActivitySource::Tmux;
    a.activity.since = Some(now() - TimeDelta::seconds(1));
    assert_eq!(provenance(&a, now()), "active · tmux · 1s");
    let s = row("s", Health::Stuck, 11);
    assert_eq!(provenance(&s, now()), "stuck · silent 11m");
    let mut m = row("m", Health::Done, 3);
    m.source = Source::Maestro;
    m.orchestration = Some(std::sync::Arc::new(Orchestration::default()));
    assert_eq!(provenance(&m, now()), "done · Maestro");
    let mut ao = row("ao", Health::Waiting, 3);
    ao.source = Source::AgentOrchestrator;
    ao.agent_orchestrator = Some(AoDetails {
        status: Some("needs_input".into()),
        ..Default::default()
    });
    assert_eq!(provenance(&ao, now()), "needs_input · AO");
    let mut dormant = row("d", Health::Dormant, 3);
    dormant.status = Status::Dormant;
    assert_eq!(provenance(&dormant, now()), "dormant");
}
