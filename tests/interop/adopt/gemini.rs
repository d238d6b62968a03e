//! The real Gemini CLI (which runs under node: tmux names the pane's
//! program `node`), started by hand in a plain window: through its
//! user-level hooks, and without any hooks, from the poll alone.

use std::ops::Deref;
use std::path::PathBuf;

use serde_json::{Value, json};

use super::gemini_standin::StandIn;
use super::user;
use crate::gemini::cli::{command_line, settings as offline_settings};
use crate::harness::{Private, json_lines};
use crate::it_support::{Pane, wait_for};

/// A sandboxed HOME (also GEMINI_CLI_HOME) with Gemini's settings, a
/// project folder, the stand-in and the user's tmux server.
struct Gemini {
    world: Private,
    api: StandIn,
}

impl Deref for Gemini {
    type Target = Private;

    fn deref(&self) -> &Private {
        &self.world
    }
}

impl Gemini {
    fn new() -> Self {
        let g = Gemini {
            world: Private::new(),
            api: StandIn::start(),
        };
        std::fs::create_dir_all(g.home().join(".gemini")).unwrap();
        std::fs::create_dir_all(g.project()).unwrap();
        std::fs::write(g.settings(), offline_settings().to_string()).unwrap();
        g
    }

    fn project(&self) -> PathBuf {
        self.dir.path().join("proj")
    }

    fn settings(&self) -> PathBuf {
        self.home().join(".gemini/settings.json")
    }

    fn payloads(&self) -> Vec<Value> {
        json_lines(&self.dir.path().join("payloads.jsonl"))
    }

    /// `greenroom hooks install --agent gemini` as the user runs it, and a
    /// second hook beside each of greenroom's that keeps the payloads.
    fn install_hooks(&self) {
        let out = user::greenroom(&self.tmux, &self.home())
            .env("GEMINI_CLI_HOME", self.home())
            .args(["hooks", "install", "--agent", "gemini"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let mut s: Value =
            serde_json::from_slice(&std::fs::read(self.settings()).unwrap()).unwrap();
        let sink = self.dir.path().join("payloads.jsonl");
        let capture = json!({"name": "capture", "type": "command",
                             "command": format!("(cat; echo) >> '{}'", sink.display())});
        for groups in s["hooks"].as_object_mut().unwrap().values_mut() {
            groups[0]["hooks"]
                .as_array_mut()
                .unwrap()
                .push(capture.clone());
        }
        std::fs::write(self.settings(), s.to_string()).unwrap();
    }

    /// Starts Gemini CLI in `work`'s first window by typing its command
    /// line; returns its pane once the input box shows.
    fn start_by_hand(&self, relaunch: bool) -> String {
        user::plain_session(&self.tmux, &self.home(), &self.project());
        let line = command_line(&self.api, &self.home(), relaunch);
        let p = Pane::new(&self.tmux, "work");
        user::type_line(&p, &line);
        p.until(60, "Gemini's input box", |s| {
            s.contains("Type your message")
        });
        user::first_pane(&self.tmux)
    }

    fn row(&self, pane: &str) -> Option<Value> {
        user::row(&self.tmux, &self.home(), pane)
    }
}

#[test]
fn gemini_cli_started_by_hand_appears_within_a_second_of_each_hook() {
    let g = Gemini::new();
    g.install_hooks();
    let pane = g.start_by_hand(false);
    let row = || g.row(&pane);
    let r = user::within_a_second_of(|| g.payloads(), "SessionStart", 1, row, "idle");
    assert_eq!(r["source"], "tmux");
    assert_eq!(r["name"], "gemini@work");
    assert_eq!(r["adopted"]["hooks"], true);
    assert_eq!(r["activity"]["reported"], true);
    assert!(r["agent_session_id"].is_string(), "{r:#}");

    // A shell command waits on "Allow execution?": the agent waits for
    // the user, and says so through its Notification hook.
    let p = Pane::new(&g.tmux, "work");
    p.keys(&["-l", "RUN: touch made-by-tool"]);
    p.until(10, "the prompt typed", |s| s.contains("RUN: touch"));
    p.keys(&["Enter"]);
    let r = user::within_a_second_of(|| g.payloads(), "Notification", 1, row, "awaiting_input");
    assert_eq!(r["health"], "waiting");
    p.until(20, "Allow execution?", |s| s.contains("Allow execution"));
    p.keys(&["Enter"]);
    wait_for(20, "the tool to run", || {
        g.project().join("made-by-tool").exists().then_some(())
    });
    user::within_a_second_of(|| g.payloads(), "AfterAgent", 1, row, "idle");
}

#[test]
fn gemini_cli_without_hooks_is_found_from_the_poll() {
    let g = Gemini::new();
    let pane = g.start_by_hand(true);
    let program = g.tmux.run(&[
        "display-message",
        "-p",
        "-t",
        &pane,
        "#{pane_current_command}",
    ]);
    assert_eq!(program.trim(), "node", "tmux sees only node");
    let r = wait_for(10, "the discovered row", || g.row(&pane));
    assert_eq!(r["source"], "tmux");
    assert_eq!(r["name"], "gemini@work");
    assert_eq!(r["adopted"]["hooks"], false);
    assert_eq!(r["activity"]["reported"], false);
    assert_eq!(
        r["activity"]["detail"],
        "no hooks: install them with `greenroom hooks install --agent gemini`"
    );
    assert_eq!(r["cwd"], g.project().to_str().unwrap());
    assert_eq!(user::rows(&g.tmux, &g.home()).len(), 1, "one row per agent");
}
