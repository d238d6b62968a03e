//! Notifications from the built dashboard in a real tmux, read where the
//! operator would see them: the desktop notification's OSC sequences from
//! the pty of a real client of the tmux the dashboard runs in (through
//! tmux's passthrough), tmux's own message in that client's status line
//! when passthrough is off, and the `[notify] command`'s stdin from the
//! file it writes.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use crate::support;

use std::path::Path;
use std::time::Duration;

use chrono::Utc;
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use support::{Pane, TmuxServer, World, wait_for};

/// An agent `name` in its own session of `agents`, with its record.
fn agent(world: &World, agents: &TmuxServer, name: &str) -> Sidecar {
    let store = SidecarStore::new(world.path("sessions"));
    let cwd = world.path(name);
    std::fs::create_dir_all(&cwd).unwrap();
    let mut s = Sidecar::new(name, &cwd, "sleep 600", Utc::now());
    s.tmux_session = Some(format!("gr-{name}"));
    s.agent = Some("claude".into());
    store.create(&s).unwrap();
    agents.spawn(&format!("gr-{name}"), &["sleep", "600"]);
    s
}

/// Its hook reports it waits for the operator, asking `question`.
fn waits(world: &World, s: &Sidecar, question: &str) {
    SidecarStore::new(world.path("sessions"))
        .update(s.id, Duration::from_secs(1), |s| {
            s.activity = Some(greenroom::model::Activity::AwaitingInput);
            s.activity_detail = Some(question.into());
            s.activity_reported_at = Some(Utc::now());
            s.activity_since = Some(Utc::now());
            true
        })
        .unwrap();
}

/// config.toml: the notify command appends each event, one a line, to `events`.
fn notify_to(world: &World, events: &Path) {
    let config = format!(
        "[notify]\ncommand = [\"sh\", \"-c\", 'cat >> \"$0\"; echo >> \"$0\"', '{}']\n",
        events.display()
    );
    std::fs::write(world.path("config.toml"), config).unwrap();
}

/// A real client of `terminal` attached to the dashboard's session, in a
/// pane of a server of its own: the bytes it writes to its terminal are
/// piped to `raw`, and its screen (status line included) is that pane's.
fn client(terminal: &TmuxServer, raw: &Path) -> TmuxServer {
    let viewer = TmuxServer::new();
    let attach = format!(
        "env -u TMUX tmux -L {} -f /dev/null attach -t dash",
        terminal.name
    );
    viewer.run(&[
        "new-session",
        "-d",
        "-s",
        "client",
        "-x",
        "200",
        "-y",
        "30",
        "sh",
        "-c",
        &attach,
    ]);
    let pipe = format!(
        "cat >> {}",
        greenroom::ops::shell_quote(raw.to_str().unwrap())
    );
    viewer.run(&["pipe-pane", "-o", "-t", "client", &pipe]);
    wait_for(15, "the client to attach", || {
        let clients = terminal.run(&["list-clients", "-F", "#{client_name}"]);
        (!clients.trim().is_empty()).then_some(())
    });
    viewer
}

/// The dashboard of `agents` in session `dash` of `terminal`, once it lists `name`.
fn dashboard<'a>(
    world: &World,
    agents: &TmuxServer,
    terminal: &'a TmuxServer,
    name: &str,
) -> Pane<'a> {
    let dash = world.dashboard(agents, terminal, (120, 30), &[]);
    dash.until(15, "the agent's row", |s| s.contains(name));
    dash
}

fn events(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_waiting_agent_reaches_the_terminal_through_tmux_passthrough_and_the_notify_command() {
    let world = World::new();
    let (agents, terminal) = (TmuxServer::new(), TmuxServer::new());
    let events_file = world.path("events.jsonl");
    notify_to(&world, &events_file);
    let api = agent(&world, &agents, "api");
    let web = agent(&world, &agents, "web");
    // The operator's tmux lets the dashboard's pane speak to the terminal.
    terminal.spawn("keep", &["sleep", "600"]);
    terminal.run(&["set-option", "-g", "allow-passthrough", "on"]);
    let dash = dashboard(&world, &agents, &terminal, "api");
    let raw = world.path("client.raw");
    let _client = client(&terminal, &raw);

    waits(&world, &api, "Claude needs your permission to use Bash");
    dash.until(15, "the waiting row", |s| s.contains("1 waiting"));
    let out = wait_for(15, "the notification on the client's terminal", || {
        let bytes = std::fs::read(&raw).unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        text.contains("\x1b]9;greenroom: api is waiting")
            .then_some(text)
    });
    assert!(
        out.contains("\x1b]777;notify;greenroom: api is waiting;"),
        "{out:?}"
    );
    let event = wait_for(15, "the notify command's event", || {
        events(&events_file).into_iter().next()
    });
    assert_eq!(event["kind"], "needs_you");
    assert_eq!(event["name"], "api");
    assert_eq!(event["id"], api.id.to_string());
    assert_eq!(event["health"], "waiting");
    assert_eq!(event["host"], serde_json::Value::Null);
    assert_eq!(event["asks"], "Claude needs your permission to use Bash");
    assert!(
        event["why"].as_str().unwrap().contains("hook reported"),
        "{event}"
    );
    // Once per change: api staying waiting through polls and ticks says
    // nothing more by the time web's turn (after the overall gap) is told.
    waits(&world, &web, "Allow execution?");
    let told = wait_for(30, "web's event", || {
        let all = events(&events_file);
        (all.len() >= 2).then_some(all)
    });
    let names: Vec<&str> = told.iter().map(|e| e["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["api", "web"]);
}

#[test]
fn without_passthrough_the_message_shows_on_the_operators_client_and_runs_nothing() {
    let world = World::new();
    let (agents, terminal) = (TmuxServer::new(), TmuxServer::new());
    let events_file = world.path("events.jsonl");
    notify_to(&world, &events_file);
    let web = agent(&world, &agents, "web");
    let dash = dashboard(&world, &agents, &terminal, "web");
    let raw = world.path("client.raw");
    let viewer = client(&terminal, &raw);
    let planted = world.path("planted");
    let question = format!("run #(touch {}) on #{{session_name}}", planted.display());

    waits(&world, &web, &question);
    dash.until(15, "the waiting row", |s| s.contains("1 waiting"));
    let on_client = Pane::new(&viewer, "client");
    let screen = on_client.until(15, "tmux's message on the client", |s| {
        s.contains("greenroom: web is waiting")
    });
    assert!(screen.contains("#(touch"), "shown as written:\n{screen}");
    assert!(screen.contains("#{session_name}"), "{screen}");
    wait_for(15, "the notify command's event", || {
        events(&events_file).into_iter().next()
    });
    assert!(!planted.exists(), "tmux ran the text of a message");
    let bytes = std::fs::read(&raw).unwrap_or_default();
    assert!(
        !String::from_utf8_lossy(&bytes).contains("\x1b]9;"),
        "no OSC without passthrough"
    );
}
