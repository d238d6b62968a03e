//! Triage in the dashboard's reducer, through the default keymap: `w`/`W`
//! walk the attention queue, `-` jumps back, `z` snoozes and wakes, `y`,
//! `N` and the digits answer a waiting session, the send dialog sends a
//! key, returning from an attach marks a session handled, and the pinned
//! group keeps the sessions that need you on top.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use greenroom::model::RowKey;
use greenroom::tui::action::UiEffect;
use greenroom::tui::reduce::op::{Op, Verb};
use std::path::PathBuf;

use chrono::{DateTime, Duration, TimeZone, Utc};
use crossterm::event::KeyCode;
use greenroom::model::{Activity, ActivitySource, ActivityView, Health, Session, Source, Status};
use greenroom::ops::AnswerKey;
use greenroom::tui::action::{Action, Effect, Finished};
use greenroom::tui::model::state::{AppState, Mode};
use greenroom::tui::reduce::update::update;

use crate::support::key_in;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap()
}

/// A session that has been in its state for `since_min` minutes and was
/// focused `focused_min` minutes ago.
fn session(name: &str, health: Health, since_min: i64, focused_min: i64) -> Session {
    let since = Some(now() - Duration::minutes(since_min));
    Session {
        id: format!("id-{name}"),
        name: name.into(),
        source: Source::Greenroom,
        status: Status::Running,
        health,
        cwd: PathBuf::from(format!("/work/{name}")),
        agent: Some("claude".into()),
        tmux_session: Some(format!("gr-{name}")),
        created_at: Some(now() - Duration::hours(2)),
        last_focused_at: Some(now() - Duration::minutes(focused_min)),
        last_activity_at: since,
        agent_session_id: None,
        activity: ActivityView {
            state: Activity::Idle,
            detail: None,
            since,
            reported: true,
            source: ActivitySource::Hook,
        },
        orchestration: None,
        active_agent: None,
        usage: None,
        branch: None,
        agent_orchestrator: None,
        archived: false,
        problems: vec![],
        adopted: None,
        changes: None,
        own_worktree: None,
        snoozed_until: None,
        waiting_for: None,
        why: Default::default(),
        host: None,
    }
}

/// Last-focus order: idle-a, stuck, err, wait-new, active, wait-old.
fn rows() -> Vec<Session> {
    vec![
        session("idle-a", Health::Idle, 1, 1),
        session("stuck", Health::Stuck, 30, 2),
        session("err", Health::Errored, 5, 3),
        session("wait-new", Health::Waiting, 2, 4),
        session("active", Health::Active, 1, 5),
        session("wait-old", Health::Waiting, 9, 6),
    ]
}

fn loaded(rows: Vec<Session>, pin: bool) -> AppState {
    let mut s = AppState::new(now(), vec![]);
    s.settings.pin_attention = pin;
    update(
        &mut s,
        Action::Rows {
            rows,
            problems: vec![],
        },
    );
    s
}

fn key(s: &mut AppState, c: char) -> Vec<Effect> {
    key_in(s, KeyCode::Char(c))
}

fn selected(s: &AppState) -> &str {
    s.nav
        .selected
        .as_ref()
        .map(|k| k.id.as_str())
        .unwrap_or_default()
}

fn status(s: &AppState) -> String {
    s.status
        .as_ref()
        .map(|l| l.text.clone())
        .unwrap_or_default()
}

fn names(s: &AppState) -> Vec<String> {
    s.list.visible_sessions().map(|r| r.name.clone()).collect()
}

#[test]
fn w_visits_waiting_then_errored_then_stuck_oldest_first_and_cycles() {
    let mut s = loaded(rows(), false);
    let mut seen = Vec::new();
    for _ in 0..5 {
        key(&mut s, 'w');
        seen.push(selected(&s).to_owned());
    }
    assert_eq!(
        seen,
        [
            "id-wait-old",
            "id-wait-new",
            "id-err",
            "id-stuck",
            "id-wait-old"
        ]
    );
    assert_eq!(status(&s), "1/4: wait-old waiting · hook · 9m");
    key(&mut s, 'W');
    assert_eq!(selected(&s), "id-stuck", "W goes back, cycling");
    key(&mut s, 'W');
    assert_eq!(selected(&s), "id-err");
}

#[test]
fn w_with_nothing_to_do_says_so_and_moves_nothing() {
    let mut s = loaded(vec![session("calm", Health::Idle, 1, 1)], false);
    assert!(key(&mut s, 'w').is_empty());
    assert_eq!(selected(&s), "id-calm");
    assert_eq!(status(&s), "nothing needs you right now");
}

#[test]
fn w_clears_a_filter_that_hides_the_next_session() {
    let mut s = loaded(rows(), false);
    s.nav.filter = "idle".into();
    s.refresh_visible();
    key(&mut s, 'w');
    assert_eq!(selected(&s), "id-wait-old");
    assert!(s.nav.filter.is_empty());
    assert_eq!(
        s.cursor().map(|c| names(&s)[c].clone()).as_deref(),
        Some("wait-old")
    );
}

#[test]
fn jump_back_returns_to_where_the_last_jump_started() {
    let mut s = loaded(rows(), false);
    key_in(&mut s, KeyCode::Down); // stuck
    key_in(&mut s, KeyCode::Down); // err
    key(&mut s, 'w');
    assert_eq!(
        selected(&s),
        "id-stuck",
        "w goes on from a session in the queue"
    );
    key_in(&mut s, KeyCode::Home); // idle-a, not in the queue
    key(&mut s, 'w');
    assert_eq!(
        selected(&s),
        "id-wait-old",
        "from outside it, the queue's head"
    );
    key(&mut s, '-');
    assert_eq!(selected(&s), "id-idle-a", "back where the jump started");
    key(&mut s, '-');
    assert_eq!(selected(&s), "id-wait-old", "and back again, like cd -");
    let mut fresh = loaded(rows(), false);
    key(&mut fresh, '-');
    assert_eq!(status(&fresh), "no session to jump back to");
}

#[test]
fn returning_from_an_attach_marks_the_session_handled_until_it_changes() {
    let mut s = loaded(rows(), false);
    key(&mut s, 'w'); // wait-old
    update(
        &mut s,
        Action::Finished(Finished::Returned {
            row: RowKey::here("id-wait-old"),
            name: "wait-old".into(),
        }),
    );
    key(&mut s, 'w');
    key(&mut s, 'w');
    key(&mut s, 'w');
    key(&mut s, 'w');
    assert_eq!(
        selected(&s),
        "id-wait-new",
        "wait-old was skipped: 3 left, cycled"
    );
    // A new state (it asked again, errored...) puts it back in the walk.
    let mut next = rows();
    next[5].health = Health::Errored;
    update(
        &mut s,
        Action::Rows {
            rows: next,
            problems: vec![],
        },
    );
    assert!(s.triage.handled.is_empty());
}

#[test]
fn z_snoozes_a_session_that_needs_you_and_wakes_a_snoozed_one() {
    let mut s = loaded(rows(), false);
    s.settings.snooze = std::time::Duration::from_secs(600);
    key(&mut s, 'w'); // wait-old
    assert_eq!(
        key(&mut s, 'z'),
        [crate::support::here(
            Verb::Snooze(std::time::Duration::from_secs(600)),
            &["id-wait-old"]
        )]
    );
    let until = now() + Duration::minutes(10);
    update(
        &mut s,
        Action::Finished(Finished::Snoozed {
            name: "wait-old".into(),
            until,
        }),
    );
    assert_eq!(
        status(&s),
        "snoozed wait-old (z 10m); z wakes it, so does any new state change"
    );
    let mut snoozed = rows();
    snoozed[5].snoozed_until = Some(until);
    update(
        &mut s,
        Action::Rows {
            rows: snoozed,
            problems: vec![],
        },
    );
    assert_eq!(
        key(&mut s, 'z'),
        [crate::support::here(Verb::Wake, &["id-wait-old"])]
    );
    // Out of the queue while snoozed.
    key(&mut s, 'w');
    assert_eq!(selected(&s), "id-wait-new");
    // Nothing to snooze on a calm session.
    key_in(&mut s, KeyCode::Home);
    assert!(key(&mut s, 'z').is_empty());
    assert!(status(&s).contains("only a waiting, errored, stuck or ready session"));
}

#[test]
fn y_n_and_digits_answer_only_a_waiting_session() {
    let mut s = loaded(rows(), false);
    key(&mut s, 'w'); // wait-old
    let send = |key| vec![crate::support::here(Verb::Key(key), &["id-wait-old"])];
    assert_eq!(key(&mut s, 'y'), send(AnswerKey::Enter));
    assert_eq!(key(&mut s, 'N'), send(AnswerKey::Escape));
    assert_eq!(key(&mut s, '1'), send(AnswerKey::Digit(1)));
    assert_eq!(key(&mut s, '9'), send(AnswerKey::Digit(9)));
    update(
        &mut s,
        Action::Finished(Finished::Answered {
            name: "wait-old".into(),
            key: AnswerKey::Escape,
            after: Some(Activity::Idle),
        }),
    );
    assert_eq!(status(&s), "sent Escape to wait-old: now idle");
    // An agent at work gets no stray key.
    key_in(&mut s, KeyCode::Home);
    assert!(key(&mut s, 'y').is_empty());
    assert_eq!(
        status(&s),
        "idle-a is idle, not waiting: nothing to answer (s sends a message)"
    );
    assert!(key(&mut s, '2').is_empty());
}

#[test]
fn the_send_dialog_sends_a_key_written_in_angle_brackets() {
    let mut s = loaded(rows(), false);
    key(&mut s, 'w');
    key(&mut s, 's');
    assert!(matches!(s.mode, Mode::Dialog(_)));
    for c in "<C-c>".chars() {
        key(&mut s, c);
    }
    assert_eq!(
        key_in(&mut s, KeyCode::Enter),
        [crate::support::here(
            Verb::Key(AnswerKey::CtrlC),
            &["id-wait-old"]
        )]
    );
    assert_eq!(s.mode, Mode::Normal);
    // Not a key name: sent as text.
    key(&mut s, 's');
    for c in "<b>bold</b>".chars() {
        key(&mut s, c);
    }
    assert!(matches!(
        key_in(&mut s, KeyCode::Enter).as_slice(),
        [Effect::Op(Op { op: Verb::Send(text), .. })] if text == "<b>bold</b>"
    ));
}

#[test]
fn the_pinned_group_holds_the_queue_on_top_and_the_rest_in_focus_order() {
    let s = loaded(rows(), true);
    assert_eq!(
        names(&s),
        ["wait-old", "wait-new", "err", "stuck", "idle-a", "active"]
    );
    let off = loaded(rows(), false);
    assert_eq!(
        names(&off),
        ["idle-a", "stuck", "err", "wait-new", "active", "wait-old"],
        "turned off: last focus only"
    );
    // Moving through it changes nothing; a snoozed session leaves the group.
    let mut s = loaded(rows(), true);
    key(&mut s, 'j');
    key(&mut s, 'j');
    assert_eq!(names(&s)[0], "wait-old");
    let mut snoozed = rows();
    snoozed[5].snoozed_until = Some(now() + Duration::minutes(5));
    update(
        &mut s,
        Action::Rows {
            rows: snoozed,
            problems: vec![],
        },
    );
    assert_eq!(
        names(&s),
        ["wait-new", "err", "stuck", "idle-a", "active", "wait-old"]
    );
}

#[test]
fn a_snoozed_session_neither_alerts_nor_is_marked() {
    let mut calm = rows();
    calm[3].health = Health::Idle;
    let mut s = loaded(calm, false);
    let mut asks = rows();
    asks[3].snoozed_until = Some(now() + Duration::minutes(5));
    let effects = update(
        &mut s,
        Action::Rows {
            rows: asks,
            problems: vec![],
        },
    );
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, Effect::Ui(UiEffect::Notify(_)))),
        "{effects:?}"
    );
    assert!(!s.triage.attention.contains(&RowKey::here("id-wait-new")));
}
