//! The built binary run inside tmux, as a person would: keys sent with
//! `send-keys`, the screen read with `capture-pane`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use crate::support;

use std::path::Path;
use std::time::Duration;

use chrono::Utc;
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use support::{TmuxServer, World, wait_for};

const STATE: &str = include_str!("../../../assets/example/docs/maestro/state/active-session.md");

fn line_of(screen: &str, needle: &str) -> usize {
    screen
        .lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{needle} not on screen:\n{screen}"))
}

fn sidecar(store: &SidecarStore, name: &str, cwd: &Path, focused_min_ago: Option<i64>) -> Sidecar {
    let mut s = Sidecar::new(
        name,
        cwd,
        "sleep 600",
        Utc::now() - chrono::Duration::hours(1),
    );
    s.tmux_session = Some(format!("gr-{name}"));
    s.agent = Some("claude".into());
    s.last_focused_at = focused_min_ago.map(|m| Utc::now() - chrono::Duration::minutes(m));
    store.create(&s).unwrap();
    s
}

#[test]
fn the_dashboard_lists_filters_helps_shows_phases_and_follows_files() {
    let world = World::new();
    let tmux = TmuxServer::new();
    let store = SidecarStore::new(world.path("sessions"));
    let plain = world.path("plain");
    std::fs::create_dir_all(&plain).unwrap();
    let orchestrated = world.path("orchestrated");
    std::fs::create_dir_all(orchestrated.join("docs/maestro/state")).unwrap();
    std::fs::write(
        orchestrated.join("docs/maestro/state/active-session.md"),
        STATE,
    )
    .unwrap();
    sidecar(&store, "older-focus", &plain, Some(30));
    let recent = sidecar(&store, "recent-focus", &orchestrated, Some(1));
    sidecar(&store, "never-focused", &plain, None);
    for name in ["older-focus", "recent-focus", "never-focused"] {
        tmux.spawn(&format!("gr-{name}"), &["sleep", "600"]);
    }
    let dash = world.dashboard(
        &tmux,
        &tmux,
        (160, 40),
        &[
            ("MAESTRO_HOOKS_DIR", &world.path("hooks")),
            ("GREENROOM_LOG", &world.path("greenroom.log")),
        ],
    );

    // Sidebar order is last focus, never-focused last.
    let screen = dash.until(15, "the three sessions", |s| {
        s.contains("greenroom")
            && s.contains("recent-focus")
            && s.contains("older-focus")
            && s.contains("never-focused")
    });
    let (r, o, n) = (
        line_of(&screen, "recent-focus"),
        line_of(&screen, "older-focus"),
        line_of(&screen, "never-focused"),
    );
    assert!(r < o && o < n, "order by last focus:\n{screen}");

    // The selected (first) session has a Maestro orchestration: its phases
    // are on the first view already, the whole of it on the next tab.
    let screen = dash.until(15, "the phases on the overview", |s| {
        s.contains("Implement and wire into the router") && s.contains("▶")
    });
    assert!(screen.contains("health"), "{screen}");
    dash.keys(&["Tab"]);
    let screen = dash.until(15, "the orchestration tab", |s| {
        s.contains("Implement and wire into the router") && s.contains("48,210")
    });
    assert!(
        screen.contains("Design the limiter") && screen.contains("Load tests"),
        "{screen}"
    );
    assert!(
        screen.contains("48,210") && screen.contains("36,200"),
        "token numbers:\n{screen}"
    );

    // Filter: `/` then text narrows the sidebar; Esc clears it.
    dash.keys(&["/", "o", "l", "d"]);
    dash.until(15, "the filter to narrow the list", |s| {
        s.contains("older-focus") && !s.contains("never-focused")
    });
    dash.keys(&["Escape"]);
    dash.until(15, "the filter to clear", |s| {
        s.contains("never-focused") && s.contains("recent-focus")
    });

    // Help, generated from the keymap, and closing it.
    dash.keys(&["?"]);
    dash.until(15, "help", |s| {
        s.contains("next session") && s.contains("triage sort")
    });
    dash.keys(&["q"]);
    dash.until(15, "help to close", |s| {
        !s.contains("triage sort (health first)")
    });

    // A sidecar change shows up on screen: a hook reports the agent waits.
    store
        .update(recent.id, Duration::from_secs(1), |s| {
            s.activity = Some(greenroom::model::Activity::AwaitingInput);
            s.activity_detail = Some("Claude needs your permission to use Bash".into());
            s.activity_reported_at = Some(Utc::now());
            s.activity_since = Some(Utc::now());
            true
        })
        .unwrap();
    dash.until(15, "the waiting session", |s| {
        s.contains("1 waiting") && s.contains("Claude needs")
    });
    // Selecting it shows the question in full.
    // From the Orchestration tab: Preview, Changes, then Overview again.
    dash.keys(&["g", "Tab", "Tab", "Tab"]);
    dash.until(15, "the question in the detail pane", |s| {
        s.contains("Claude needs your permission to use Bash")
    });

    // Quitting leaves every session running.
    dash.keys(&["q"]);
    wait_for(10, "the dashboard to exit", || {
        let out = tmux
            .cmd()
            .args(["has-session", "-t", "=dash"])
            .output()
            .unwrap();
        (!out.status.success()).then_some(())
    });
    let sessions = tmux.run(&["list-sessions", "-F", "#{session_name}"]);
    assert_eq!(sessions.lines().count(), 3, "{sessions}");
}
