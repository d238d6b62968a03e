//! The reducer's decisions about other hosts: rows from a host's stream,
//! an older connection's lines dropped, a host down keeps its rows greyed
//! with why and since when and is tried again with backoff, and actions on
//! a host's rows go to that host with checked ids.

use chrono::Duration;
use greenroom::model::row_name;
use greenroom::model::{HostName, HostPlace, RowKey};
use greenroom::ops::AnswerKey;
use greenroom::sources::wire::{Line, parse_line};
use greenroom::tui::action::{Action, Command, Effect};
use greenroom::tui::action::{HostEffect, UiEffect};
use greenroom::tui::model::state::AppState;
use greenroom::tui::reduce::hosts::{HostNews, HostSaid, Link, gather, greyed, initial};
use greenroom::tui::reduce::op::{HostRow, On, Op, Verb, decide};
use greenroom::tui::reduce::update::update;

use crate::tui::modes::{loaded, now};

const ID: &str = "0b7c3c57-8f0c-4d5e-9f61-1b1a2b3c4d5e";

fn row(id: &str, name: &str) -> String {
    format!(
        r#"{{"id":"{id}","name":"{name}","status":"Running","health":"idle","cwd":"/w","tmux_session":"gr-{name}","activity":{{"state":"idle"}}}}"#
    )
}

fn snapshot(rows: &[String]) -> Line {
    let text = format!(
        r#"{{"type":"snapshot","greenroom":"0.1.0","protocol":1,"sessions":[{}],"problems":[]}}"#,
        rows.join(",")
    );
    parse_line(text.as_bytes(), "build").unwrap()
}

fn with_host() -> (AppState, Vec<Effect>) {
    let mut s = loaded();
    s.hosts = initial(&["build".to_owned()], now());
    let effects = update(&mut s, Action::Tick(now()));
    (s, effects)
}

fn news(s: &mut AppState, attempt: u64, news: HostNews) -> Vec<Effect> {
    update(
        s,
        Action::Hosts(vec![HostSaid {
            host: "build".into(),
            attempt,
            news,
        }]),
    )
}

/// The key of host `build`'s row `id`.
fn build_row(id: &str) -> RowKey {
    RowKey::on(HostName::new("build"), id)
}

/// The rows' names as the screen shows them.
fn names(s: &AppState) -> Vec<String> {
    let mut n: Vec<String> = s
        .list
        .rows
        .iter()
        .map(|r| row_name(r).into_owned())
        .collect();
    n.sort();
    n
}

#[test]
fn a_hosts_rows_join_the_local_ones_tagged() {
    let (mut s, effects) = with_host();
    assert_eq!(
        effects,
        vec![Effect::Host(HostEffect::Connect {
            host: "build".into(),
            attempt: 1
        })]
    );
    news(&mut s, 1, HostNews::Line(snapshot(&[row(ID, "api")])));
    assert_eq!(names(&s), ["alpha", "bravo", "build:api", "charlie"]);
    assert!(s.list.rows.iter().any(|r| r.is(&build_row(ID))));
    let r = s.list.rows.iter().find(|r| r.is(&build_row(ID))).unwrap();
    assert!(!greyed(&s.hosts, r));

    // Local rows come again (a file changed): the host's stay.
    let local: Vec<_> = s
        .list
        .rows
        .iter()
        .filter(|r| r.host.is_none())
        .cloned()
        .collect();
    update(
        &mut s,
        Action::Rows {
            rows: local,
            problems: vec![],
        },
    );
    assert_eq!(names(&s).len(), 4);

    // A change, and a removal.
    let changed = format!(r#"{{"type":"changed","session":{}}}"#, row(ID, "api2"));
    news(
        &mut s,
        1,
        HostNews::Line(parse_line(changed.as_bytes(), "build").unwrap()),
    );
    assert!(names(&s).contains(&"build:api2".to_owned()));
    let removed = format!(r#"{{"type":"removed","id":"{ID}"}}"#);
    news(
        &mut s,
        1,
        HostNews::Line(parse_line(removed.as_bytes(), "build").unwrap()),
    );
    assert_eq!(names(&s), ["alpha", "bravo", "charlie"]);
}

#[test]
fn an_older_connections_lines_are_dropped() {
    let (mut s, _) = with_host();
    news(&mut s, 0, HostNews::Line(snapshot(&[row(ID, "api")])));
    assert_eq!(names(&s).len(), 3);
}

#[test]
fn a_host_down_keeps_its_rows_greyed_and_is_retried_with_backoff() {
    let (mut s, _) = with_host();
    news(&mut s, 1, HostNews::Line(snapshot(&[row(ID, "api")])));
    news(&mut s, 1, HostNews::Down("Connection refused".into()));
    let r = s
        .list
        .rows
        .iter()
        .find(|r| row_name(r) == "build:api")
        .unwrap();
    let detail = r.activity.detail.clone().unwrap();
    assert!(
        detail.starts_with("build down since 12:00:00: Connection refused"),
        "{detail}"
    );
    assert!(greyed(&s.hosts, r));
    // Not before the backoff (1 s), then once.
    assert!(update(&mut s, Action::Tick(now())).is_empty());
    let effects = update(&mut s, Action::Tick(now() + Duration::seconds(1)));
    assert_eq!(
        effects,
        vec![Effect::Host(HostEffect::Connect {
            host: "build".into(),
            attempt: 2
        })]
    );
    // Down again: the wait doubles; "since" stays the first time.
    s.now = now() + Duration::seconds(2);
    news(&mut s, 2, HostNews::Down("Connection refused".into()));
    match &s.hosts["build"].link {
        Link::Down {
            since, retry_at, ..
        } => {
            assert_eq!(*since, now());
            assert_eq!(*retry_at, now() + Duration::seconds(4));
        }
        other => panic!("{other:?}"),
    }
    // Back: live, the detail gone; the wait is reset once the stream has
    // lived a while (see the next test).
    news(&mut s, 2, HostNews::Line(snapshot(&[row(ID, "api")])));
    let r = s
        .list
        .rows
        .iter()
        .find(|r| row_name(r) == "build:api")
        .unwrap();
    assert_eq!(r.activity.detail, None);
    assert!(!greyed(&s.hosts, r));
    s.now = now() + Duration::seconds(35);
    news(&mut s, 2, line(r#"{"type":"heartbeat"}"#));
    update(&mut s, Action::Tick(now() + Duration::seconds(40)));
    assert_eq!(s.hosts["build"].backoff.secs(), 1);
}

/// A host that sends its snapshot and then a line greenroom cannot read
/// (or never ends one) is not tried again every second forever: the wait
/// keeps growing and "down since" keeps the first time, until a stream
/// has lived a while.
#[test]
fn a_snapshot_alone_does_not_reset_the_wait() {
    let (mut s, _) = with_host();
    let mut attempt = 1;
    let mut at = now();
    let mut waits = Vec::new();
    for _ in 0..8 {
        s.now = at;
        news(&mut s, attempt, HostNews::Line(snapshot(&[row(ID, "api")])));
        news(
            &mut s,
            attempt,
            HostNews::Down("the connection ended".into()),
        );
        let Link::Down {
            since, retry_at, ..
        } = s.hosts["build"].link.clone()
        else {
            panic!("{:?}", s.hosts["build"].link);
        };
        assert_eq!(since, now(), "down since the first time");
        waits.push((retry_at - at).num_seconds());
        at = retry_at;
        let effects = update(&mut s, Action::Tick(at));
        assert!(matches!(
            effects.as_slice(),
            [Effect::Host(HostEffect::Connect { .. })]
        ));
        attempt += 1;
    }
    assert_eq!(waits, [1, 2, 4, 8, 16, 32, 60, 60]);
    // A stream that lives past the healthy time starts the wait afresh.
    s.now = at;
    news(&mut s, attempt, HostNews::Line(snapshot(&[row(ID, "api")])));
    s.now = at + Duration::seconds(25);
    news(&mut s, attempt, line(r#"{"type":"heartbeat"}"#));
    update(&mut s, Action::Tick(at + Duration::seconds(31)));
    s.now = at + Duration::seconds(32);
    news(
        &mut s,
        attempt,
        HostNews::Down("the connection ended".into()),
    );
    match &s.hosts["build"].link {
        Link::Down {
            since, retry_at, ..
        } => {
            assert_eq!(*since, at + Duration::seconds(32));
            assert_eq!(*retry_at, at + Duration::seconds(33));
        }
        other => panic!("{other:?}"),
    }
}

fn line(text: &str) -> HostNews {
    HostNews::Line(parse_line(text.as_bytes(), "build").unwrap())
}

fn said(news: Vec<HostNews>) -> Action {
    Action::Hosts(
        news.into_iter()
            .map(|news| HostSaid {
                host: "build".into(),
                attempt: 1,
                news,
            })
            .collect(),
    )
}

fn uuid(n: usize) -> String {
    format!("00000000-0000-4000-8000-{n:012}")
}

/// A hostile host's 100,000-row snapshot and 8,000 `added` lines: the
/// host's rows stop at the cap (a problem says so), each line costs the
/// same whatever the number of rows, and the list is sorted once per burst
/// (as the runner hands them over: an inbox's worth at a time), not once
/// per line; heartbeats sort nothing.
#[test]
fn a_huge_snapshot_and_a_flood_of_added_rows_cost_one_sort_per_burst() {
    let (mut s, _) = with_host();
    // Short rows: 100,000 of them fit in one line.
    let rows: Vec<String> = (0..100_000)
        .map(|n| format!(r#"{{"id":"{}","name":"r{n}"}}"#, uuid(n)))
        .collect();
    let sorts = s.list.sorts;
    update(&mut s, said(vec![HostNews::Line(snapshot(&rows))]));
    assert_eq!(s.list.sorts - sorts, 1);
    let max = greenroom::tui::reduce::hosts::MAX_ROWS;
    let view = &s.hosts["build"];
    assert_eq!(view.rows.len(), max);
    assert!(
        view.problems
            .iter()
            .any(|p| p.contains(&format!("only {max} are shown"))),
        "{:?}",
        view.problems
    );
    assert_eq!(s.list.rows.len(), 3 + max);

    // 8,000 rows more, past the cap: none shown; then rows removed make
    // room for new ones.
    let burst = greenroom::hosts::stream::INBOX_LINES;
    let added: Vec<HostNews> = (100_000..108_000)
        .map(|n| {
            line(&format!(
                r#"{{"type":"added","session":{}}}"#,
                row(&uuid(n), &format!("r{n}"))
            ))
        })
        .collect();
    let sorts = s.list.sorts;
    let mut bursts = 0;
    let mut added = added.into_iter().peekable();
    while added.peek().is_some() {
        update(&mut s, said(added.by_ref().take(burst).collect()));
        bursts += 1;
    }
    assert!(
        s.list.sorts - sorts <= bursts,
        "{} sorts",
        s.list.sorts - sorts
    );
    assert_eq!(s.list.rows.len(), 3 + max);
    let removed: Vec<HostNews> = (0..4000)
        .map(|n| line(&format!(r#"{{"type":"removed","id":"{}"}}"#, uuid(n))))
        .collect();
    let added: Vec<HostNews> = (200_000..208_000)
        .map(|n| {
            line(&format!(
                r#"{{"type":"added","session":{}}}"#,
                row(&uuid(n), &format!("r{n}"))
            ))
        })
        .collect();
    let sorts = s.list.sorts;
    update(&mut s, said(removed));
    update(&mut s, said(added));
    assert_eq!(s.list.sorts - sorts, 2);
    assert_eq!(s.list.rows.len(), 3 + max);
    assert!(s.list.rows.iter().any(|r| row_name(r) == "build:r200000"));
    assert!(!s.list.rows.iter().any(|r| row_name(r) == "build:r0"));

    // Changes to known rows swap in place; heartbeats touch nothing.
    let sorts = s.list.sorts;
    let changed: Vec<HostNews> = (4000..5000)
        .map(|n| {
            line(&format!(
                r#"{{"type":"changed","session":{}}}"#,
                row(&uuid(n), &format!("c{n}"))
            ))
        })
        .collect();
    update(&mut s, said(changed));
    assert!(s.list.rows.iter().any(|r| row_name(r) == "build:c4999"));
    for _ in 0..1000 {
        update(&mut s, said(vec![line(r#"{"type":"heartbeat"}"#)]));
    }
    assert!(s.list.sorts - sorts <= 1, "{} sorts", s.list.sorts - sorts);
}

#[test]
fn a_silent_stream_counts_as_down() {
    let (mut s, _) = with_host();
    news(&mut s, 1, HostNews::Line(snapshot(&[row(ID, "api")])));
    update(&mut s, Action::Tick(now() + Duration::seconds(25)));
    assert!(matches!(s.hosts["build"].link, Link::Down { .. }));
}

/// Every verb on a host's row is an op on that host (the pane beside,
/// this machine's, refuses it), never one here; with a local row of the
/// same tmux session name beside it, each acts where its row is.
#[test]
fn every_op_on_a_hosts_row_acts_on_that_host() {
    let (mut s, _) = with_host();
    // The host's row has the tmux session name of a local row.
    news(&mut s, 1, HostNews::Line(snapshot(&[row(ID, "alpha")])));
    let host_row = build_row(ID);
    let r = s.list.rows.iter().find(|r| r.is(&host_row)).unwrap();
    assert_eq!(
        r.host,
        Some(HostPlace {
            name: HostName::new("build"),
            id: ID.into()
        })
    );
    assert_eq!(r.tmux_session.as_deref(), Some("gr-alpha"));
    let on_host = |verb: Verb| {
        Effect::Op(Op {
            op: verb,
            on: On::Host {
                host: HostName::new("build"),
                rows: vec![HostRow {
                    id: ID.into(),
                    row: host_row.clone(),
                    name: "build:alpha".into(),
                }],
            },
        })
    };
    let verbs = [
        Verb::Kill,
        Verb::Dismiss,
        Verb::DismissWorktree {
            discard_changes: true,
        },
        Verb::Restore,
        Verb::Send("-rf hi".into()),
        Verb::Key(AnswerKey::Enter),
        Verb::Key(AnswerKey::Escape),
        Verb::Key(AnswerKey::Digit(3)),
        Verb::Key(AnswerKey::CtrlC),
        Verb::Snooze(std::time::Duration::from_secs(600)),
        Verb::Wake,
        Verb::Capture,
        Verb::Attach,
    ];
    for verb in verbs {
        assert_eq!(
            decide(&mut s, verb.clone(), std::slice::from_ref(&host_row)),
            vec![on_host(verb.clone())],
            "{verb:?}"
        );
    }
    for verb in [Verb::OpenBeside, Verb::Follow(crate::tui::reducer::pane())] {
        assert!(decide(&mut s, verb, std::slice::from_ref(&host_row)).is_empty());
    }
    // A kill of a local and a host's row at once: one op each, where each is.
    assert_eq!(
        decide(
            &mut s,
            Verb::Kill,
            &[host_row.clone(), RowKey::here("id-alpha")]
        ),
        vec![
            crate::support::here(Verb::Kill, &["id-alpha"]),
            on_host(Verb::Kill)
        ]
    );
}

/// The keys on a host's row go to the host: `y`, `N`, a digit, `s` with
/// `<C-c>`, and `z`; `D` and `r` too (its greenroom decides).
#[test]
fn keys_on_a_hosts_row_make_ops_on_that_host() {
    let (mut s, _) = with_host();
    let waiting = row(ID, "alpha").replace(r#""health":"idle""#, r#""health":"waiting""#);
    news(&mut s, 1, HostNews::Line(snapshot(&[waiting])));
    let host_row = build_row(ID);
    s.nav.selected = Some(host_row.clone());
    let host_of = |effects: &[Effect]| -> Vec<(Verb, RowKey)> {
        effects
            .iter()
            .filter_map(|e| match e {
                Effect::Op(Op {
                    op,
                    on: On::Host { host, rows },
                }) => Some((op.clone(), RowKey::on(host.clone(), rows[0].id.clone()))),
                _ => None,
            })
            .collect()
    };
    let here = |effects: &[Effect]| {
        effects
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Effect::Op(Op {
                        on: On::Here(_),
                        ..
                    })
                )
            })
            .count()
    };
    for (c, verb) in [
        (Command::Allow, Verb::Key(AnswerKey::Enter)),
        (Command::Deny, Verb::Key(AnswerKey::Escape)),
        (Command::Choice(2), Verb::Key(AnswerKey::Digit(2))),
        (Command::Snooze, Verb::Snooze(s.settings.snooze)),
        (Command::Restore, Verb::Restore),
    ] {
        let effects = update(&mut s, Action::Command(c));
        assert_eq!(here(&effects), 0, "{c:?}: {effects:?}");
        assert_eq!(host_of(&effects), vec![(verb, host_row.clone())], "{c:?}");
    }
    // `s` with `<C-c>`.
    update(&mut s, Action::Command(Command::Send));
    update(&mut s, Action::Paste("<C-c>".into()));
    let effects = update(&mut s, Action::Command(Command::Submit));
    assert_eq!(here(&effects), 0, "{effects:?}");
    assert_eq!(
        host_of(&effects),
        vec![(Verb::Key(AnswerKey::CtrlC), host_row.clone())]
    );
}

#[test]
fn a_row_whose_id_could_not_go_on_a_command_line_never_arrives() {
    let (mut s, _) = with_host();
    news(
        &mut s,
        1,
        HostNews::Line(snapshot(&[row("x;reboot", "evil"), row(ID, "api")])),
    );
    assert_eq!(names(&s), ["alpha", "bravo", "build:api", "charlie"]);
}

#[test]
fn each_hosts_rows_are_listed_together_after_the_local_ones() {
    let mut s = loaded();
    s.hosts = initial(&["b1".to_owned(), "a1".to_owned()], now());
    update(&mut s, Action::Tick(now()));
    // Focused just now, b1's last: by focus alone they would come first.
    for (host, at) in [("b1", "12:00:00"), ("a1", "11:59:59")] {
        let focused = row(ID, "x").replace(
            r#""cwd""#,
            &format!(r#""last_focused_at":"2026-11-29T{at}Z","cwd""#),
        );
        let text = format!(
            r#"{{"type":"snapshot","greenroom":"0.1.0","protocol":1,"sessions":[{focused}],"problems":[]}}"#
        );
        update(
            &mut s,
            Action::Hosts(vec![HostSaid {
                host: host.into(),
                attempt: 1,
                news: HostNews::Line(parse_line(text.as_bytes(), host).unwrap()),
            }]),
        );
    }
    let order: Vec<String> = s
        .list
        .visible_sessions()
        .map(|r| row_name(r).into_owned())
        .collect();
    assert_eq!(
        order[3..],
        ["a1:x".to_owned(), "b1:x".to_owned()],
        "{order:?}"
    );
}

/// A live host's row that changed is swapped in alone: the dashboard ends
/// as a snapshot saying the same would leave it (names, health, order,
/// marks).
#[test]
fn a_changed_row_of_a_live_host_equals_a_snapshot_saying_it() {
    const OTHER: &str = "1c8d4d68-9a6e-4f1f-8a72-2c2b3c4d5e6f";
    let waiting =
        |id: &str, name: &str| row(id, name).replace(r#""health":"idle""#, r#""health":"waiting""#);
    let (mut by_line, _) = with_host();
    news(
        &mut by_line,
        1,
        HostNews::Line(snapshot(&[row(ID, "api"), row(OTHER, "web")])),
    );
    let mut by_snapshot = by_line.clone();
    let changed = format!(r#"{{"type":"changed","session":{}}}"#, waiting(ID, "api2"));
    let effects_line = news(
        &mut by_line,
        1,
        HostNews::Line(parse_line(changed.as_bytes(), "build").unwrap()),
    );
    let effects_snapshot = news(
        &mut by_snapshot,
        1,
        HostNews::Line(snapshot(&[waiting(ID, "api2"), row(OTHER, "web")])),
    );
    assert_eq!(effects_line, effects_snapshot);
    assert!(names(&by_line).contains(&"build:api2".to_owned()));
    let visible = |s: &AppState| -> Vec<(String, String)> {
        s.list
            .visible_sessions()
            .map(|r| (row_name(r).into_owned(), r.health.to_string()))
            .collect()
    };
    assert_eq!(visible(&by_line), visible(&by_snapshot));
    assert_eq!(by_line.triage.attention, by_snapshot.triage.attention);
    assert_eq!(by_line.triage.last_health, by_snapshot.triage.last_health);
}

/// A burst of lines that arrived together (one action, as the dashboard
/// gathers them) leaves what the same lines one action each leave: the
/// rows, their order, the alerts and the attention queue. A line that
/// takes the long way (a new row, the link going down) keeps its place.
#[test]
fn a_burst_of_lines_in_one_action_equals_the_lines_one_by_one() {
    const OTHER: &str = "1c8d4d68-9a6e-4f1f-8a72-2c2b3c4d5e6f";
    const NEW: &str = "2d9e5e79-ab7f-4a2a-9b83-3d3c4d5e6f70";
    let waiting =
        |id: &str, name: &str| row(id, name).replace(r#""health":"idle""#, r#""health":"waiting""#);
    let line = |kind: &str, session: String| {
        let text = format!(r#"{{"type":"{kind}","session":{session}}}"#);
        HostNews::Line(parse_line(text.as_bytes(), "build").unwrap())
    };
    let (mut one_by_one, _) = with_host();
    news(
        &mut one_by_one,
        1,
        HostNews::Line(snapshot(&[row(ID, "api"), row(OTHER, "web")])),
    );
    let mut together = one_by_one.clone();
    let burst = vec![
        line("changed", waiting(ID, "api")),
        line("changed", waiting(OTHER, "web")),
        line("added", row(NEW, "new")),
        line("changed", row(ID, "api")),
        line("changed", waiting(ID, "api2")),
        HostNews::Down("connection reset".into()),
    ];
    let mut effects_one = Vec::new();
    for n in burst.clone() {
        effects_one.extend(news(&mut one_by_one, 1, n));
    }
    let said: Vec<Action> = burst
        .into_iter()
        .map(|news| {
            Action::Hosts(vec![HostSaid {
                host: "build".into(),
                attempt: 1,
                news,
            }])
        })
        .collect();
    let gathered = gather(said);
    assert_eq!(gathered.len(), 1, "{gathered:?}");
    let effects_together: Vec<Effect> = gathered
        .into_iter()
        .flat_map(|a| update(&mut together, a))
        .collect();
    assert_eq!(effects_together, effects_one);
    assert!(
        effects_one
            .iter()
            .filter(|e| matches!(e, Effect::Ui(UiEffect::Notify(_))))
            .count()
            == 1,
        "{effects_one:?}"
    );
    // A host's row is told by its shown name, and its host is in the event.
    let told = effects_one
        .iter()
        .find_map(|e| match e {
            Effect::Ui(UiEffect::Notify(n)) => Some(n),
            _ => None,
        })
        .unwrap();
    assert_eq!(told.title, "greenroom: build:api is waiting");
    let event: serde_json::Value =
        serde_json::from_str(&greenroom::tui::shell::notify::event_json(told)).unwrap();
    assert_eq!(event["host"], "build");
    // The second host row to turn waits out the overall gap, in both.
    assert_eq!(together.notify.pending, one_by_one.notify.pending);
    assert_eq!(one_by_one.notify.pending.len(), 1);
    let visible = |s: &AppState| -> Vec<(String, String)> {
        s.list
            .visible_sessions()
            .map(|r| (row_name(r).into_owned(), r.health.to_string()))
            .collect()
    };
    assert_eq!(visible(&together), visible(&one_by_one));
    assert!(names(&together).contains(&"build:new".to_owned()));
    assert_eq!(together.list.rows, one_by_one.list.rows);
    assert_eq!(together.triage.attention, one_by_one.triage.attention);
    assert_eq!(together.triage.last_health, one_by_one.triage.last_health);
    assert_eq!(together.hosts, one_by_one.hosts);
}

#[test]
fn gathering_joins_hosts_news_in_a_row_and_keeps_every_other_action_in_place() {
    let said = |n: u64| {
        Action::Hosts(vec![HostSaid {
            host: "build".into(),
            attempt: n,
            news: HostNews::Down("x".into()),
        }])
    };
    let gathered = gather(vec![said(1), said(2), Action::PollDue, said(3)]);
    let shape: Vec<Vec<u64>> = gathered
        .iter()
        .map(|a| match a {
            Action::Hosts(s) => s.iter().map(|s| s.attempt).collect(),
            _ => Vec::new(),
        })
        .collect();
    assert_eq!(shape, vec![vec![1, 2], vec![], vec![3]]);
    assert_eq!(gathered[1], Action::PollDue);
}

/// A row's host and the host's own id are the row's typed place, never
/// read back from its id in the list: with a host whose name holds the
/// list id's `/`, its rows stay its own (not taken for this machine's,
/// so never doubled when the list is built again, nor polled here) and
/// an op on one names that host and its own id.
#[test]
fn a_hosts_row_keeps_its_place_whatever_the_hosts_name_holds() {
    const HOST: &str = "a/b";
    let mut s = loaded();
    s.hosts = initial(&[HOST.to_owned()], now());
    update(&mut s, Action::Tick(now()));
    let said = |s: &mut AppState| {
        let text = format!(
            r#"{{"type":"snapshot","greenroom":"0.1.0","protocol":1,"sessions":[{}],"problems":[]}}"#,
            row(ID, "api")
        );
        let line = parse_line(text.as_bytes(), HOST).unwrap();
        update(
            s,
            Action::Hosts(vec![HostSaid {
                host: HOST.into(),
                attempt: 1,
                news: HostNews::Line(line),
            }]),
        );
    };
    said(&mut s);
    said(&mut s);
    let theirs: Vec<RowKey> = s
        .list
        .rows
        .iter()
        .filter(|r| r.host.is_some())
        .map(|r| r.key())
        .collect();
    assert_eq!(theirs.len(), 1, "{:?}", names(&s));
    assert_eq!(s.list.rows.len(), 4, "{:?}", names(&s));
    let list_id = theirs[0].clone();
    // Its group sorts after this machine's rows.
    let last = s.list.visible_sessions().last().map(|r| r.key());
    assert_eq!(last.as_ref(), Some(&list_id));
    let effects = decide(&mut s, Verb::Kill, std::slice::from_ref(&list_id));
    assert_eq!(
        effects,
        vec![Effect::Op(Op {
            op: Verb::Kill,
            on: On::Host {
                host: HostName::new(HOST),
                rows: vec![HostRow {
                    id: ID.into(),
                    row: list_id.clone(),
                    name: format!("{HOST}:api"),
                }],
            },
        })]
    );
}

/// A host's row with the same session name and the same id as a local
/// row is another row: selected, marked, answered and marked for
/// attention on its own, and acted on where it is.
#[test]
fn a_hosts_row_and_a_local_row_of_the_same_name_and_id_are_two_rows() {
    let (mut s, _) = with_host();
    // Local `bravo` (id `id-bravo`) is waiting; the host's twin is too.
    let twin = row("id-bravo", "bravo").replace(r#""health":"idle""#, r#""health":"waiting""#);
    news(&mut s, 1, HostNews::Line(snapshot(&[twin])));
    let (here, there) = (RowKey::here("id-bravo"), build_row("id-bravo"));
    let twins: Vec<RowKey> = s
        .list
        .rows
        .iter()
        .filter(|r| r.id == "id-bravo" && r.name == "bravo")
        .map(|r| r.key())
        .collect();
    assert_eq!(twins, [here.clone(), there.clone()]);

    // Selected and marked apart.
    s.nav.selected = Some(there.clone());
    assert!(s.selected_session().is_some_and(|r| r.host.is_some()));
    update(&mut s, Action::Command(Command::Mark));
    assert_eq!(s.nav.marked.iter().collect::<Vec<_>>(), [&there]);
    s.nav.selected = Some(here.clone());
    assert!(s.selected_session().is_some_and(|r| r.host.is_none()));
    update(&mut s, Action::Command(Command::Mark));
    assert_eq!(s.nav.marked.len(), 2);
    // Space moves down: back on the local twin, Space unmarks it alone.
    s.nav.selected = Some(here.clone());
    update(&mut s, Action::Command(Command::Mark));
    assert_eq!(s.nav.marked.iter().collect::<Vec<_>>(), [&there]);
    s.nav.marked.clear();

    // Answered apart: `y` on each goes where that row is.
    let allow = |s: &mut AppState, key: &RowKey| {
        s.nav.selected = Some(key.clone());
        update(s, Action::Command(Command::Allow))
    };
    assert_eq!(
        allow(&mut s, &here),
        vec![crate::support::here(
            Verb::Key(AnswerKey::Enter),
            &["id-bravo"]
        )]
    );
    assert_eq!(
        allow(&mut s, &there),
        vec![Effect::Op(Op {
            op: Verb::Key(AnswerKey::Enter),
            on: On::Host {
                host: HostName::new("build"),
                rows: vec![HostRow {
                    id: "id-bravo".into(),
                    row: there.clone(),
                    name: "build:bravo".into(),
                }],
            },
        })]
    );

    // The host's twin turns errored: only it is marked for attention.
    s.nav.selected = Some(RowKey::here("id-alpha"));
    s.triage.attention.clear();
    let errored = format!(
        r#"{{"type":"changed","session":{}}}"#,
        row("id-bravo", "bravo").replace(r#""health":"idle""#, r#""health":"errored""#)
    );
    news(
        &mut s,
        1,
        HostNews::Line(parse_line(errored.as_bytes(), "build").unwrap()),
    );
    assert_eq!(s.triage.attention.iter().collect::<Vec<_>>(), [&there]);
    assert_eq!(
        s.triage.last_health.get(&here),
        Some(&greenroom::model::Health::Waiting)
    );
    assert_eq!(
        s.triage.last_health.get(&there),
        Some(&greenroom::model::Health::Errored)
    );
}

/// The screen names a host's row `HOST:NAME`, from its typed host, beside
/// the local row of the same name; the row's own name stays the host's.
#[test]
fn the_screen_names_a_hosts_row_after_its_host() {
    let (mut s, _) = with_host();
    news(
        &mut s,
        1,
        HostNews::Line(snapshot(&[row("id-bravo", "bravo")])),
    );
    s.nav.selected = Some(build_row("id-bravo"));
    s.nav.page = 10;
    s.refresh_visible();
    let t = crate::tui::snapshots::draw(&s, 80, 16);
    let screen = crate::tui::snapshots::screen(&t);
    assert!(screen.contains("build:bravo"), "{screen}");
    assert!(
        s.list.rows.iter().all(|r| !r.name.contains(':')),
        "a row's own name is never changed"
    );
    insta::assert_snapshot!("host_row_named_after_its_host_80x16", t.backend());
}
