//! "Ready for you": a session whose agent ended its turn by its own word
//! after the operator last looked is attention — counted by `status`,
//! visited by `next` — until the operator looks (attaches, `next`, a look
//! recorded for a row greenroom does not own). The real binary on private
//! tmux servers; every command is a new greenroom process, so each reads
//! the looks back from disk as a restarted dashboard would.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use serde_json::Value;

use super::adopt::{Setup, fixture, with};
use crate::support::actions::{Greenroom, assert_contents, hook_report, server};
use crate::support::{World, wait_for};

/// One hook report for greenroom's own session `id`, as its hook sends it.
fn report(world: &World, id: &str, state: &str) {
    hook_report(world, id, &[state], b"");
}

#[test]
fn a_turn_ended_by_the_agent_is_ready_until_next_attaches_it() {
    let world = World::new();
    // Pane output counts as active for 1 s only: the quiet session's idle
    // (tmux's inference, no word of its agent's) comes at once.
    std::fs::write(world.path("config.toml"), "active_window_seconds = 1\n").unwrap();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    gr.sleeper("finished", world.dir.path());
    gr.sleeper("quiet", world.dir.path());
    gr.sleeper("second", world.dir.path());
    let id = gr.row("finished")["id"].as_str().unwrap().to_owned();
    report(&world, &id, "active");
    report(&world, &id, "idle");
    let second = gr.row("second")["id"].as_str().unwrap().to_owned();
    report(&world, &second, "idle");

    let r = gr.row("finished");
    assert_eq!(r["health"], "ready", "{r:#}");
    let why = r["activity"]["why"].as_str().unwrap();
    assert!(
        why.starts_with("finished its turn ")
            && why.ends_with("; you have not looked at it: ready"),
        "{why}"
    );
    // Idle read from a still pane is no word of the agent's: not ready.
    let quiet = wait_for(10, "the quiet session to read idle", || {
        Some(gr.row("quiet")).filter(|r| r["health"] != "active")
    });
    assert_eq!(quiet["health"], "idle", "{quiet:#}");
    assert!(gr.ok(&["status"]).contains("▷ 2 ready"));
    let line = gr.ok(&["status", "--tmux"]);
    assert!(line.contains("#[fg=blue]▷2#[default]"), "{line}");
    assert!(line.contains("→ finished "), "{line}");

    // `next` goes there (from a terminal outside the server, it attaches).
    let outer = server();
    let done = world.path("done.txt");
    gr.in_pane(&outer, "host", &["next"], &done);
    let client = wait_for(10, "a client on the ready session", || {
        let out = tmux.run(&["list-clients", "-F", "#{client_session}"]);
        (!out.trim().is_empty()).then_some(out)
    });
    assert_eq!(client.trim(), "gr-finished");
    tmux.run(&["detach-client", "-s", "=gr-finished"]);
    assert_contents(&done, "0\n");

    // Looked at: idle, out of the counts and the queue, in a new process;
    // `next` names the other one now.
    let r = gr.row("finished");
    assert_eq!(r["health"], "idle", "{r:#}");
    assert!(gr.ok(&["status"]).contains("▷ 1 ready"));
    assert!(gr.ok(&["status", "--tmux"]).contains("→ second "));

    // `attach` is a look too.
    gr.in_pane(&outer, "host2", &["attach", "second"], &done);
    wait_for(10, "a client on the other ready session", || {
        let out = tmux.run(&["list-clients", "-F", "#{client_session}"]);
        out.contains("gr-second").then_some(out)
    });
    tmux.run(&["detach-client", "-s", "=gr-second"]);
    assert_eq!(gr.row("second")["health"], "idle");
    assert!(!gr.ok(&["status"]).contains("ready"));
    assert!(!gr.ok(&["status", "--tmux"]).contains("→"));
    assert_eq!(gr.ok(&["next"]).trim(), "nothing needs you right now");
}

#[test]
fn ready_is_attention_false_leaves_a_finished_turn_idle() {
    let world = World::new();
    std::fs::write(world.path("config.toml"), "ready_is_attention = false\n").unwrap();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    gr.sleeper("finished", world.dir.path());
    let id = gr.row("finished")["id"].as_str().unwrap().to_owned();
    report(&world, &id, "idle");
    assert_eq!(gr.row("finished")["health"], "idle");
    assert!(!gr.ok(&["status", "--tmux"]).contains("→"));
}

#[test]
fn a_look_at_a_hand_started_agent_is_kept_in_greenrooms_looks_file() {
    const SESSION: &str = "0b0b0b0b-0000-4000-8000-000000000028";
    let s = Setup::new();
    let pane = s.hook_window();
    let stop = with(
        fixture("agent-deck__Stop__last_assistant_message-marker"),
        "session_id",
        SESSION,
    );
    s.report(Some(&pane), &stop);
    let r = s.row(&pane).expect("an adopted row");
    assert_eq!(r["health"], "ready", "{r:#}");
    let gr = s.greenroom();
    assert!(gr.ok(&["status", "--tmux"]).contains("▷1"));

    // What a dashboard records when the operator keeps the row selected
    // (and another machine's dashboard runs here): read back by every
    // greenroom started after it.
    gr.ok(&["look", &pane]);
    let looks = std::fs::read_to_string(s.world.path("sessions/.looks.json")).unwrap();
    assert!(looks.contains(&format!("\"{pane}\"")), "{looks}");
    let r = s.row(&pane).unwrap();
    assert_eq!(r["health"], "idle", "{r:#}");
    assert!(!gr.ok(&["status", "--tmux"]).contains("▷"));

    // A file greenroom cannot read is a problem shown, never fatal.
    std::fs::write(s.world.path("sessions/.looks.json"), "{not json").unwrap();
    let doc: Value = serde_json::from_str(&gr.ok(&["ls", "--json"])).unwrap();
    let problems = doc["problems"].to_string();
    assert!(
        problems.contains(".looks.json") && problems.contains("not a valid looks file"),
        "{problems}"
    );
    // The next look replaces it.
    gr.ok(&["look", &pane]);
    assert_eq!(s.row(&pane).unwrap()["health"], "idle");
}
