//! Notifications as the reducer decides them: once per change into a class
//! that needs the operator, rate-limited per session and overall (a burst
//! is one notice), never about what the operator is looking at, each class
//! switched on or off; and the text the driver writes made inert.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use chrono::{DateTime, Duration, TimeZone, Utc};
use greenroom::model::{Health, Session};
use greenroom::tmux::{ServerState, parse_server};
use greenroom::tui::action::{Action, Command, Effect, UiEffect};
use greenroom::tui::model::notify::Notice;
use greenroom::tui::model::state::AppState;
use greenroom::tui::reduce::notify::{OVERALL_GAP, PER_SESSION_GAP, PRESENT};
use greenroom::tui::reduce::update::update;
use greenroom::tui::shell::notify::{command_line, event_json, inert, osc, tmux_passthrough};

fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).unwrap()
}

fn session(name: &str, health: Health) -> Session {
    crate::support::session::session(name)
        .health(health)
        .tmux(Some(name))
        .build()
}

/// alpha, bravo, charlie, delta: all idle.
fn calm() -> Vec<Session> {
    ["alpha", "bravo", "charlie", "delta"]
        .iter()
        .map(|n| session(n, Health::Idle))
        .collect()
}

fn loaded() -> AppState {
    let mut s = AppState::new(start(), vec![]);
    rows(&mut s, calm());
    s
}

fn rows(s: &mut AppState, rows: Vec<Session>) -> Vec<Notice> {
    notices(update(
        s,
        Action::Rows {
            rows,
            problems: vec![],
        },
    ))
}

/// The rows with `name` turned `health`.
fn turn(s: &mut AppState, turns: &[(&str, Health)]) -> Vec<Notice> {
    let mut next = s.list.rows.clone();
    for (name, health) in turns {
        next.iter_mut().find(|r| r.name == *name).unwrap().health = *health;
    }
    rows(s, next)
}

fn tick(s: &mut AppState, at: DateTime<Utc>) -> Vec<Notice> {
    notices(update(s, Action::Tick(at)))
}

fn notices(effects: Vec<Effect>) -> Vec<Notice> {
    effects
        .into_iter()
        .filter_map(|e| match e {
            Effect::Ui(UiEffect::Notify(n)) => Some(n),
            _ => None,
        })
        .collect()
}

fn names(n: &Notice) -> Vec<&str> {
    n.rows.iter().map(|r| r.name.as_str()).collect()
}

#[test]
fn a_session_is_notified_once_per_change_into_a_class_that_needs_you() {
    let mut s = loaded();
    let sent = turn(&mut s, &[("charlie", Health::Waiting)]);
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].title, "greenroom: charlie is waiting");
    assert_eq!(sent[0].kind, "needs_you");
    assert!(
        turn(&mut s, &[]).is_empty(),
        "the same state again: no notice"
    );
    // Back to work and waiting again within the per-session gap: quiet.
    turn(&mut s, &[("charlie", Health::Active)]);
    assert!(turn(&mut s, &[("charlie", Health::Waiting)]).is_empty());
    // After it, a new change is news again.
    tick(&mut s, start() + PER_SESSION_GAP + Duration::seconds(1));
    turn(&mut s, &[("charlie", Health::Active)]);
    let again = turn(&mut s, &[("charlie", Health::Errored)]);
    assert_eq!(again.len(), 1, "{again:?}");
    assert_eq!(again[0].rows[0].health, Health::Errored);
}

#[test]
fn a_burst_is_one_notice_and_the_overall_gap_holds_the_next() {
    let mut s = loaded();
    let burst = turn(
        &mut s,
        &[("alpha", Health::Waiting), ("bravo", Health::Errored)],
    );
    assert_eq!(burst.len(), 1, "{burst:?}");
    assert_eq!(burst[0].title, "greenroom: 2 sessions need you");
    assert_eq!(names(&burst[0]), ["bravo", "alpha"], "most urgent first");
    // One more a second later waits out the gap, with any other.
    tick(&mut s, start() + Duration::seconds(1));
    assert!(turn(&mut s, &[("charlie", Health::Stuck)]).is_empty());
    assert!(turn(&mut s, &[("delta", Health::Waiting)]).is_empty());
    assert!(tick(&mut s, start() + Duration::seconds(2)).is_empty());
    let held = tick(&mut s, start() + OVERALL_GAP);
    assert_eq!(held.len(), 1, "{held:?}");
    assert_eq!(names(&held[0]), ["delta", "charlie"]);
    assert!(s.notify.pending.is_empty());
    assert!(tick(&mut s, start() + OVERALL_GAP * 3).is_empty());
}

#[test]
fn a_held_session_that_calmed_down_is_left_out() {
    let mut s = loaded();
    turn(&mut s, &[("alpha", Health::Waiting)]);
    assert!(turn(&mut s, &[("bravo", Health::Waiting)]).is_empty());
    turn(&mut s, &[("bravo", Health::Active)]);
    assert!(tick(&mut s, start() + OVERALL_GAP).is_empty());
}

#[test]
fn a_session_a_tmux_client_shows_is_not_notified() {
    let mut s = loaded();
    // What `list-panes -a` says: charlie's pane is the active one of an
    // attached session; delta's session is attached but shows another pane.
    let line = |attached: &str, pane: &str, name: &str| {
        [
            "0",
            "",
            "1700000000",
            "0",
            pane,
            "100",
            "$1",
            "@1",
            attached,
            "sh",
            name,
        ]
        .join("\x1f")
    };
    let text = [
        line("1:11", "%1", "charlie"),
        line("1:10", "%2", "delta"),
        line("0:11", "%3", "alpha"),
    ]
    .join("\n");
    let generation = s.link.poll.generation;
    update(
        &mut s,
        Action::Polled {
            server: ServerState::Running(parse_server(&text)),
            generation,
        },
    );
    let sent = turn(
        &mut s,
        &[
            ("charlie", Health::Waiting),
            ("delta", Health::Waiting),
            ("alpha", Health::Waiting),
        ],
    );
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(names(&sent[0]), ["alpha", "delta"]);
}

#[test]
fn the_selection_is_looked_at_only_while_the_operator_types_in_a_focused_dashboard() {
    let mut s = loaded();
    let alpha = |s: &AppState| s.nav.selected.as_ref().map(|k| k.id.clone());
    assert_eq!(alpha(&s).as_deref(), Some("id-alpha"));
    // Selected but no key pressed yet: they may be elsewhere.
    assert_eq!(turn(&mut s, &[("alpha", Health::Waiting)]).len(), 1);
    turn(&mut s, &[("alpha", Health::Idle)]);
    tick(&mut s, start() + PER_SESSION_GAP + Duration::seconds(1));
    update(&mut s, Action::Command(Command::Top)); // a key
    assert!(turn(&mut s, &[("alpha", Health::Waiting)]).is_empty());
    // The terminal loses the focus: the selection is not looked at.
    turn(&mut s, &[("alpha", Health::Idle)]);
    update(&mut s, Action::Focus(false));
    assert_eq!(turn(&mut s, &[("alpha", Health::Errored)]).len(), 1);
    // Focused again, but the last key is older than PRESENT.
    update(&mut s, Action::Focus(true));
    let later = start() + PER_SESSION_GAP * 2 + PRESENT + Duration::seconds(2);
    tick(&mut s, later);
    turn(&mut s, &[("alpha", Health::Idle)]);
    assert_eq!(turn(&mut s, &[("alpha", Health::Stuck)]).len(), 1);
}

#[test]
fn each_class_can_be_turned_off_and_alerts_off_turns_off_all() {
    let mut s = loaded();
    s.settings.notify_on = vec![Health::Errored, Health::Stuck];
    assert!(turn(&mut s, &[("alpha", Health::Waiting)]).is_empty());
    let sent = turn(&mut s, &[("bravo", Health::Errored)]);
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(names(&sent[0]), ["bravo"]);
    let mut off = loaded();
    off.settings.alerts = false;
    assert!(turn(&mut off, &[("bravo", Health::Errored)]).is_empty());
    assert!(off.triage.attention.iter().any(|k| k.id == "id-bravo"));
}

#[test]
fn the_bell_setting_rides_on_the_notice() {
    let mut s = loaded();
    s.settings.bell = false;
    let sent = turn(&mut s, &[("alpha", Health::Waiting)]);
    assert!(!sent[0].bell);
}

#[test]
fn what_reaches_the_terminal_is_inert_and_bounded() {
    let hostile = "a\x1b]52;c;ZXZpbA==\x07b\u{9c}c\nd";
    let clean = inert(hostile);
    assert!(!clean.chars().any(char::is_control), "{clean:?}");
    assert_eq!(inert(&"x".repeat(500)).chars().count(), 200);
    let seq = osc("greenroom: a;b", "body");
    assert_eq!(
        seq,
        b"\x1b]777;notify;greenroom: a,b;body\x07\x1b]9;greenroom: a;b: body\x07"
    );
    assert_eq!(
        tmux_passthrough(b"\x1b]9;x\x07"),
        b"\x1bPtmux;\x1b\x1b]9;x\x07\x1b\\"
    );
}

#[test]
fn the_event_is_one_json_object_with_the_session_and_what_it_asks() {
    let mut s = loaded();
    let mut next = s.list.rows.clone();
    next[1].health = Health::Waiting;
    next[1].waiting_for = Some(greenroom::model::WaitingFor {
        tool: Some("Bash".into()),
        command: Some("rm -rf \x1b[2J build".into()),
        ..Default::default()
    });
    let sent = rows(&mut s, next);
    let json = event_json(&sent[0]);
    assert!(!json.contains('\n'));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["kind"], "needs_you");
    assert_eq!(v["id"], "id-bravo");
    assert_eq!(v["name"], "bravo");
    assert_eq!(v["health"], "waiting");
    assert_eq!(v["host"], serde_json::Value::Null);
    assert!(v["asks"].as_str().unwrap().contains("rm -rf"), "{v}");
    assert!(!v["asks"].as_str().unwrap().contains('\x1b'), "{v}");
    assert!(
        v["time"]
            .as_str()
            .unwrap()
            .starts_with("2026-11-29T12:00:00")
    );
    assert_eq!(v["sessions"].as_array().unwrap().len(), 1);
    assert_eq!(
        v["text"],
        format!(
            "{}: {}",
            v["title"].as_str().unwrap(),
            v["body"].as_str().unwrap()
        )
    );
}

#[test]
fn the_title_and_body_fill_their_arguments_and_stay_in_them() {
    let mut s = loaded();
    let mut next = s.list.rows.clone();
    next[0].health = Health::Waiting;
    next[0].waiting_for = Some(greenroom::model::WaitingFor {
        question: Some("ok?\r\nX-Injected: 1; $(reboot)".into()),
        ..Default::default()
    });
    let sent = rows(&mut s, next);
    let template: Vec<String> = [
        "curl",
        "-H",
        "Title: {title}",
        "--data-raw",
        "{body}",
        "{x}",
    ]
    .map(String::from)
    .to_vec();
    let argv = command_line(&template, &sent[0]);
    assert_eq!(argv.len(), template.len());
    assert_eq!(argv[2], "Title: greenroom: alpha is waiting");
    assert_eq!(argv[4], "ok?  X-Injected: 1; $(reboot)");
    assert_eq!(argv[5], "{x}");
}
