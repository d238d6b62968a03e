//! When the Overview shows the selected session's pane (a detail pane tall
//! enough), the reducer keeps its capture fresh the way the Preview tab's
//! is, without a tmux call when nothing changed: on selection, on the row's
//! change (and once more a moment later, when the agent has drawn what it
//! reported), on new pane activity a poll brings; never in a short pane,
//! and never from the clock alone.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use std::collections::BTreeMap;

use chrono::Duration;
use greenroom::health::TmuxFacts;
use greenroom::model::{Health, Session};
use greenroom::tmux::ServerState;
use greenroom::tui::action::{Action, Command, Effect};
use greenroom::tui::model::state::{AppState, DetailTab};
use greenroom::tui::reduce::op::{Op, Verb};
use greenroom::tui::reduce::update::update;

use crate::tui::modes::{loaded, now};

fn captures(effects: &[Effect]) -> usize {
    effects
        .iter()
        .filter(|e| {
            matches!(
                e,
                Effect::Op(Op {
                    op: Verb::Capture,
                    ..
                })
            )
        })
        .count()
}

fn sized(width: u16, height: u16) -> (AppState, usize) {
    let mut s = loaded();
    assert_eq!(s.detail.tab, DetailTab::Overview);
    let n = captures(&update(&mut s, Action::Resize { width, height }));
    (s, n)
}

fn rows(alpha: Health) -> Vec<Session> {
    [
        ("alpha", alpha),
        ("bravo", Health::Waiting),
        ("charlie", Health::Killed),
    ]
    .into_iter()
    .map(|(name, h)| crate::support::session::session(name).health(h).build())
    .collect()
}

/// The selected row's capture answered: its pane is shown.
fn previewed(s: &mut AppState) {
    let id = s.nav.selected.clone().unwrap();
    update(
        s,
        Action::Preview {
            id,
            text: "$ ".into(),
        },
    );
}

fn polled(activity_secs: i64) -> Action {
    let mut map = BTreeMap::new();
    map.insert(
        "gr-alpha".to_owned(),
        TmuxFacts {
            window_activity: Some(now() + Duration::seconds(activity_secs)),
            ..TmuxFacts::default()
        },
    );
    Action::Polled {
        server: ServerState::Running(map.into()),
        generation: 0,
    }
}

#[test]
fn a_tall_overview_captures_on_selection_change_and_activity_only() {
    // 80x24: the detail pane beside the list is 20 rows inside.
    let (mut s, at_start) = sized(80, 24);
    assert_eq!(at_start, 1, "the selected pane, once the pane has room");
    assert_eq!(captures(&update(&mut s, Action::Command(Command::Down))), 1);
    assert_eq!(captures(&update(&mut s, Action::Command(Command::Up))), 1);
    previewed(&mut s);
    // The clock and the same rows again: nothing.
    assert_eq!(
        captures(&update(&mut s, Action::Tick(now() + Duration::seconds(5)))),
        0
    );
    assert_eq!(
        captures(&update(
            &mut s,
            Action::Rows {
                rows: rows(Health::Idle),
                problems: vec![]
            }
        )),
        0
    );
    // New activity in its pane, seen by a poll: a capture; the same again: none.
    update(&mut s, Action::PollDue);
    assert_eq!(captures(&update(&mut s, polled(1))), 1);
    update(&mut s, Action::PollDue);
    assert_eq!(captures(&update(&mut s, polled(1))), 0);
}

#[test]
fn a_row_that_turns_to_ask_is_captured_then_once_more() {
    let (mut s, _) = sized(100, 40);
    previewed(&mut s);
    let turned = Action::Rows {
        rows: rows(Health::Waiting),
        problems: vec![],
    };
    assert_eq!(captures(&update(&mut s, turned)), 1);
    // A moment later, once: the agent has drawn its question by then.
    assert_eq!(captures(&update(&mut s, Action::Tick(now()))), 0);
    let later = now() + Duration::seconds(1);
    assert_eq!(captures(&update(&mut s, Action::Tick(later))), 1);
    assert_eq!(
        captures(&update(&mut s, Action::Tick(later + Duration::seconds(1)))),
        0
    );
}

#[test]
fn a_short_overview_captures_nothing() {
    // 60x20: the detail pane is stacked under the list, 9 rows inside.
    let (mut s, at_start) = sized(60, 20);
    assert_eq!(at_start, 0);
    assert_eq!(captures(&update(&mut s, Action::Command(Command::Down))), 0);
    update(&mut s, Action::PollDue);
    assert_eq!(captures(&update(&mut s, polled(1))), 0);
    let turned = Action::Rows {
        rows: rows(Health::Waiting),
        problems: vec![],
    };
    assert_eq!(captures(&update(&mut s, turned)), 0);
}
