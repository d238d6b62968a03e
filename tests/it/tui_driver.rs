//! The decisions the driver used to make, now the reducer's: when to poll,
//! which poll answers to drop, when the preview follows the pane, how a
//! finished effect is worded.

use std::collections::BTreeMap;

use chrono::Duration;
use greenroom::health::TmuxFacts;
use greenroom::tmux::ServerState;
use greenroom::tui::action::{Action, Command, Effect, Finished};
use greenroom::tui::state::{DetailTab, Mode, Overlay};
use greenroom::tui::update::update;

use crate::tui_modes::{loaded, now};

fn server(activity_secs: i64) -> ServerState {
    let mut map = BTreeMap::new();
    for name in ["gr-alpha", "gr-bravo", "gr-charlie"] {
        map.insert(
            name.to_owned(),
            TmuxFacts {
                window_activity: Some(now() + Duration::seconds(activity_secs)),
                ..TmuxFacts::default()
            },
        );
    }
    ServerState::Running(map)
}

fn polled(generation: u64, activity_secs: i64) -> Action {
    Action::Polled {
        server: server(activity_secs),
        generation,
    }
}

#[test]
fn one_poll_at_a_time_and_an_answer_older_than_an_effect_is_dropped() {
    let mut s = loaded();
    assert_eq!(
        update(&mut s, Action::PollDue),
        vec![Effect::Poll { generation: 0 }]
    );
    // Due again while the first runs: nothing more.
    assert!(update(&mut s, Action::PollDue).is_empty());
    // A kill finishes meanwhile: the poll in flight describes the world before it.
    let done = Finished::Killed {
        ok: vec!["alpha".into()],
        failed: vec![],
    };
    assert!(update(&mut s, Action::Finished(done)).is_empty());
    // Its answer is dropped, and tmux asked again at once.
    assert_eq!(
        update(&mut s, polled(0, 0)),
        vec![Effect::Poll { generation: 1 }]
    );
    // The fresh answer reaches the catalog.
    let effects = update(&mut s, polled(1, 0));
    assert!(matches!(effects.as_slice(), [Effect::ApplyPoll(_)]));
    assert!(!s.poll.in_flight);
}

#[test]
fn a_finished_effect_with_no_poll_running_asks_tmux_now() {
    let mut s = loaded();
    let effects = update(
        &mut s,
        Action::Finished(Finished::Sent {
            name: "alpha".into(),
        }),
    );
    assert_eq!(effects, vec![Effect::Poll { generation: 1 }]);
}

#[test]
fn the_preview_follows_new_pane_activity_only() {
    let mut s = loaded();
    s.tab = DetailTab::Preview;
    let capture = |e: &[Effect]| {
        e.iter()
            .filter(|e| matches!(e, Effect::CapturePreview { .. }))
            .count()
    };
    update(&mut s, Action::PollDue);
    assert_eq!(capture(&update(&mut s, polled(0, 1))), 1);
    update(&mut s, Action::PollDue);
    // Same activity: the pane did not change, no capture.
    assert_eq!(capture(&update(&mut s, polled(0, 1))), 0);
    update(&mut s, Action::PollDue);
    assert_eq!(capture(&update(&mut s, polled(0, 2))), 1);
    // Not on the preview tab: activity asks for nothing.
    s.tab = DetailTab::Overview;
    update(&mut s, Action::PollDue);
    assert_eq!(capture(&update(&mut s, polled(0, 3))), 0);
}

#[test]
fn finished_effects_are_worded_by_the_reducer() {
    let cases = [
        (
            Finished::Killed {
                ok: vec!["alpha".into(), "bravo".into()],
                failed: vec!["charlie: no tmux session".into()],
            },
            "killed alpha, bravo; charlie: no tmux session",
        ),
        (
            Finished::Dismissed {
                ok: vec![],
                failed: vec!["alpha is running: kill it first".into()],
            },
            "alpha is running: kill it first",
        ),
        (
            Finished::Restored {
                name: "alpha".into(),
                resumed: true,
            },
            "restored alpha (resumed its conversation)",
        ),
        (
            Finished::Returned {
                name: "alpha".into(),
            },
            "back from alpha",
        ),
        (
            Finished::Failed("tmux: timed out".into()),
            "tmux: timed out",
        ),
    ];
    for (done, text) in cases {
        let mut s = loaded();
        update(&mut s, Action::Finished(done));
        assert_eq!(s.status.as_ref().map(|l| l.text.as_str()), Some(text));
    }
}

#[test]
fn help_has_two_pages_and_opens_on_the_first() {
    let mut s = loaded();
    update(&mut s, Action::Command(Command::Help));
    assert_eq!(s.mode, Mode::Overlay(Overlay::Help));
    update(&mut s, Action::Command(Command::NextPage));
    assert_eq!(s.help_page, 1);
    update(&mut s, Action::Command(Command::NextPage));
    assert_eq!(s.help_page, 0);
    update(&mut s, Action::Command(Command::NextPage));
    update(&mut s, Action::Command(Command::Close));
    assert_eq!(s.mode, Mode::Normal);
    update(&mut s, Action::Command(Command::Help));
    assert_eq!(s.help_page, 0, "help opens on the list's keys");
}
