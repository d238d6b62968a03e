//! tmux's control client on a real private server: it connects, reports
//! sessions killed, windows opened and panes dying (not pane output: that
//! is read by refresh), leaves the operator's sessions as they were, polls
//! and refreshes through its own pipe, ends with its session, falls back
//! when tmux is too old, and says so when the server goes.

use std::sync::mpsc;
use std::time::Duration;

use greenroom::config::TmuxSocket;
use greenroom::tmux::{Event, ListenError, Listening, ServerState, Tmux, is_events_session};

use crate::support::{TmuxServer, wait_for};

fn listen(tmux: &Tmux) -> (greenroom::tmux::EventClient, mpsc::Receiver<Event>) {
    let (tx, rx) = mpsc::channel();
    let client = tmux
        .listen(Listening::Always, move |e| {
            let _ = tx.send(e);
        })
        .expect("the control client starts");
    (client, rx)
}

/// Waits for `want`, skipping other events.
fn expect(rx: &mpsc::Receiver<Event>, secs: u64, want: fn(&Event) -> bool, what: &str) {
    wait_for(secs, what, || {
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(e) if want(&e) => Some(()),
            Ok(e) => {
                eprintln!("skipped {e:?}");
                None
            }
            _ => None,
        }
    });
}

fn drain(rx: &mpsc::Receiver<Event>) {
    while rx.recv_timeout(Duration::from_millis(300)).is_ok() {}
}

#[test]
fn the_client_reports_changes_and_leaves_the_operators_sessions_alone() {
    let server = TmuxServer::new();
    let tmux = Tmux::new(TmuxSocket::Name(server.name.clone()));
    // Started as greenroom starts its sessions: remain-on-exit keeps the
    // dead pane, so no notification tells its death.
    tmux.new_session("work", std::path::Path::new("/"), &[], "sleep 600")
        .unwrap();
    server.spawn("other", &["sh"]);
    let facts = |s: &str| {
        server.run(&[
            "display-message",
            "-p",
            "-t",
            s,
            "#{session_attached} #{session_last_attached} #{window_width}x#{window_height}",
        ])
    };
    let before = (facts("=work:"), facts("=other:"));
    let (client, rx) = listen(&tmux);
    expect(&rx, 10, |e| *e == Event::Connected, "connected");

    // Its flags and its own session, as list-clients shows them.
    let own = client.session().to_owned();
    assert!(is_events_session(&own), "{own}");
    let clients = server.run(&["list-clients", "-F", "#{session_name} #{client_flags}"]);
    assert!(clients.contains(&own), "{clients}");
    assert!(
        clients.contains("ignore-size") && clients.contains("no-output"),
        "{clients}"
    );
    assert_eq!((facts("=work:"), facts("=other:")), before);
    // No session is left to tmux to destroy: `destroy-unattached` made tmux
    // 3.3a destroy the session under the exiting client and crash.
    let destroyed = |s: &str| server.run(&["show-options", "-v", "-t", s, "destroy-unattached"]);
    for s in [format!("={own}:"), "=work:".into(), "=other:".into()] {
        assert_ne!(destroyed(&s).trim(), "on", "{s}");
    }

    // A session killed by hand: told at once.
    drain(&rx);
    server.run(&["kill-session", "-t", "=other"]);
    expect(&rx, 5, |e| *e == Event::Changed, "a change for the kill");
    // A pane that dies and stays (remain-on-exit): told through the
    // subscription. Killed by a signal from outside: its pty closes with
    // it (tmux 3.3a may then run a `pane-died` hook late), and a program that
    // prints nothing as it ends leaves its window's name alone, so no
    // rename tells it either. The events session's own window renames
    // itself once (to `tail`): that news is gone before the kill.
    wait_for(5, "the events window's name", || {
        let target = format!("={own}:");
        (server
            .run(&["display-message", "-p", "-t", &target, "#{window_name}"])
            .trim()
            == "tail")
            .then_some(())
    });
    drain(&rx);
    let pid = server.run(&["display-message", "-p", "-t", "=work:", "#{pane_pid}"]);
    // Its whole process group: the shell tmux ran it through may not have
    // handed over to `sleep` yet.
    let killed = std::process::Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", pid.trim())])
        .status()
        .unwrap();
    assert!(killed.success());
    expect(
        &rx,
        15,
        |e| *e == Event::Changed,
        "a change for the pane's death",
    );
    assert_eq!(facts("=work:").split(' ').next(), Some("0"));

    // Greenroom going takes its session with it, and only it: the dead
    // pane's session stays.
    drop(client);
    wait_for(5, "the events session to end", || {
        (!server
            .run(&["list-sessions", "-F", "#{session_name}"])
            .contains(&own))
        .then_some(())
    });
    let left = server.run(&["list-sessions", "-F", "#{session_name}"]);
    assert_eq!(left.trim(), "work", "{left}");
}

#[test]
fn the_server_going_away_is_reported_as_lost() {
    let server = TmuxServer::new();
    server.spawn("work", &["sh"]);
    let tmux = Tmux::new(TmuxSocket::Name(server.name.clone()));
    let (_client, rx) = listen(&tmux);
    expect(&rx, 10, |e| *e == Event::Connected, "connected");
    server.kill();
    expect(&rx, 5, |e| matches!(e, Event::Lost(_)), "lost");
    // A new server: a new client connects to it.
    server.spawn("work", &["sh"]);
    let (_again, rx) = listen(&tmux);
    let first = rx.recv_timeout(Duration::from_secs(10));
    assert_eq!(first.ok(), Some(Event::Connected));
}

#[test]
fn a_tmux_older_than_3_2_is_not_asked() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("tmux");
    // Answers -V like tmux 3.1c; anything else would be a mistake.
    std::fs::write(
        &fake,
        "#!/bin/sh\ncase \" $* \" in *' -V '*) echo 'tmux 3.1c'; exit 0;; esac\necho \"unexpected: $*\" >&2; exit 1\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let tmux = Tmux::with_program(TmuxSocket::Name("unused".into()), &fake);
    match tmux.listen(Listening::Always, |_| {}) {
        Err(ListenError::Unsupported(v)) => assert_eq!(v, "tmux 3.1c"),
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("an old tmux was asked for events"),
    }
}

/// Pane output is no event (tmux would read every window's activity each
/// second for it): the dashboard's own frames and an idle server's shells
/// wake nobody. Activity is read by refresh, for the rows that need it.
#[test]
fn pane_output_is_no_news() {
    let server = TmuxServer::new();
    server.spawn("work", &["sh"]);
    let tmux = Tmux::new(TmuxSocket::Name(server.name.clone()));
    let (_client, rx) = listen(&tmux);
    expect(&rx, 10, |e| *e == Event::Connected, "connected");
    // The shell's first prompt renames its window: let that pass.
    while rx.recv_timeout(Duration::from_millis(1500)).is_ok() {}
    server.run(&["send-keys", "-t", "=work:", "echo frame", "Enter"]);
    // tmux looks at the subscription once a second: two looks, no news.
    let heard = rx.recv_timeout(Duration::from_millis(2500));
    assert!(heard.is_err(), "pane output was news: {heard:?}");
}

/// The poll through the control client says what a tmux process says, and
/// a refresh by id reads one session's new activity and nothing else; a
/// session gone since makes the refresh incomplete.
#[test]
fn polls_and_refreshes_go_through_the_control_client() {
    let server = TmuxServer::new();
    server.spawn("work", &["sh"]);
    server.spawn("odd 'name'; x", &["sh"]);
    server.spawn("other", &["sh"]);
    let tmux = Tmux::new(TmuxSocket::Name(server.name.clone()));
    let (client, rx) = listen(&tmux);
    expect(&rx, 10, |e| *e == Event::Connected, "connected");
    let control = client.control();
    let sessions = |s: &ServerState| match s {
        ServerState::Running(m) => m.keys().cloned().collect::<Vec<_>>(),
        other => panic!("{other:?}"),
    };
    let piped = control.poll();
    let forked = tmux.poll();
    assert_eq!(sessions(&piped), sessions(&forked));
    assert!(sessions(&piped).contains(&"odd 'name'; x".to_owned()));
    // The same facts either way (the events session's own pane is still
    // starting: its program may differ between the two looks).
    let operators = |s: &ServerState| match s {
        ServerState::Running(m) => (
            m.iter()
                .filter(|(n, _)| !is_events_session(n))
                .map(|(n, f)| (n.clone(), f.clone()))
                .collect::<Vec<_>>(),
            m.panes()
                .iter()
                .filter(|p| !is_events_session(&p.session))
                .cloned()
                .collect::<Vec<_>>(),
        ),
        other => panic!("{other:?}"),
    };
    assert_eq!(operators(&piped), operators(&forked));

    let ServerState::Running(before) = piped else {
        unreachable!()
    };
    let work = before.refresh_target("work").expect("an id for work");
    assert!(work.starts_with('$'), "{work}");
    let odd = before.refresh_target("odd 'name'; x").expect("an id");
    let refresh = control.refresh(&[work.clone(), odd]);
    assert!(refresh.complete);
    assert_eq!(
        refresh.part.keys().cloned().collect::<Vec<_>>(),
        ["odd 'name'; x", "work"]
    );
    let merged = before.refreshed(&refresh.part);
    assert_eq!(merged.keys().count(), before.keys().count());

    server.run(&["kill-session", "-t", "=other"]);
    let gone = before.refresh_target("other").expect("an id for other");
    let refresh = control.refresh(&[work, gone]);
    assert!(
        !refresh.complete,
        "a session gone since is not a full answer"
    );
    assert_eq!(refresh.part.keys().cloned().collect::<Vec<_>>(), ["work"]);

    // Names never reach the command line: only ids do.
    let refresh = control.refresh(&["work'; kill-server; '".into()]);
    assert!(!refresh.complete);
    assert!(server.run(&["list-sessions"]).contains("work"));
}

/// By default a tmux whose control clients can crash the server (before
/// 3.7, such as Debian's 3.3a) is polled, not listened to.
#[test]
fn by_default_only_a_tmux_that_cannot_crash_is_listened_to() {
    let server = TmuxServer::new();
    server.spawn("work", &["sh"]);
    let tmux = Tmux::new(TmuxSocket::Name(server.name.clone()));
    let version = tmux.version().unwrap();
    match tmux.listen(Listening::Auto, |_| {}) {
        Err(ListenError::CrashProne(v)) => {
            assert_eq!(v, version);
            assert!(!greenroom::tmux::events_are_safe(&version), "{version}");
            let clients = server.run(&["list-clients", "-F", "#{client_session}"]);
            assert!(clients.trim().is_empty(), "no control client: {clients}");
        }
        Ok(client) => {
            assert!(greenroom::tmux::events_are_safe(&version), "{version}");
            drop(client);
        }
        Err(e) => panic!("{e}"),
    }
}
