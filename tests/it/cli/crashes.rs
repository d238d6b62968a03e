//! A session whose command ends: greenroom keeps its dead pane, so a crash
//! reads as errored with its exit status and its last lines stay readable;
//! a preset whose program is missing is refused before anything starts.
//! The real binary on a private tmux server.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use crate::support;
use crate::support::actions as actions_support;

use actions_support::{Greenroom, has_session, server, sidecar_files};
use greenroom::config::TmuxSocket;
use greenroom::sources::sidecar::SidecarStore;
use greenroom::tmux::Tmux;
use support::{World, wait_for};

#[test]
fn a_command_that_exits_3_shows_errored_with_its_status_and_its_last_lines() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let cwd = world.path("work");
    std::fs::create_dir_all(&cwd).unwrap();
    // The background `sleep` holds the pty a moment after the exit: tmux
    // 3.3a loses the status of a pane whose pty closes before it reaps the
    // process (its race; ARCHITECTURE.md), and this test is about ours.
    // (tmux scrolls the screen by a line for its "Pane is dead" notice, so
    // the very first line goes to the history.)
    let command = "echo starting; echo working; echo the last words; sleep 1 & exit 3";
    gr.ok(&[
        "spawn",
        "-n",
        "crash",
        "--cwd",
        cwd.to_str().unwrap(),
        "--",
        command,
    ]);

    let row = wait_for(15, "the crash to read as errored", || {
        gr.ls_row("crash")
            .filter(|r| r["status"] == "Exited" && r["health"] == "errored")
    });
    assert_eq!(row["activity"]["detail"], "exited with status 3", "{row}");
    assert!(has_session(&tmux, "gr-crash"), "the dead pane is kept");

    // The pane's last lines, as the dashboard's preview captures them. tmux
    // may see the death before it has read the last output from the pty
    // (the background `sleep` holds it open), so it is asked until then.
    let t = Tmux::new(TmuxSocket::Name(tmux.name.clone()));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let text = loop {
        let text = t.capture_pane("gr-crash").unwrap_or_default();
        if text.contains("the last words") || std::time::Instant::now() > deadline {
            break text;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(text.contains("the last words"), "{text}");

    // Only greenroom's session keeps its dead panes, never the server.
    let global = tmux.run(&["show-options", "-g", "-w", "remain-on-exit"]);
    assert_eq!(global.trim(), "remain-on-exit off");
    let keep = tmux.run(&["show-options", "-w", "-t", "=keep:"]);
    assert!(!keep.contains("remain-on-exit"), "{keep}");

    // The dashboard's engine records the status in the sidecar.
    let config = world.config(Some(&tmux), &[]);
    let mut engine = greenroom::engine::Engine::load(&config, false, |_| {}).unwrap();
    engine.poll_tmux();
    let store = SidecarStore::new(world.path("sessions"));
    let recorded = store.load_all().0;
    assert_eq!(recorded[0].exit_status, Some(3));
}

#[test]
fn a_preset_whose_program_is_not_on_path_fails_the_spawn() {
    let world = World::new();
    std::fs::write(
        world.path("config.toml"),
        "[agents.ghost]\nlaunch = \"greenroom-test-no-such-agent --yes\"\n",
    )
    .unwrap();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let cwd = world.path("work");
    std::fs::create_dir_all(&cwd).unwrap();
    let err = gr.refused(&[
        "spawn",
        "-n",
        "g",
        "--cwd",
        cwd.to_str().unwrap(),
        "--agent",
        "ghost",
    ]);
    assert_eq!(
        err,
        "greenroom: the ghost preset runs \"greenroom-test-no-such-agent\", which is not on PATH; \
         install it, or set `launch` under [agents.ghost] in config.toml\n"
    );
    assert!(!has_session(&tmux, "gr-g"));
    assert!(sidecar_files(&world).is_empty(), "nothing was recorded");
}

#[test]
fn kill_on_a_crashed_session_says_it_can_be_dismissed_or_restored() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let cwd = world.path("work");
    std::fs::create_dir_all(&cwd).unwrap();
    gr.crashed("crash", &cwd);
    let err = gr.refused(&["kill", "crash", "--yes"]);
    assert_eq!(
        err,
        "greenroom: crash is not running (exited), so there is nothing to kill; dismiss it \
         (D, or `greenroom dismiss crash`) or restore it (r, or `greenroom restore crash`)\n"
    );
    assert!(
        has_session(&tmux, "gr-crash"),
        "the dead pane is still kept"
    );
}
