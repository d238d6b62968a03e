//! Codex CLI asking to approve a command, without hooks: its question on
//! the pane's screen makes the row waiting, with the command, for a pane
//! found running `codex` and for a Codex session greenroom started. Fake
//! Codexes print the real Codex CLI 0.169.0 screen (the fixture) and wait.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::Value;

use super::adopt::{Setup, fake_agent};
use crate::support::actions::{Greenroom, path_str, stub};
use crate::support::{TmuxServer, World, wait_for};

const SCREEN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/real/codex-screen/codex-0.169.0__approval-screen.txt"
);
const QUESTION: &str = "Would you like to run the following command?";

/// A shell line that shows the captured question, then `after`.
fn show(after: &str) -> String {
    format!("clear; cat '{SCREEN}'; {after}")
}

fn assert_waits_for_the_command(r: &Value) {
    assert_eq!(r["health"], "waiting", "{r:#}");
    let w = &r["activity"]["waiting_for"];
    assert_eq!(w["command"], "touch greenroom-approved", "{r:#}");
    assert_eq!(w["tool"], "shell", "{r:#}");
    assert_eq!(w["question"], QUESTION, "{r:#}");
}

#[test]
fn a_discovered_codex_asking_is_waiting_for_its_command() {
    let s = Setup::new();
    let codex = fake_agent(s.world.dir.path(), "codex");
    let asking = s.window(&["sh", "-c", &show(&format!("exec {codex} 600"))]);
    // The same words in scrollback, the dialog gone: no question.
    let answered = s.window(&[
        "sh",
        "-c",
        &show(&format!(
            "printf '\\n• Ran touch greenroom-approved\\n\\n› Ask Codex\\n'; exec {codex} 601"
        )),
    ]);
    let rows = wait_for(10, "both Codex panes waiting or not", || {
        let a = s.row(&asking)?;
        let b = s.row(&answered)?;
        (a["health"] == "waiting").then_some((a, b))
    });
    assert_waits_for_the_command(&rows.0);
    assert_eq!(rows.0["adopted"]["hooks"], false);
    assert_ne!(rows.1["health"], "waiting", "{:#}", rows.1);
    assert!(rows.1["activity"]["waiting_for"].is_null(), "{:#}", rows.1);
}

#[test]
fn greenrooms_own_codex_asking_is_waiting_for_its_command() {
    let world = World::new();
    let tmux = TmuxServer::new();
    let bin = world.path("bin");
    stub(&bin, "codex", &show("exec sleep 600"));
    let mut gr = Greenroom::new(&world, &tmux);
    gr.path = Some(format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap()
    ));
    let cwd = world.path("work");
    std::fs::create_dir_all(&cwd).unwrap();
    gr.ok(&[
        "spawn",
        "-n",
        "cx",
        "--agent",
        "codex",
        "--cwd",
        path_str(&cwd),
    ]);
    let row = wait_for(10, "the spawned Codex waiting", || {
        let out = gr.ok(&["ls", "--json"]);
        let v: Value = serde_json::from_str(&out).unwrap();
        v["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == "cx" && r["health"] == "waiting")
            .cloned()
    });
    assert_waits_for_the_command(&row);
}

#[test]
fn send_key_y_confirms_a_discovered_codexs_question() {
    let s = Setup::new();
    // A copy of `sh` named `codex` that shows the question, then records
    // the line it reads: what Enter gives.
    let codex = s.world.path("codex");
    std::fs::copy("/bin/sh", &codex).unwrap();
    let answer = s.world.path("answer");
    let script = s.world.path("asks.sh");
    let read = format!(
        "IFS= read -r line; printf 'read [%s]' \"$line\" > '{}'; exec sleep 600",
        answer.display()
    );
    std::fs::write(&script, show(&read)).unwrap();
    let pane = s.window(&[path_str(&codex), path_str(&script)]);
    wait_for(10, "the Codex pane waiting", || {
        s.row(&pane).filter(|r| r["health"] == "waiting")
    });
    let out = s.greenroom().ok(&["send", &pane, "--key", "y"]);
    assert!(out.contains("Enter"), "{out}");
    let read = wait_for(10, "the fake Codex to read the answer", || {
        std::fs::read_to_string(&answer).ok()
    });
    assert_eq!(read, "read []", "Enter alone");
}
