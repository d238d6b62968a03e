//! `greenroom watch --json`, the built binary: the snapshot, then a line for
//! each change to a sidecar, to tmux and to the folder, and the heartbeat.

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use chrono::Utc;
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use serde_json::Value;

use crate::support::actions::Greenroom;
use crate::support::{TmuxServer, World};

/// The running stream; killed on drop.
pub struct Watch {
    child: Child,
    lines: Receiver<Value>,
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Watch {
    pub fn start(mut command: std::process::Command) -> Self {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { return };
                let v: Value = serde_json::from_str(&line).unwrap();
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        Watch { child, lines }
    }

    /// The next line that `check` accepts, within 10 s.
    pub fn until(&self, what: &str, check: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("timed out waiting for {what}"));
            if check(&v) {
                return v;
            }
        }
    }
}

fn kind(v: &Value) -> &str {
    v["type"].as_str().unwrap_or("")
}

#[test]
fn a_snapshot_then_a_line_per_change_and_heartbeats() {
    let world = World::new();
    let tmux = TmuxServer::new();
    tmux.spawn("keep", &["sleep", "600"]);
    let store = SidecarStore::new(world.path("sessions"));
    let cwd = world.path("work");
    std::fs::create_dir_all(&cwd).unwrap();
    let mut first = Sidecar::new("first", &cwd, "sleep 600", Utc::now());
    first.tmux_session = Some("gr-first".into());
    store.create(&first).unwrap();
    tmux.spawn("gr-first", &["sleep", "600"]);

    let gr = Greenroom::new(&world, &tmux);
    let watch =
        Watch::start(gr.command(&["watch", "--json", "--host", "box1", "--heartbeat", "1"]));
    let snap = watch.until("the snapshot", |v| kind(v) == "snapshot");
    assert_eq!(snap["protocol"], 1);
    assert_eq!(snap["greenroom"], env!("CARGO_PKG_VERSION"));
    assert_eq!(snap["host"], "box1");
    let rows = snap["sessions"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{snap}");
    assert_eq!(rows[0]["name"], "first");
    assert_eq!(rows[0]["host"], "box1");
    assert_eq!(rows[0]["status"], "Running");
    assert_eq!(rows[0]["id"], first.id.to_string());

    // A change to the sidecar: one `changed` line with the whole row.
    store
        .update(first.id, Duration::from_secs(5), |s| {
            s.name = "renamed".into();
            true
        })
        .unwrap();
    let changed = watch.until("the rename", |v| kind(v) == "changed");
    assert_eq!(changed["session"]["name"], "renamed");
    assert_eq!(changed["session"]["host"], "box1");

    // tmux: the session killed by hand is a change of status.
    tmux.run(&["kill-session", "-t", "=gr-first"]);
    let killed = watch.until("the status change", |v| {
        kind(v) == "changed" && v["session"]["status"] != "Running"
    });
    assert_eq!(killed["session"]["name"], "renamed");

    // A new sidecar is `added`; its file removed, `removed`.
    let second = Sidecar::new("second", &cwd, "sleep 600", Utc::now());
    store.create(&second).unwrap();
    let added = watch.until("the new row", |v| kind(v) == "added");
    assert_eq!(added["session"]["name"], "second");
    std::fs::remove_file(store.path_for(second.id)).unwrap();
    let removed = watch.until("the row gone", |v| kind(v) == "removed");
    assert_eq!(removed["id"], second.id.to_string());

    let beat = watch.until("a heartbeat", |v| kind(v) == "heartbeat");
    assert_eq!(beat["sessions"], 1);
}

#[test]
fn a_bad_sidecar_is_a_problems_line_and_the_stream_goes_on() {
    let world = World::new();
    let tmux = TmuxServer::new();
    let gr = Greenroom::new(&world, &tmux);
    std::fs::create_dir_all(world.path("sessions")).unwrap();
    let watch = Watch::start(gr.command(&["watch", "--json", "--heartbeat", "1"]));
    let snap = watch.until("the snapshot", |v| kind(v) == "snapshot");
    assert_eq!(snap["sessions"].as_array().unwrap().len(), 0);
    assert!(!snap["host"].as_str().unwrap().is_empty());
    let bad = world.path("sessions/0b7c3c57-8f0c-4d5e-9f61-1b1a2b3c4d5e.json");
    std::fs::write(&bad, "{ not json").unwrap();
    let line = watch.until("the problem", |v| kind(v) == "problems");
    let problems = line["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{line}");
    assert!(problems[0]["path"].as_str().unwrap().ends_with(".json"));
    // No tmux server ran: watching did not start one (a heartbeat later).
    watch.until("a heartbeat", |v| kind(v) == "heartbeat");
    let ls = tmux.cmd().arg("ls").output().unwrap();
    assert!(!ls.status.success(), "a tmux server was started");
}

#[test]
fn watch_needs_json() {
    let world = World::new();
    let tmux = TmuxServer::new();
    let out = Greenroom::new(&world, &tmux).run(&["watch"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--json"));
}
