//! The decisions the driver used to make, now the reducer's: when to poll,
//! which poll answers to drop, when the preview follows the pane, how a
//! finished effect is worded.

use greenroom::model::RowKey;
use greenroom::tui::action::TmuxEffect;
use std::collections::BTreeMap;

use chrono::Duration;
use greenroom::health::TmuxFacts;
use greenroom::tmux::ServerState;
use greenroom::tui::action::{Action, Command, Effect, Finished};
use greenroom::tui::model::state::{DetailTab, Mode, Overlay};
use greenroom::tui::reduce::update::update;

use crate::tui::modes::{loaded, now};

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
    ServerState::Running(map.into())
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
        vec![Effect::Tmux(TmuxEffect::Poll { generation: 0 })]
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
        vec![Effect::Tmux(TmuxEffect::Poll { generation: 1 })]
    );
    // The fresh answer reaches the catalog.
    let effects = update(&mut s, polled(1, 0));
    assert!(
        matches!(
            effects.first(),
            Some(Effect::Tmux(TmuxEffect::ApplyPoll(_)))
        ),
        "{effects:?}"
    );
    assert!(!s.link.poll.in_flight);
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
    assert_eq!(
        effects,
        vec![Effect::Tmux(TmuxEffect::Poll { generation: 1 })]
    );
}

#[test]
fn the_preview_follows_new_pane_activity_only() {
    let mut s = loaded();
    s.detail.tab = DetailTab::Preview;
    let capture = |e: &[Effect]| {
        e.iter()
            .filter(|e| {
                matches!(
                    e,
                    Effect::Op(greenroom::tui::reduce::op::Op {
                        op: greenroom::tui::reduce::op::Verb::Capture,
                        ..
                    })
                )
            })
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
    s.detail.tab = DetailTab::Overview;
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
                row: RowKey::here("id-alpha"),
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
    assert_eq!(s.nav.help_page, 1);
    update(&mut s, Action::Command(Command::NextPage));
    assert_eq!(s.nav.help_page, 0);
    update(&mut s, Action::Command(Command::NextPage));
    update(&mut s, Action::Command(Command::Close));
    assert_eq!(s.mode, Mode::Normal);
    update(&mut s, Action::Command(Command::Help));
    assert_eq!(s.nav.help_page, 0, "help opens on the list's keys");
}

mod tmux_events {
    use super::*;
    use greenroom::tmux::Event;
    use greenroom::tui::model::state::{AppState, TmuxEvents, TmuxStatus};

    /// A dashboard that has seen a server and whose control client connected.
    fn live() -> AppState {
        let mut s = loaded();
        update(&mut s, Action::PollDue);
        let effects = update(&mut s, polled(0, 0));
        assert!(
            effects.contains(&Effect::Tmux(TmuxEffect::Listen)),
            "{effects:?}"
        );
        assert_eq!(s.link.events, TmuxEvents::Connecting);
        // Connected: one poll for whatever changed before the subscription.
        let effects = update(&mut s, Action::TmuxEvent(Event::Connected));
        assert_eq!(
            effects,
            vec![Effect::Tmux(TmuxEffect::Poll { generation: 0 })]
        );
        update(&mut s, polled(0, 0));
        assert_eq!(s.link.events, TmuxEvents::Live);
        s
    }

    fn at(s: &mut AppState, secs: i64) {
        update(s, Action::Tick(now() + Duration::seconds(secs)));
    }

    /// What a refresh of `names` found: their facts, all present.
    fn refreshed(generation: u64, names: &[&str], complete: bool) -> Action {
        let ServerState::Running(all) = server(0) else {
            unreachable!()
        };
        let part: BTreeMap<_, _> = all
            .iter()
            .filter(|(n, _)| names.contains(&n.as_str()))
            .map(|(n, f)| (n.clone(), f.clone()))
            .collect();
        Action::Refreshed {
            refresh: greenroom::tmux::Refresh {
                part: part.into(),
                complete,
            },
            generation,
        }
    }

    fn refresh_targets(effects: &[Effect]) -> Option<Vec<greenroom::tmux::TmuxTarget>> {
        effects.iter().find_map(|e| match e {
            Effect::Tmux(TmuxEffect::Refresh { targets, .. }) => Some(targets.clone()),
            _ => None,
        })
    }

    #[test]
    fn with_events_live_the_interval_polls_only_to_reconcile() {
        let mut s = live();
        for secs in 1..30 {
            at(&mut s, secs);
            let effects = update(&mut s, Action::PollDue);
            assert!(
                !effects
                    .iter()
                    .any(|e| matches!(e, Effect::Tmux(TmuxEffect::Poll { .. }))),
                "at {secs} s: {effects:?}"
            );
            // The selected row's session is read again (the preview
            // follows it), one refresh at a time.
            if let Some(targets) = refresh_targets(&effects) {
                assert_eq!(targets, ["gr-alpha".into()], "at {secs} s");
                update(&mut s, refreshed(0, &["gr-alpha"], true));
            }
        }
        at(&mut s, 30);
        assert_eq!(
            update(&mut s, Action::PollDue),
            vec![Effect::Tmux(TmuxEffect::Poll { generation: 0 })]
        );
    }

    /// Between full polls only the rows whose activity decides something
    /// soon are read: working agents and the selected row. Nothing at all
    /// when nothing works and the selection is not live.
    #[test]
    fn with_events_live_only_working_and_selected_rows_are_refreshed() {
        use greenroom::model::{Activity, Health, Status};
        let mut s = live();
        let rows = vec![
            crate::support::session::session("alpha")
                .activity(Activity::Idle, None, true)
                .build(),
            crate::support::session::session("bravo")
                .health(Health::Active)
                .activity(Activity::Active, None, true)
                .build(),
            crate::support::session::session("charlie")
                .status(Status::Killed)
                .activity(Activity::Active, None, false)
                .build(),
        ];
        update(
            &mut s,
            Action::Rows {
                rows: rows.clone(),
                problems: vec![],
            },
        );
        s.nav.selected = Some(RowKey::here("id-alpha"));
        // The Overview tab: the selected idle row is read like any other.
        let effects = update(&mut s, Action::PollDue);
        assert_eq!(refresh_targets(&effects), Some(vec!["gr-bravo".into()]));
        update(&mut s, refreshed(0, &["gr-bravo"], true));
        // The Preview tab follows the selected row's pane.
        s.detail.tab = greenroom::tui::model::state::DetailTab::Preview;
        let effects = update(&mut s, Action::PollDue);
        assert_eq!(
            refresh_targets(&effects),
            Some(vec!["gr-alpha".into(), "gr-bravo".into()])
        );
        assert!(
            update(&mut s, Action::PollDue).is_empty(),
            "one refresh at a time"
        );
        update(&mut s, refreshed(0, &["gr-alpha", "gr-bravo"], true));

        // The selection on a killed row, nothing working: nothing to read.
        s.nav.selected = Some(RowKey::here("id-charlie"));
        let idle: Vec<_> = rows
            .into_iter()
            .map(|mut r| {
                r.activity.state = Activity::Idle;
                r
            })
            .collect();
        update(
            &mut s,
            Action::Rows {
                rows: idle,
                problems: vec![],
            },
        );
        s.nav.selected = Some(RowKey::here("id-charlie"));
        assert_eq!(refresh_targets(&update(&mut s, Action::PollDue)), None);
    }

    /// Rows working by files (a Maestro phase in progress) are not read by
    /// refresh; so many working agents that refreshing them would cost tmux
    /// more than the full poll get the full poll.
    #[test]
    fn files_decide_their_rows_and_many_working_agents_mean_the_full_poll() {
        use greenroom::model::{Activity, ActivitySource};
        let rows_of = |source: ActivitySource, working: usize| -> Vec<_> {
            (0..100)
                .map(|i| {
                    let mut r = crate::support::session::session(&format!("s{i}")).build();
                    if i < working {
                        r.activity.state = Activity::Active;
                        r.activity.source = source;
                    }
                    r
                })
                .collect()
        };
        let mut s = live();
        let rows = rows_of(ActivitySource::Maestro, 100);
        update(
            &mut s,
            Action::Rows {
                rows,
                problems: vec![],
            },
        );
        s.nav.selected = Some(RowKey::here("id-s0"));
        s.detail.tab = greenroom::tui::model::state::DetailTab::Preview;
        assert_eq!(
            refresh_targets(&update(&mut s, Action::PollDue)),
            Some(vec!["gr-s0".into()]),
            "only the selected row, its pane previewed"
        );
        update(&mut s, refreshed(0, &[], true));

        let rows = rows_of(ActivitySource::Hook, 12);
        update(
            &mut s,
            Action::Rows {
                rows,
                problems: vec![],
            },
        );
        let effects = update(&mut s, Action::PollDue);
        assert_eq!(refresh_targets(&effects).map(|t| t.len()), Some(12));
        update(&mut s, refreshed(0, &[], true));

        let rows = rows_of(ActivitySource::Hook, 13);
        update(
            &mut s,
            Action::Rows {
                rows,
                problems: vec![],
            },
        );
        let effects = update(&mut s, Action::PollDue);
        assert_eq!(
            effects,
            vec![Effect::Tmux(TmuxEffect::Poll { generation: 0 })]
        );
    }

    /// A row working by tmux's inference is read when it would turn idle
    /// (its pane still for `active_window`), not every interval.
    #[test]
    fn a_row_inferred_working_is_read_when_it_would_turn_idle() {
        use greenroom::model::Activity;
        let mut s = live();
        let row = |since_secs: i64| {
            crate::support::session::session("alpha")
                .activity(
                    Activity::Active,
                    Some(now() + Duration::seconds(since_secs)),
                    false,
                )
                .build()
        };
        let rows = vec![row(-10)];
        update(
            &mut s,
            Action::Rows {
                rows,
                problems: vec![],
            },
        );
        s.nav.selected = None;
        assert_eq!(refresh_targets(&update(&mut s, Action::PollDue)), None);
        let rows = vec![row(-30)];
        update(
            &mut s,
            Action::Rows {
                rows,
                problems: vec![],
            },
        );
        s.nav.selected = None;
        assert_eq!(
            refresh_targets(&update(&mut s, Action::PollDue)),
            Some(vec!["gr-alpha".into()])
        );
    }

    /// A refresh asked before an effect on sessions finished is dropped; one
    /// that found a target gone asks for the full poll.
    #[test]
    fn a_stale_refresh_is_dropped_and_an_incomplete_one_polls() {
        let mut s = live();
        // The selected row's pane previewed: it is read each interval.
        s.detail.tab = greenroom::tui::model::state::DetailTab::Preview;
        let effects = update(&mut s, Action::PollDue);
        assert!(refresh_targets(&effects).is_some(), "{effects:?}");
        s.link.poll.generation += 1;
        assert!(update(&mut s, refreshed(0, &["gr-alpha"], true)).is_empty());
        let effects = update(&mut s, Action::PollDue);
        assert!(
            refresh_targets(&effects).is_some(),
            "asked again: {effects:?}"
        );
        let effects = update(&mut s, refreshed(1, &["gr-alpha"], false));
        assert!(
            effects.contains(&Effect::Tmux(TmuxEffect::Poll { generation: 1 })),
            "{effects:?}"
        );
        assert!(
            effects
                .iter()
                .any(|e| matches!(e, Effect::Tmux(TmuxEffect::ApplyRefresh(part)) if part.contains_key("gr-alpha"))),
            "{effects:?}"
        );
    }

    /// A window closed: the catalog drops the session it was the last of at
    /// once, and the poll says the rest.
    #[test]
    fn a_closed_window_is_forgotten_at_once_then_polled() {
        let mut s = live();
        assert_eq!(
            update(&mut s, Action::TmuxEvent(Event::WindowClosed("@3".into()))),
            vec![
                Effect::Tmux(TmuxEffect::ForgetWindow("@3".into())),
                Effect::Tmux(TmuxEffect::Poll { generation: 0 })
            ]
        );
    }

    #[test]
    fn a_change_polls_at_once_and_one_during_a_poll_polls_again_after_it() {
        let mut s = live();
        assert_eq!(
            update(&mut s, Action::TmuxEvent(Event::Changed)),
            vec![Effect::Tmux(TmuxEffect::Poll { generation: 0 })]
        );
        // Two more changes while it runs: its answer is applied (it is news
        // up to then), and one more poll follows for what came after.
        assert!(update(&mut s, Action::TmuxEvent(Event::Changed)).is_empty());
        assert!(update(&mut s, Action::TmuxEvent(Event::Changed)).is_empty());
        let effects = update(&mut s, polled(0, 1));
        assert!(
            matches!(
                effects.as_slice(),
                [
                    Effect::Tmux(TmuxEffect::ApplyPoll(_)),
                    Effect::Tmux(TmuxEffect::Poll { generation: 0 })
                ]
            ),
            "{effects:?}"
        );
        let effects = update(&mut s, polled(0, 1));
        assert!(
            matches!(effects.as_slice(), [Effect::Tmux(TmuxEffect::ApplyPoll(_))]),
            "{effects:?}"
        );
    }

    #[test]
    fn a_lost_client_falls_back_to_polling_and_retries_with_backoff() {
        let mut s = live();
        let effects = update(&mut s, Action::TmuxEvent(Event::Lost("server gone".into())));
        assert_eq!(
            effects,
            vec![Effect::Tmux(TmuxEffect::Poll { generation: 0 })]
        );
        update(&mut s, polled(0, 0));
        assert!(matches!(s.link.events, TmuxEvents::Lost { .. }));
        // Polling every interval again; the retry comes after a second.
        at(&mut s, 0);
        assert_eq!(
            update(&mut s, Action::PollDue),
            vec![Effect::Tmux(TmuxEffect::Poll { generation: 0 })]
        );
        update(&mut s, polled(0, 0));
        at(&mut s, 1);
        let effects = update(&mut s, Action::PollDue);
        assert!(
            effects.contains(&Effect::Tmux(TmuxEffect::Listen)),
            "{effects:?}"
        );
        // It fails again: the next retry waits twice as long.
        update(&mut s, polled(0, 0));
        update(&mut s, Action::TmuxEvent(Event::Lost("refused".into())));
        update(&mut s, polled(0, 0));
        let TmuxEvents::Lost { retry, .. } = &s.link.events else {
            panic!("{:?}", s.link.events)
        };
        assert_eq!(*retry, now() + Duration::seconds(3));
        // Back: live, and the interval stops polling.
        update(&mut s, Action::TmuxEvent(Event::Connected));
        update(&mut s, polled(0, 0));
        assert_eq!(s.link.events, TmuxEvents::Live);
    }

    #[test]
    fn an_old_tmux_or_the_config_means_polling_for_good() {
        let mut s = loaded();
        s.link.tmux = TmuxStatus::Running;
        update(
            &mut s,
            Action::TmuxEvent(Event::Unsupported("tmux 3.1c".into())),
        );
        assert_eq!(s.link.events, TmuxEvents::Off("tmux 3.1c".into()));
        for secs in 1..5 {
            at(&mut s, secs * 60);
            let effects = update(&mut s, Action::PollDue);
            assert_eq!(
                effects,
                vec![Effect::Tmux(TmuxEffect::Poll { generation: 0 })]
            );
            update(&mut s, polled(0, secs));
        }
        let mut off = loaded();
        off.link.events = TmuxEvents::Disabled;
        update(&mut off, Action::PollDue);
        let effects = update(&mut off, polled(0, 0));
        assert!(!effects.contains(&Effect::Tmux(TmuxEffect::Listen)));
    }
}
