//! Actions from the dashboard, end to end: the binary runs in one tmux
//! server (the operator's terminal) and manages agents on another, driven
//! with send-keys and read with capture-pane.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use crate::support;

use greenroom::sources::sidecar::SidecarStore;
use support::{TmuxServer, World, wait_for};

fn has(agents: &TmuxServer, name: &str) -> bool {
    agents
        .cmd()
        .args(["has-session", "-t", &format!("={name}")])
        .output()
        .unwrap()
        .status
        .success()
}

#[test]
fn spawn_send_attach_kill_restore_and_dismiss_from_the_dashboard() {
    let world = World::new();
    let host = TmuxServer::new(); // the operator's terminal
    let agents = TmuxServer::new(); // where greenroom runs the agents
    let work = world.path("work");
    std::fs::create_dir_all(&work).unwrap();
    // A plain POSIX shell as the agent: the machine's interactive bash may
    // run slow start-up files (version managers) that would make this test
    // about them rather than about greenroom.
    std::fs::write(
        world.path("config.toml"),
        "[agents.plainsh]\nlaunch = \"exec /bin/sh\"\n",
    )
    .unwrap();
    // The agents server must exist for greenroom to spawn into; it starts
    // on the first new-session, but give it a placeholder to keep it up.
    agents.spawn("placeholder", &["sleep", "600"]);
    let command = format!(
        "cd {} && {}",
        work.display(),
        world.greenroom_line(&agents.name)
    );
    let hooks = world.path("hooks");
    let screen = world.dash_running(
        &host,
        (150, 40),
        &[("MAESTRO_HOOKS_DIR", &hooks)],
        &[&command],
    );
    screen.until(15, "the empty dashboard", |s| s.contains("No sessions yet"));

    // n: the form, with a default name and this folder; pick the plain shell preset.
    screen.keys(&["n"]);
    screen.until(15, "the form", |s| {
        s.contains("New session") && s.contains("agent-1")
    });
    screen.keys(&["Down", "Down"]);
    // The preset on screen, between ‹ and ›.
    let preset = |s: &str| {
        s.split('‹')
            .nth(1)
            .and_then(|r| r.split('›').next())
            .map(str::trim)
            .unwrap_or_default()
            .to_owned()
    };
    for _ in 0..8 {
        let shown = preset(&screen.text());
        if shown == "plainsh" {
            break;
        }
        screen.keys(&["Right"]);
        // One step at a time: the next key only once this one is drawn.
        screen.until(15, "the preset to change", |s| preset(s) != shown);
    }
    screen.until(15, "the plain shell preset", |s| s.contains("‹ plainsh ›"));
    screen.keys(&["Enter"]);
    screen.until(15, "the new session in the sidebar", |s| {
        s.contains("agent-1") && s.contains("1 active")
    });
    assert!(has(&agents, "gr-agent-1"));

    // s: a message reaches the pane literally.
    screen.keys(&["s"]);
    screen.until(15, "the send dialog", |s| s.contains("Send to agent-1"));
    screen.keys(&["-l", "echo marker-$((40+2))"]);
    screen.keys(&["Enter"]);
    let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        wait_for(15, "the message in the agent's pane", || {
            let pane = agents.run(&["capture-pane", "-p", "-t", "=gr-agent-1:"]);
            pane.contains("marker-42").then_some(())
        })
    }));
    if found.is_err() {
        panic!(
            "the message did not arrive; the agent's pane:\n{}\nthe dashboard:\n{}",
            agents.run(&["capture-pane", "-p", "-t", "=gr-agent-1:"]),
            screen.text()
        );
    }

    // Enter: greenroom runs outside the agents' server, so it hands this
    // terminal to tmux; detaching returns to the dashboard.
    screen.keys(&["Enter"]);
    screen.until(15, "the agent's pane in this terminal", |s| {
        s.contains("marker-42") && !s.contains("Sessions")
    });
    agents.run(&["detach-client", "-s", "=gr-agent-1"]);
    screen.until(15, "the dashboard again", |s| {
        s.contains("Sessions") && s.contains("back from agent-1")
    });
    let store = SidecarStore::new(world.path("sessions"));
    let (sidecars, _) = store.load_all();
    assert!(
        sidecars[0].last_focused_at.is_some(),
        "attaching records focus"
    );

    // x, y: killed; the record stays.
    screen.keys(&["x"]);
    screen.until(15, "the kill confirmation", |s| s.contains("Kill agent-1?"));
    screen.keys(&["y"]);
    screen.until(15, "the kill", |s| {
        s.contains("killed agent-1") && s.contains("1 killed")
    });
    assert!(!has(&agents, "gr-agent-1"));

    // r: restored.
    screen.keys(&["r"]);
    screen.until(15, "the restore", |s| {
        s.contains("restored agent-1") && s.contains("1 active")
    });

    assert!(has(&agents, "gr-agent-1"));

    // D refuses a live session; after a kill it archives the record.
    screen.keys(&["D"]);
    screen.until(15, "the refusal", |s| s.contains("kill it first"));
    screen.keys(&["x"]);
    screen.until(15, "the kill confirmation", |s| s.contains("Kill agent-1?"));
    screen.keys(&["y"]);
    screen.until(15, "the kill", |s| {
        s.contains("killed agent-1") && s.contains("1 killed")
    });
    screen.keys(&["D"]);
    screen.until(15, "the dismiss confirmation", |s| {
        s.contains("Dismiss agent-1?")
    });
    screen.keys(&["y"]);
    screen.until(15, "the empty dashboard again", |s| {
        s.contains("No sessions yet")
    });
    assert_eq!(store.load_all().0.len(), 0);
    assert_eq!(store.load_archived().0.len(), 1, "dismissed, not deleted");

    // A shows it again, archived; r brings it back.
    screen.keys(&["A"]);
    screen.until(15, "the archived row", |s| {
        s.contains("showing 1 archived session(s)") && s.contains("agent-1 · archived")
    });
    screen.keys(&["r"]);
    screen.until(15, "the restore from the archive", |s| {
        s.contains("restored agent-1") && s.contains("1 active")
    });
    assert!(has(&agents, "gr-agent-1"));
    assert_eq!(store.load_all().0.len(), 1, "back from the archive");
}

#[test]
fn open_beside_shows_the_session_in_a_pane_that_follows_the_selection() {
    let world = World::new();
    let host = TmuxServer::new();
    let agents = TmuxServer::new();
    let store = SidecarStore::new(world.path("sessions"));
    let work = world.path("work");
    std::fs::create_dir_all(&work).unwrap();
    for (name, focused) in [("first", 1), ("second", 5)] {
        let mut s =
            greenroom::sources::sidecar::Sidecar::new(name, &work, "sh", chrono::Utc::now());
        s.tmux_session = Some(format!("gr-{name}"));
        s.last_focused_at = Some(chrono::Utc::now() - chrono::Duration::minutes(focused));
        store.create(&s).unwrap();
        agents.spawn(
            &format!("gr-{name}"),
            &["sh", "-c", &format!("echo this-is-{name}; exec sleep 600")],
        );
    }
    let screen = world.dashboard(&agents, &host, (200, 40), &[]);
    screen.until(15, "both sessions", |s| {
        s.contains("first") && s.contains("second")
    });

    screen.keys(&["o"]);
    // A second pane in the dashboard's window, holding a client of the agents' server.
    let beside = wait_for(15, "the pane beside", || {
        let panes = host.run(&["list-panes", "-t", "=dash:", "-F", "#{pane_id}"]);
        let ids: Vec<String> = panes.lines().map(str::to_owned).collect();
        (ids.len() == 2).then(|| ids[1].clone())
    });
    // The dashboard knows the pane is open (follow mode) once it says o closes it.
    screen.until(15, "follow mode", |s| s.contains("o close beside"));
    wait_for(15, "the first session in the pane beside", || {
        let text = host.run(&["capture-pane", "-p", "-t", &beside]);
        text.contains("this-is-first").then_some(())
    });
    // The dashboard keeps the focus: keys still move its selection, and
    // the pane beside follows.
    screen.keys(&["j"]);
    wait_for(15, "the pane beside to follow", || {
        let text = host.run(&["capture-pane", "-p", "-t", &beside]);
        text.contains("this-is-second").then_some(())
    });
    // The agents' own sessions were not rearranged: one pane each.
    for name in ["gr-first", "gr-second"] {
        let panes = agents.run(&["list-panes", "-t", &format!("={name}:"), "-F", "#{pane_id}"]);
        assert_eq!(panes.lines().count(), 1, "{name}");
    }
}
