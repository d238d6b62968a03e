//! tmux's control client on a real private server: it connects, reports
//! sessions killed, windows opened and pane output elsewhere, leaves the
//! operator's sessions as they were, ends with its session, falls back when
//! tmux is too old, and says so when the server goes.

use std::sync::mpsc;
use std::time::Duration;

use greenroom::config::TmuxSocket;
use greenroom::tmux::{EVENTS_SESSION, Event, ListenError, Tmux};

use crate::support::{TmuxServer, wait_for};

fn listen(tmux: &Tmux) -> (greenroom::tmux::EventClient, mpsc::Receiver<Event>) {
    listen_quiet(tmux, None)
}

fn listen_quiet(
    tmux: &Tmux,
    quiet: Option<u32>,
) -> (greenroom::tmux::EventClient, mpsc::Receiver<Event>) {
    let (tx, rx) = mpsc::channel();
    let client = tmux
        .listen(quiet, move |e| {
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
    server.spawn("work", &["sh"]);
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
    let tmux = Tmux::new(TmuxSocket::Name(server.name.clone()));
    let (client, rx) = listen(&tmux);
    expect(&rx, 10, |e| *e == Event::Connected, "connected");

    // Its flags and its own session, as list-clients shows them.
    let clients = server.run(&["list-clients", "-F", "#{session_name} #{client_flags}"]);
    assert!(clients.contains(EVENTS_SESSION), "{clients}");
    assert!(
        clients.contains("ignore-size") && clients.contains("no-output"),
        "{clients}"
    );
    assert_eq!((facts("=work:"), facts("=other:")), before);

    // A session killed by hand: told at once.
    drain(&rx);
    server.run(&["kill-session", "-t", "=other"]);
    expect(&rx, 5, |e| *e == Event::Changed, "a change for the kill");
    // Output in a session nobody watches: told through the subscription.
    drain(&rx);
    server.run(&["send-keys", "-t", "=work:", "echo hello", "Enter"]);
    expect(&rx, 5, |e| *e == Event::Changed, "a change for pane output");
    // A pane that dies.
    drain(&rx);
    server.run(&["set-option", "-w", "-t", "=work:", "remain-on-exit", "on"]);
    server.run(&["send-keys", "-t", "=work:", "exit", "Enter"]);
    expect(
        &rx,
        5,
        |e| *e == Event::Changed,
        "a change for the pane's death",
    );
    assert_eq!(facts("=work:").split(' ').next(), Some("0"));

    // Greenroom going takes its session with it.
    drop(client);
    wait_for(5, "the events session to end", || {
        (!server
            .run(&["list-sessions", "-F", "#{session_name}"])
            .contains(EVENTS_SESSION))
        .then_some(())
    });
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
    match tmux.listen(None, |_| {}) {
        Err(ListenError::Unsupported(v)) => assert_eq!(v, "tmux 3.1c"),
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("an old tmux was asked for events"),
    }
}

/// The dashboard's own session (inside the server it watches) redraws
/// every second: its activity must not count as news, or every frame would
/// poll again.
#[test]
fn the_dashboards_own_session_is_no_news() {
    let server = TmuxServer::new();
    server.spawn("dash", &["sh"]);
    server.spawn("work", &["sh"]);
    let id: u32 = server
        .run(&["display-message", "-p", "-t", "=dash:", "#{session_id}"])
        .trim()
        .trim_start_matches('$')
        .parse()
        .unwrap();
    let tmux = Tmux::new(TmuxSocket::Name(server.name.clone()));
    let (_client, rx) = listen_quiet(&tmux, Some(id));
    expect(&rx, 10, |e| *e == Event::Connected, "connected");
    // The shells' first prompts rename their windows: let that pass.
    while rx.recv_timeout(Duration::from_millis(1500)).is_ok() {}
    server.run(&["send-keys", "-t", "=dash:", "echo frame", "Enter"]);
    // tmux looks at the subscription once a second: two looks, no news.
    let heard = rx.recv_timeout(Duration::from_millis(2500));
    assert!(
        heard.is_err(),
        "the dashboard's own output was news: {heard:?}"
    );
    server.run(&["send-keys", "-t", "=work:", "echo hello", "Enter"]);
    expect(
        &rx,
        5,
        |e| *e == Event::Changed,
        "a change for another session",
    );
}
