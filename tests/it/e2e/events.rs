//! The built dashboard and tmux's control client, read back with
//! capture-pane: a session killed by hand shows without a poll, the client
//! lost is said in the header and comes back, an old tmux is polled, and a
//! working agent's pane is read between polls.

use std::time::{Duration, Instant};

use chrono::Utc;
use greenroom::sources::sidecar::{Sidecar, SidecarStore};

use crate::support::actions::stub;
use crate::support::{Pane, TmuxServer, World, wait_for};

fn start(world: &World, tmux: &TmuxServer, path_prefix: Option<&std::path::Path>) -> String {
    for name in ["first", "second"] {
        world.running(tmux, name);
    }
    launch(world, tmux, path_prefix);
    Pane::new(tmux, "dash").until(15, "the dashboard", |s| s.contains("second"))
}

/// The built dashboard in a session `dash` of the same server.
fn launch(world: &World, tmux: &TmuxServer, path_prefix: Option<&std::path::Path>) {
    // Listening on any tmux: by default tmux before 3.7 is polled.
    std::fs::write(world.path("config.toml"), "tmux_events = true\n").unwrap();
    let mut command = world.greenroom_line(&tmux.name);
    if let Some(dir) = path_prefix {
        command = format!("PATH={}:$PATH {command}", dir.display());
    }
    world.dash_running(tmux, (160, 30), &[], &["sh", "-c", &command]);
}

fn control_clients(tmux: &TmuxServer) -> usize {
    tmux.run(&["list-clients", "-F", "#{client_flags}"])
        .lines()
        .filter(|l| l.contains("control-mode"))
        .count()
}

/// The longest wait for a state the dashboard keeps once it reaches it (a
/// row, the header's word, a client): reaching it takes an event, a poll
/// and a frame, each as slow as the machine is loaded, and the wait ends as
/// soon as it shows, so only a failure waits this long.
const KEPT_SECS: u64 = 60;

/// The real tmux, but refusing control mode (`tmux -C`) while `gate`
/// exists: a lost client stays lost, and said, until the test has seen it.
fn gated_tmux(world: &World, gate: &std::path::Path) -> std::path::PathBuf {
    let refuse = format!("*' -C '*) [ -e '{}' ] && exit 1", gate.display());
    wrapped_tmux(world, "gated-tmux", &refuse)
}

/// A `tmux` in `world/<folder>` that answers to what `case` (a shell
/// `case` pattern and its commands) matches of its arguments, and runs the
/// real tmux for everything else. Returns the folder to put on PATH.
fn wrapped_tmux(world: &World, folder: &str, case: &str) -> std::path::PathBuf {
    let real = String::from_utf8(
        std::process::Command::new("sh")
            .args(["-c", "command -v tmux"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let bin = world.path(folder);
    let script = format!(
        "case \" $* \" in {case};; esac\nexec '{}' \"$@\"",
        real.trim()
    );
    stub(&bin, "tmux", &script);
    bin
}

#[test]
fn a_lost_control_client_is_said_and_comes_back() {
    let world = World::new();
    let tmux = TmuxServer::new();
    let gate = world.path("no-control-mode");
    let bin = gated_tmux(&world, &gate);
    let started = Instant::now();
    start(&world, &tmux, Some(&bin));
    let dash = Pane::new(&tmux, "dash");
    wait_for(KEPT_SECS, "the control client", || {
        (control_clients(&tmux) == 1).then_some(())
    });
    // What a start and a connect take on this machine now.
    let connect = started.elapsed();

    // Killed by hand: the row shows it (tmux told greenroom).
    tmux.run(&["kill-session", "-t", "=gr-second"]);
    dash.until(KEPT_SECS, "second dormant", |s| {
        s.contains("gr-second · not running")
    });

    // Its session killed by hand, and tmux refusing a new client: the
    // client ends and the header says polling, for as long as it takes to
    // see it.
    let own = events_sessions(&tmux);
    assert_eq!(own.len(), 1, "{own:?}");
    std::fs::write(&gate, "").unwrap();
    tmux.run(&["kill-session", "-t", &format!("={}", own[0])]);
    let lost = Instant::now();
    dash.until(KEPT_SECS, "the header saying so", |s| {
        s.contains("tmux events lost: polling")
    });
    // tmux takes a client again. The retries wait 1, 2, 4 … s after each
    // failure, so the one pending comes at most the time since the loss and
    // a second from now; then a poll interval (when it is due is checked at
    // each) and a connect.
    std::fs::remove_file(&gate).unwrap();
    // Under a loaded CI a retry that failed once more while the gate was
    // being removed doubles the wait: never less than a kept state's.
    let retry = lost.elapsed() + Duration::from_secs(2) + connect;
    dash.until(
        (retry.as_secs() + 1).max(KEPT_SECS),
        "listening again",
        |s| !s.contains("polling"),
    );
    wait_for(KEPT_SECS, "the control client back", || {
        (control_clients(&tmux) == 1).then_some(())
    });

    // Quitting ends the client and its session.
    dash.keys(&["q"]);
    wait_for(KEPT_SECS, "the events session gone", || {
        events_sessions(&tmux).is_empty().then_some(())
    });
}

/// The control clients' own sessions on the server.
fn events_sessions(tmux: &TmuxServer) -> Vec<String> {
    tmux.run(&["list-sessions", "-F", "#{session_name}"])
        .lines()
        .filter(|l| greenroom::tmux::is_events_session(l))
        .map(str::to_owned)
        .collect()
}

#[test]
fn an_old_tmux_is_polled_and_the_header_says_so() {
    let world = World::new();
    let tmux = TmuxServer::new();
    // tmux 3.1c to greenroom's -V; the real tmux for everything else.
    let bin = wrapped_tmux(&world, "old-tmux", "*' -V '*) echo 'tmux 3.1c'; exit 0");
    start(&world, &tmux, Some(&bin));
    let dash = Pane::new(&tmux, "dash");
    dash.until(10, "the header saying so", |s| {
        s.contains("tmux 3.1c: polling")
    });
    assert_eq!(control_clients(&tmux), 0);
    // Polling still sees a session killed by hand.
    tmux.run(&["kill-session", "-t", "=gr-second"]);
    dash.until(5, "second dormant", |s| {
        s.contains("gr-second · not running")
    });
}

/// Pane activity is no event, so a working agent's session is read again
/// each interval: a turn that ends without a hook (its screen stops
/// moving) shows as over within seconds, not at the 30 s reconciling poll.
#[test]
fn a_working_agent_whose_screen_stops_is_seen_within_seconds() {
    let world = World::new();
    let tmux = TmuxServer::new();
    let store = SidecarStore::new(world.path("sessions"));
    let cwd = world.path("work");
    std::fs::create_dir_all(&cwd).unwrap();
    let now = Utc::now();
    let mut s = Sidecar::new("busy", &cwd, "sh", now);
    s.tmux_session = Some("gr-busy".into());
    s.activity = Some(greenroom::model::Activity::Active);
    s.activity_detail = Some("thinking".into());
    s.activity_since = Some(now);
    s.activity_reported_at = Some(now);
    store.create(&s).unwrap();
    // A spinner for a few seconds, in seconds after the report's, then a
    // still screen.
    let spinner =
        "sleep 1.2; for i in 1 2 3 4 5 6 7 8; do echo tick $i; sleep 0.5; done; exec sleep 600";
    tmux.spawn("gr-busy", &["sh", "-c", spinner]);
    launch(&world, &tmux, None);
    let dash = Pane::new(&tmux, "dash");
    dash.until(15, "the working agent", |s| s.contains("thinking"));
    // Well before the reconciling poll (30 s after the first).
    dash.until(20, "the turn seen over", |s| s.contains("stopped moving"));
}
