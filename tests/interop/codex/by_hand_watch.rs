//! A Codex started by hand without hooks, under a running `greenroom watch
//! --json` (the dashboard's engine): the rollout Codex begins at the first
//! prompt, in a day folder that did not exist, reaches the row from file
//! notifications alone.

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::harness::Codex;
use super::standin::{Reply, StandIn, Usage};
use super::user;
use crate::it_support::Pane;

/// The watcher, ended however the test ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_watcher_shows_a_codex_by_hands_rollout_once_it_begins() {
    let api = StandIn::start();
    let usage = Usage {
        input: 7_000,
        cached: 1_000,
        output: 210,
        reasoning: 0,
    };
    api.script([Reply::Text("stand-in reply watched".into(), usage)]);
    let c = Codex::prepare(api.clone());
    user::plain_session(&c.tmux, &c.home(), &c.work());
    let pane_id = user::first_pane(&c.tmux);
    let pane = Pane::new(&c.tmux, "work");
    let mut watch = Running(
        c.greenroom()
            .args(["watch", "--json", "--heartbeat", "1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let out = watch.0.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel::<Value>();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            let v: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
            let rows = match v["type"].as_str() {
                Some("snapshot") => v["sessions"].as_array().cloned().unwrap_or_default(),
                Some("added" | "changed") => vec![v["session"].clone()],
                _ => Vec::new(),
            };
            for r in rows {
                if tx.send(r).is_err() {
                    return;
                }
            }
        }
    });
    // Every row the watcher says of the pane, until one satisfies `check`.
    let until = |what: &str, check: &dyn Fn(&Value) -> bool| -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let r = rx
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("timed out waiting for {what}"));
            if r["id"] == pane_id.as_str() && check(&r) {
                return r;
            }
        }
    };
    user::type_line(&pane, &c.launcher().to_string_lossy());
    Codex::until_ready(&pane);
    let row = until("the pane found as codex", &|r| r["name"] == "codex@work");
    assert_eq!(row["usage"], Value::Null, "no rollout yet: {row:#}");
    assert!(
        !c.codex_home().join("sessions").exists(),
        "Codex has begun no rollout before the first prompt"
    );
    Codex::prompt(&pane, "say hello");
    super::until_answered(&api, &pane, 1, "stand-in reply watched");
    let row = until("the rollout's totals", &|r| r["usage"]["output"] == 210);
    let path = c.rollouts().into_iter().next().unwrap();
    let meta = Codex::records(&path).into_iter().next().unwrap();
    assert_eq!(row["agent_session_id"], meta["payload"]["id"], "{row:#}");
    let total = Codex::last_total(&path).unwrap();
    assert_eq!(row["usage"]["cache_read"], total["cached_input_tokens"]);
}
