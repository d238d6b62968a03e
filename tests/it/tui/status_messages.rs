//! Status-line messages that say something is so are withdrawn when it
//! stops being so, not only by the clock: "nothing needs you" once a
//! session does, a refusal about a row once that row changes or goes, a
//! step of the queue once its session's health moves on, "n marked" once
//! the marks change, a tmux error once tmux answers.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use chrono::{DateTime, TimeZone, Utc};
use crossterm::event::KeyCode;
use greenroom::model::{Health, Session};
use greenroom::tmux::ServerState;
use greenroom::tui::action::{Action, Command};
use greenroom::tui::model::state::AppState;
use greenroom::tui::reduce::update::update;

use crate::support::key_in;
use crate::support::session::session;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 2, 12, 0, 0).unwrap()
}

fn row(name: &str, health: Health) -> Session {
    session(name).health(health).build()
}

fn with_rows(rows: Vec<Session>) -> AppState {
    let mut s = AppState::new(now(), vec![]);
    rows_now(&mut s, rows);
    s
}

fn rows_now(s: &mut AppState, rows: Vec<Session>) {
    update(
        s,
        Action::Rows {
            rows,
            problems: vec![],
        },
    );
}

fn said(s: &AppState) -> Option<&str> {
    s.status.as_ref().map(|l| l.text.as_str())
}

#[test]
fn nothing_needs_you_is_withdrawn_once_a_session_does() {
    let mut s = with_rows(vec![
        row("alpha", Health::Idle),
        row("bravo", Health::Active),
    ]);
    key_in(&mut s, KeyCode::Char('w'));
    assert_eq!(said(&s), Some("nothing needs you right now"));
    // Rows that change nothing the queue holds: still so.
    rows_now(
        &mut s,
        vec![row("alpha", Health::Idle), row("bravo", Health::Idle)],
    );
    assert_eq!(said(&s), Some("nothing needs you right now"));
    // bravo asks, a second later: no longer so.
    rows_now(
        &mut s,
        vec![row("alpha", Health::Idle), row("bravo", Health::Waiting)],
    );
    assert_eq!(said(&s), None);
}

#[test]
fn a_refusal_about_a_row_goes_when_the_row_changes_or_goes() {
    let mut s = with_rows(vec![row("alpha", Health::Idle), row("bravo", Health::Idle)]);
    // alpha is selected and idle: `y` has nothing to answer.
    key_in(&mut s, KeyCode::Char('y'));
    let refusal = said(&s).unwrap().to_owned();
    assert!(refusal.contains("alpha is idle, not waiting"), "{refusal}");
    // Another row changing does not touch it.
    rows_now(
        &mut s,
        vec![row("alpha", Health::Idle), row("bravo", Health::Active)],
    );
    assert_eq!(said(&s), Some(refusal.as_str()));
    // alpha turns to ask: the refusal is no longer true.
    rows_now(
        &mut s,
        vec![row("alpha", Health::Waiting), row("bravo", Health::Active)],
    );
    assert_eq!(said(&s), None);

    // Refused again on a row that then goes away.
    rows_now(
        &mut s,
        vec![row("alpha", Health::Active), row("bravo", Health::Active)],
    );
    key_in(&mut s, KeyCode::Char('y'));
    assert!(said(&s).is_some());
    rows_now(&mut s, vec![row("bravo", Health::Active)]);
    assert_eq!(said(&s), None);
}

#[test]
fn a_step_of_the_queue_goes_when_its_session_moves_on() {
    let mut s = with_rows(vec![
        row("alpha", Health::Idle),
        row("bravo", Health::Waiting),
    ]);
    key_in(&mut s, KeyCode::Char('w'));
    let step = said(&s).unwrap().to_owned();
    assert!(step.starts_with("1/1: bravo waiting"), "{step}");
    // Answered elsewhere: bravo works again, the line would say it waits.
    rows_now(
        &mut s,
        vec![row("alpha", Health::Idle), row("bravo", Health::Active)],
    );
    assert_eq!(said(&s), None);
}

#[test]
fn marks_said_go_when_the_marks_change() {
    let mut s = with_rows(vec![row("alpha", Health::Idle), row("bravo", Health::Idle)]);
    update(&mut s, Action::Command(Command::Mark));
    assert_eq!(
        said(&s),
        Some("1 marked: x kills, D dismisses them all; Space unmarks")
    );
    // Back up and unmark: nothing is marked any more.
    update(&mut s, Action::Command(Command::Up));
    update(&mut s, Action::Command(Command::Mark));
    assert!(s.nav.marked.is_empty());
    assert_eq!(said(&s), None);
}

#[test]
fn a_tmux_error_goes_when_tmux_answers() {
    let mut s = with_rows(vec![row("alpha", Health::Idle)]);
    update(&mut s, Action::PollDue);
    update(
        &mut s,
        Action::Polled {
            server: ServerState::Error("server exited unexpectedly".into()),
            generation: 0,
        },
    );
    assert_eq!(said(&s), Some("tmux: server exited unexpectedly"));
    // A refresh of rows meanwhile says nothing of tmux: still so.
    rows_now(&mut s, vec![row("alpha", Health::Idle)]);
    assert!(said(&s).is_some());
    update(&mut s, Action::PollDue);
    update(
        &mut s,
        Action::Polled {
            server: ServerState::Running(Default::default()),
            generation: 0,
        },
    );
    assert_eq!(said(&s), None);
}

#[test]
fn a_report_of_something_done_stays_its_seconds() {
    let mut s = with_rows(vec![row("alpha", Health::Idle)]);
    update(&mut s, Action::Status("killed bravo".into()));
    rows_now(&mut s, vec![row("alpha", Health::Waiting)]);
    assert_eq!(said(&s), Some("killed bravo"));
    update(&mut s, Action::Tick(now() + chrono::Duration::seconds(7)));
    assert_eq!(said(&s), None);
}
