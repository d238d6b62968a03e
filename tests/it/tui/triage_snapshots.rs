//! Snapshots of triage on screen: the queue's summary in the header and
//! the pinned group, a snoozed row's `z 24m`, what a waiting session asks
//! and the why line in the detail pane, and an answer's status line.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use chrono::Duration;
use greenroom::model::WaitingFor;
use greenroom::ops::AnswerKey;
use greenroom::tui::action::{Action, Command, Finished};
use greenroom::tui::model::state::AppState;
use greenroom::tui::reduce::update::update;

use crate::tui::snapshots::{draw, pick, state};

const SIZES: [(u16, u16); 2] = [(60, 20), (160, 48)];

fn triage_state(w: u16, h: u16) -> AppState {
    let mut s = state(w, h, "id-docs-site");
    let now = s.now;
    for r in &mut s.list.rows {
        match r.id.as_str() {
            "id-docs-site" => {
                r.waiting_for = Some(WaitingFor {
                    question: Some("Claude needs your permission".into()),
                    tool: Some("Bash".into()),
                    command: Some("npm run build".into()),
                    ..WaitingFor::default()
                });
                r.why = "the hook reported AwaitingInput 2m ago: waiting".into();
                r.activity.source = greenroom::model::ActivitySource::Hook;
            }
            "id-web-auth" => r.snoozed_until = Some(now + Duration::minutes(24)),
            _ => {}
        }
    }
    s.settings.pin_attention = true;
    s.refresh_visible();
    pick(&mut s, "id-docs-site");
    s
}

#[test]
fn the_queue_pinned_with_a_snoozed_row_and_the_why_line() {
    for (w, h) in SIZES {
        let mut s = triage_state(w, h);
        update(&mut s, Action::Command(Command::Top));
        update(&mut s, Action::Command(Command::NextInQueue));
        update(&mut s, Action::Command(Command::PrevInQueue));
        let t = draw(&s, w, h);
        insta::assert_snapshot!(format!("triage_queue_{w}x{h}"), t.backend());
    }
}

#[test]
fn an_answer_says_what_was_sent_and_what_follows() {
    for (w, h) in SIZES {
        let mut s = triage_state(w, h);
        update(
            &mut s,
            Action::Finished(Finished::Answered {
                name: "docs-site".into(),
                key: AnswerKey::Enter,
                after: Some(greenroom::model::Activity::Active),
            }),
        );
        let t = draw(&s, w, h);
        insta::assert_snapshot!(format!("triage_answer_{w}x{h}"), t.backend());
    }
}

/// A question with choices (AskUserQuestion): the detail pane and the
/// sidebar say the question and the digits that answer it.
#[test]
fn a_question_shows_the_digits_that_answer_it() {
    let (w, h) = SIZES[1];
    let mut s = triage_state(w, h);
    for r in &mut s.list.rows {
        if r.id == "id-docs-site" {
            r.waiting_for = Some(WaitingFor {
                question: Some("Which colour shall the button be?".into()),
                tool: Some("AskUserQuestion".into()),
                command: None,
                options: vec!["Red".into(), "Blue".into(), "Green".into()],
            });
        }
    }
    s.refresh_visible();
    pick(&mut s, "id-docs-site");
    let screen = draw(&s, w, h).backend().to_string();
    let asks = screen
        .lines()
        .find(|l| l.contains("asks"))
        .unwrap_or_else(|| panic!("no asks line:\n{screen}"));
    assert!(
        asks.contains("Which colour shall the button be? · 1 Red · 2 Blue · 3 Green"),
        "{screen}"
    );
}
