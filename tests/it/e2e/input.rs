//! The terminal as the operator's: pastes (tmux `paste-buffer -p`, which
//! brackets the text only when the program asked for bracketed paste), the
//! terminal given back on every way out, and the one pane beside. The
//! built binary runs in one private tmux server (the operator's terminal)
//! and manages sessions on another.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use crate::support;

use std::path::Path;

use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use support::{Pane, TmuxServer, World, wait_for};

const PLAN: &str = "here is the plan\nxylophone practice\n";

fn has(tmux: &TmuxServer, name: &str) -> bool {
    tmux.cmd()
        .args(["has-session", "-t", &format!("={name}")])
        .output()
        .unwrap()
        .status
        .success()
}

/// A live session `name` in `agents`, recorded by greenroom.
fn live_session(world: &World, agents: &TmuxServer, name: &str, work: &Path, focused_min: i64) {
    let store = SidecarStore::new(world.path("sessions"));
    let mut s = Sidecar::new(name, work, "sh", chrono::Utc::now());
    s.tmux_session = Some(format!("gr-{name}"));
    s.last_focused_at = Some(chrono::Utc::now() - chrono::Duration::minutes(focused_min));
    store.create(&s).unwrap();
    agents.spawn(
        &format!("gr-{name}"),
        &["sh", "-c", &format!("echo this-is-{name}; exec cat")],
    );
}

/// Runs greenroom in a `dash` session of `host`; when it ends the pane
/// runs `cat -v`, which shows whatever the terminal still sends raw.
fn dashboard<'a>(world: &World, host: &'a TmuxServer, agents: &TmuxServer) -> Pane<'a> {
    let line = world.greenroom_line(&agents.name);
    let line = line.strip_prefix("exec ").unwrap_or(&line);
    let command = format!("{line}; echo greenroom-ended; exec cat -v");
    let env = [
        ("MAESTRO_HOOKS_DIR", &*world.path("hooks")),
        ("GREENROOM_LOG", &*world.path("greenroom.log")),
    ];
    world.dash_running(host, (160, 40), &env, &[&command])
}

/// Pastes `text` into the pane as a terminal would: bracketed when the
/// program asked for it, line breaks as CR.
fn paste(host: &TmuxServer, target: &str, text: &str) {
    let mut load = host.cmd();
    load.args(["load-buffer", "-b", "operator", "-"]);
    load.stdin(std::process::Stdio::piped());
    let mut child = load.spawn().unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), text.as_bytes()).unwrap();
    assert!(child.wait().unwrap().success());
    host.run(&["paste-buffer", "-p", "-b", "operator", "-t", target]);
}

/// greenroom's pid: the child of the pane's shell.
fn greenroom_pid(host: &TmuxServer) -> String {
    let shell = host.run(&["display-message", "-p", "-t", "=dash:", "#{pane_pid}"]);
    let shell = shell.trim();
    wait_for(10, "greenroom's process", || {
        let children =
            std::fs::read_to_string(format!("/proc/{shell}/task/{shell}/children")).ok()?;
        children.split_whitespace().next().map(str::to_owned)
    })
}

#[test]
fn a_paste_into_the_send_dialog_is_text_and_never_kills_the_session() {
    let world = World::new();
    let (host, agents) = (TmuxServer::new(), TmuxServer::new());
    let work = world.path("work");
    std::fs::create_dir_all(&work).unwrap();
    live_session(&world, &agents, "target", &work, 1);
    let dash = dashboard(&world, &host, &agents);
    dash.until(15, "the session", |s| s.contains("target"));

    dash.keys(&["s"]);
    dash.until(15, "the send dialog", |s| s.contains("Send to target"));
    paste(&host, "=dash:", PLAN);
    let screen = dash.until(15, "both pasted lines in the dialog", |s| {
        s.contains("here is the plan") && s.contains("xylophone practice")
    });
    assert!(screen.contains("Send to target"), "still open:\n{screen}");
    assert!(
        !screen.contains("Kill?"),
        "x was not read as a key:\n{screen}"
    );
    assert!(has(&agents, "gr-target"), "the session lives");
    // Nothing reached the agent until Enter.
    let agent = agents.run(&["capture-pane", "-p", "-t", "=gr-target:"]);
    assert!(!agent.contains("here is the plan"), "{agent}");

    dash.keys(&["Enter"]);
    wait_for(15, "the message in the agent's pane", || {
        let agent = agents.run(&["capture-pane", "-p", "-t", "=gr-target:"]);
        (agent.contains("here is the plan") && agent.contains("xylophone practice")).then_some(())
    });
    assert!(has(&agents, "gr-target"), "the session lives");

    // Attaching hands the terminal to tmux and takes it back with bracketed
    // paste on again: a paste after returning is still text.
    dash.keys(&["Enter"]);
    dash.until(15, "the agent's pane in this terminal", |s| {
        s.contains("this-is-target") && !s.contains("Sessions")
    });
    agents.run(&["detach-client", "-s", "=gr-target"]);
    dash.until(15, "the dashboard again", |s| {
        s.contains("Sessions") && s.contains("back from target")
    });
    dash.keys(&["s"]);
    dash.until(15, "the send dialog again", |s| {
        s.contains("Send to target")
    });
    paste(&host, "=dash:", "after attach\nxylophone again\n");
    let screen = dash.until(15, "the paste after attach in the dialog", |s| {
        s.contains("after attach") && s.contains("xylophone again")
    });
    assert!(!screen.contains("Kill?"), "{screen}");
    dash.keys(&["Escape"]);
    dash.until(15, "the dialog to close", |s| !s.contains("Send to target"));
    assert!(has(&agents, "gr-target"), "the session lives");

    // A paste with no input focused does nothing: no kill prompt, no quit.
    paste(&host, "=dash:", "xyq");
    dash.keys(&["?"]);
    let screen = dash.until(15, "help (the dashboard still reads keys)", |s| {
        s.contains("next session")
    });
    assert!(!screen.contains("Kill?"), "{screen}");
    assert!(has(&agents, "gr-target"));
    dash.keys(&["Escape"]);
    dash.until(15, "help to close", |s| !s.contains("next session"));

    // Quitting gives the terminal back without bracketed paste: a paste
    // into what runs next arrives bare.
    dash.keys(&["q"]);
    dash.until(15, "greenroom to end", |s| s.contains("greenroom-ended"));
    paste(&host, "=dash:", "after-quit\n");
    let screen = dash.until(15, "the paste after quitting", |s| s.contains("after-quit"));
    assert!(
        !screen.contains("[200~"),
        "bracketed paste left on:\n{screen}"
    );
}

#[test]
fn sigterm_and_sighup_give_the_terminal_back_without_bracketed_paste() {
    for signal in ["TERM", "HUP"] {
        let world = World::new();
        let (host, agents) = (TmuxServer::new(), TmuxServer::new());
        let work = world.path("work");
        std::fs::create_dir_all(&work).unwrap();
        live_session(&world, &agents, "target", &work, 1);
        let dash = dashboard(&world, &host, &agents);
        dash.until(15, "the session", |s| s.contains("target"));
        let pid = greenroom_pid(&host);
        let killed = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &pid])
            .status()
            .unwrap();
        assert!(killed.success());
        dash.until(15, "greenroom to end", |s| s.contains("greenroom-ended"));
        paste(&host, "=dash:", "after-signal\n");
        let screen = dash.until(15, "the paste after the signal", |s| {
            s.contains("after-signal")
        });
        assert!(
            !screen.contains("[200~"),
            "SIG{signal} left bracketed paste on:\n{screen}"
        );
        assert!(has(&agents, "gr-target"), "sessions outlive the dashboard");
    }
}

/// The window closed under the dashboard: its terminal is gone, so each
/// write to it fails, and greenroom ends without a panic (it once aborted:
/// ratatui's and `eprintln!`'s writes to the dead stderr panicked).
#[test]
fn a_window_closed_under_the_dashboard_ends_it_without_a_panic() {
    let world = World::new();
    let (host, agents) = (TmuxServer::new(), TmuxServer::new());
    let work = world.path("work");
    std::fs::create_dir_all(&work).unwrap();
    live_session(&world, &agents, "target", &work, 1);
    let line = world.greenroom_line(&agents.name);
    let line = line.strip_prefix("exec ").unwrap_or(&line);
    let exit = world.path("exit-status");
    // The shell outlives the window (it ignores the hangup) to say how
    // greenroom ended.
    let command = format!("trap '' HUP; {line}; echo $? > '{}'", exit.display());
    let log = world.path("greenroom.log");
    world
        .dash_running(
            &host,
            (160, 40),
            &[("GREENROOM_LOG", &log)],
            &["sh", "-c", &command],
        )
        .until(15, "the session", |s| s.contains("target"));
    host.run(&["kill-server"]);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        let text = std::fs::read_to_string(&exit).unwrap_or_default();
        if text.ends_with('\n') {
            break text.trim().to_owned();
        }
        if std::time::Instant::now() > deadline {
            let ps = std::process::Command::new("ps")
                .args(["-eo", "pid,stat,wchan:20,args"])
                .output()
                .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
                .unwrap_or_default();
            let ours: Vec<&str> = ps
                .lines()
                .filter(|l| l.contains(&*process_marker(&world)))
                .collect();
            panic!(
                "greenroom did not end; its processes: {ours:#?}\nthe log:\n{}",
                std::fs::read_to_string(&log).unwrap_or_default()
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let logged = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        status == "0" || status == "1",
        "exit status {status} (134: aborted, 101: panicked); the log:\n{logged}"
    );
    assert!(!logged.contains("panicked"), "{logged}");
    assert!(has(&agents, "gr-target"), "sessions outlive the dashboard");
}

/// What identifies this world's greenroom in `ps`: its sidecar folder.
fn process_marker(world: &World) -> String {
    world.path("sessions").display().to_string()
}

/// After a reboot no tmux server answers: the dashboard's first frame
/// shows the session, and its record comes to say dormant, written off the
/// loop after the frame rather than before it.
#[test]
fn after_a_reboot_the_record_comes_to_say_dormant() {
    use greenroom::model::Status;
    let world = World::new();
    let host = TmuxServer::new();
    let work = world.path("work");
    std::fs::create_dir_all(&work).unwrap();
    let store = SidecarStore::new(world.path("sessions"));
    let mut s = Sidecar::new("sleeper", &work, "sh", chrono::Utc::now());
    s.tmux_session = Some("gr-sleeper".into());
    s.status = Status::Running;
    store.create(&s).unwrap();
    let gone = format!("greenroom-test-rebooted-{}", std::process::id());
    world
        .dash_running(&host, (160, 40), &[], &[&world.greenroom_line(&gone)])
        .until(15, "the session", |t| t.contains("sleeper"));
    wait_for(15, "the record to say dormant", || {
        (store.read(s.id).ok()?.status == Status::Dormant).then_some(())
    });
}

fn panes(host: &TmuxServer) -> Vec<String> {
    host.run(&["list-panes", "-t", "=dash:", "-F", "#{pane_id}"])
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn o_opens_one_pane_beside_o_again_closes_it_and_quitting_closes_it() {
    let world = World::new();
    let (host, agents) = (TmuxServer::new(), TmuxServer::new());
    let work = world.path("work");
    std::fs::create_dir_all(&work).unwrap();
    live_session(&world, &agents, "first", &work, 1);
    live_session(&world, &agents, "second", &work, 5);
    let dash = dashboard(&world, &host, &agents);
    dash.until(15, "both sessions", |s| {
        s.contains("first") && s.contains("second")
    });

    dash.keys(&["o"]);
    let beside = wait_for(15, "the pane beside", || {
        let p = panes(&host);
        (p.len() == 2).then(|| p[1].clone())
    });
    wait_for(15, "the first session beside", || {
        let text = host.run(&["capture-pane", "-p", "-t", &beside]);
        text.contains("this-is-first").then_some(())
    });
    dash.until(15, "the dashboard to know it is open", |s| {
        s.contains("o close beside")
    });
    // o again closes it: never a second pane.
    dash.keys(&["o"]);
    dash.until(15, "the pane beside to close", |_| panes(&host).len() == 1);
    dash.until(15, "the status line", |s| {
        s.contains("closed the pane beside")
    });

    // Opened again, it follows; quitting closes it with the dashboard.
    dash.keys(&["o"]);
    let beside = wait_for(15, "the pane beside again", || {
        let p = panes(&host);
        (p.len() == 2).then(|| p[1].clone())
    });
    dash.until(15, "the dashboard to know it is open again", |s| {
        s.contains("o close beside")
    });
    assert_eq!(panes(&host).len(), 2, "one pane beside at most");
    dash.keys(&["j"]);
    wait_for(15, "the pane beside to follow", || {
        let text = host.run(&["capture-pane", "-p", "-t", &beside]);
        text.contains("this-is-second").then_some(())
    });
    dash.keys(&["q"]);
    dash.until(15, "greenroom to end", |s| s.contains("greenroom-ended"));
    assert_eq!(panes(&host).len(), 1, "no pane beside outlives greenroom");
    assert!(has(&agents, "gr-first") && has(&agents, "gr-second"));
}
