//! "Ready for you" in the dashboard: its glyph and count in the header and
//! the sidebar, its place in the pinned group (after waiting, errored and
//! stuck), and the look a moment's selection records (`Verb::Look`), only
//! while the operator uses the dashboard.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use chrono::Duration;
use greenroom::model::{Health, RowKey};
use greenroom::tui::action::{Action, Command, Effect};
use greenroom::tui::model::state::AppState;
use greenroom::tui::reduce::op::{On, Op, Verb};
use greenroom::tui::reduce::update::update;

use crate::tui::snapshots::{draw, now, pick, state};

/// The snapshots' rows, with `scratch` ready: its agent ended its turn
/// 2 minutes ago and the operator has not looked since.
fn with_ready(w: u16, h: u16) -> AppState {
    let mut s = state(w, h, "id-api-retries");
    for r in &mut s.list.rows {
        if r.id == "id-scratch" {
            r.health = Health::Ready;
            r.activity.since = Some(now() - Duration::minutes(2));
            r.activity.source = greenroom::model::ActivitySource::Hook;
            r.activity.reported = true;
            r.why = "finished its turn 2m ago; you have not looked since: ready".into();
        }
    }
    s.settings.pin_attention = true;
    s.refresh_visible();
    s
}

#[test]
fn a_ready_session_has_its_glyph_its_count_and_its_place_in_the_queue() {
    for (w, h) in [(100, 30), (160, 48)] {
        let mut s = with_ready(w, h);
        pick(&mut s, "id-scratch");
        let t = draw(&s, w, h);
        let screen = t.backend().to_string();
        // The header's long form where it fits, else the short one.
        let count = if w >= 160 { "▷ 1 ready" } else { "▷1" };
        assert!(screen.contains(count), "{screen}");
        assert!(screen.contains("▷ scratch"), "{screen}");
        insta::assert_snapshot!(format!("ready_{w}x{h}"), t.backend());
    }
    // The pinned group: waiting, errored, stuck, then ready.
    let s = with_ready(100, 30);
    let pinned: Vec<Health> = s
        .list
        .visible_sessions()
        .map(|r| r.health)
        .take_while(|h| h.needs_operator())
        .collect();
    assert_eq!(
        pinned.last(),
        Some(&Health::Ready),
        "ready comes last of those that need you: {pinned:?}"
    );
}

fn tick(s: &mut AppState, secs: i64) -> Vec<Effect> {
    update(s, Action::Tick(now() + Duration::seconds(secs)))
}

fn looks(effects: &[Effect]) -> Vec<&Op> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Op(op) if op.op == Verb::Look => Some(op),
            _ => None,
        })
        .collect()
}

#[test]
fn a_ready_session_kept_selected_for_a_moment_is_looked_at_once() {
    let mut s = with_ready(100, 30);
    tick(&mut s, 0);
    // The operator walks to it (the queue's last: waiting, errored, stuck
    // come first) and stays.
    for _ in 0..10 {
        if s.selected_session()
            .is_some_and(|r| r.health == Health::Ready)
        {
            break;
        }
        update(&mut s, Action::Command(Command::NextInQueue));
    }
    assert_eq!(s.nav.selected, Some(RowKey::here("id-scratch")));
    assert!(looks(&tick(&mut s, 1)).is_empty(), "the moment starts");
    assert!(looks(&tick(&mut s, 2)).is_empty(), "a second is a glance");
    let effects = tick(&mut s, 3);
    assert_eq!(
        looks(&effects),
        [&Op {
            op: Verb::Look,
            on: On::Here(vec!["id-scratch".into()]),
        }]
    );
    assert!(looks(&tick(&mut s, 4)).is_empty(), "recorded once");
    // The look came back as rows: idle, out of the queue.
    let mut rows = s.list.rows.clone();
    for r in &mut rows {
        if r.id == "id-scratch" {
            r.health = Health::Idle;
        }
    }
    update(
        &mut s,
        Action::Rows {
            rows,
            problems: vec![],
        },
    );
    assert!(looks(&tick(&mut s, 5)).is_empty());
    assert_eq!(s.triage.dwell, None);
}

/// An operator sitting in the agent's pane (a tmux client shows it, as the
/// poll says) looks at it: its finished turn is recorded as looked at once,
/// with no key in the dashboard, and again only once shown anew.
#[test]
fn a_ready_session_a_tmux_client_shows_is_looked_at() {
    let mut s = with_ready(100, 30);
    assert!(looks(&tick(&mut s, 0)).is_empty(), "no client shows it");
    let target = s
        .list
        .rows
        .iter()
        .find(|r| r.id == "id-scratch")
        .and_then(|r| r.tmux_target())
        .expect("scratch runs in tmux");
    s.notify.looked_at.insert(target);
    assert_eq!(
        looks(&tick(&mut s, 1)),
        [&Op {
            op: Verb::Look,
            on: On::Here(vec!["id-scratch".into()]),
        }]
    );
    assert!(looks(&tick(&mut s, 2)).is_empty(), "recorded once");
    s.notify.looked_at.clear();
    assert!(looks(&tick(&mut s, 3)).is_empty(), "the client left");
    assert!(s.triage.shown.is_empty());
}

#[test]
fn moving_on_or_leaving_the_dashboard_alone_looks_at_nothing() {
    let mut s = with_ready(100, 30);
    tick(&mut s, 0);
    pick(&mut s, "id-scratch");
    // Selected, but no key from the operator: a dashboard left in a
    // window looks at nothing, however long.
    for secs in 1..120 {
        assert!(looks(&tick(&mut s, secs)).is_empty(), "at {secs}s");
    }
    // A key, then away before the moment is over: nothing either.
    update(&mut s, Action::Command(Command::Top));
    let top = s.nav.selected.clone();
    assert_ne!(top, Some(RowKey::here("id-scratch")));
    for secs in 120..125 {
        assert!(looks(&tick(&mut s, secs)).is_empty(), "at {secs}s");
    }
}

/// A host's row is ready by that host's word; a moment's look at it is
/// recorded there, by `greenroom look` over the host's connection.
#[test]
fn a_look_at_a_hosts_ready_row_is_recorded_on_that_host() {
    use greenroom::model::{HostName, HostPlace};
    use greenroom::tui::reduce::op::{HostRow, host_args};
    let mut s = with_ready(100, 30);
    for r in &mut s.list.rows {
        if r.id == "id-scratch" {
            r.host = Some(HostPlace {
                name: HostName::new("build"),
                id: "id-scratch".into(),
            });
        }
    }
    s.refresh_visible();
    let key = RowKey {
        host: Some(HostName::new("build")),
        id: "id-scratch".into(),
    };
    tick(&mut s, 0);
    update(&mut s, Action::Command(Command::Top));
    s.nav.selected = Some(key.clone());
    tick(&mut s, 1);
    let effects = tick(&mut s, 3);
    assert_eq!(
        looks(&effects),
        [&Op {
            op: Verb::Look,
            on: On::Host {
                host: HostName::new("build"),
                rows: vec![HostRow {
                    id: "id-scratch".into(),
                    row: key,
                    name: "build:scratch".into(),
                }],
            },
        }]
    );
    assert_eq!(
        host_args(&Verb::Look, "id-scratch"),
        ["look", "--", "id-scratch"]
    );
}
