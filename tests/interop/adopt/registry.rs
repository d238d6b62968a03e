//! Claude Code's own session registry (`~/.claude/sessions/<pid>.json`)
//! against `claude agents --json`, which reads it, with the real Claude
//! Code: idle after a turn with no hooks at all (its session id, and the
//! usage of the transcript that id names); and with greenroom's hooks,
//! where the hooks stay the first source and the record agrees with them,
//! followed by a watcher that ran before the first hook made its folder;
//! and Claude Code's own blocking first-run question, which only its record
//! tells ("dialog open").

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};

use serde_json::Value;

use super::claude::{claude_agents, tokens, type_until_shown};
use super::harness::Claude;
use super::standin::{Reply, StandIn};
use super::user;
use crate::it_support::{Pane, wait_for};

/// Types `run-claude` into `work`'s shell; returns once its prompt shows.
fn start_claude(c: &Claude) -> Pane<'_> {
    let p = Pane::new(&c.tmux, "work");
    c.by_hand(&p);
    p
}

/// A prompt whose reply is plain text: the turn ends at once.
fn one_turn(p: &Pane<'_>, reply: &str) {
    type_until_shown(p, "Say hello.");
    p.keys(&["Enter"]);
    p.until(30, "the reply", |s| s.contains(reply));
}

#[test]
fn claude_code_without_hooks_idle_after_its_turn_is_what_claude_agents_says() {
    let api = StandIn::start();
    api.script([Reply::Text(
        "Hello from the stand-in.".into(),
        tokens(900, 12),
    )]);
    let c = Claude::prepare(api.clone());
    c.without_hooks();
    user::plain_session(&c.tmux, &c.home(), &c.work());
    let pane = user::first_pane(&c.tmux);
    let p = start_claude(&c);
    let row = || user::row(&c.tmux, &c.home(), &pane);

    one_turn(&p, "Hello from the stand-in.");
    let agent = wait_for(10, "claude agents: idle after the turn", || {
        Some(claude_agents(&c)).filter(|a| a["status"] == "idle")
    });
    // Idle, and the turn's usage from the transcript its session id names.
    let r = wait_for(5, "the row idle with the turn's usage", || {
        row().filter(|r| {
            r["activity"]["state"] == "idle" && r["usage"]["input"].as_u64().unwrap_or(0) >= 900
        })
    });
    // The turn ended by Claude Code's own record, and nobody looked: ready.
    assert_eq!(r["health"], "ready", "{r:#}");
    assert_eq!(r["activity"]["source"], "claude-registry", "{r:#}");
    assert_eq!(r["agent_session_id"], agent["sessionId"], "{r:#}");
    assert!(r["usage"]["output"].as_u64().unwrap() >= 12, "{r:#}");
    assert_eq!(r["adopted"]["hooks"], false, "{r:#}");
}

/// `greenroom watch --json`, the rows it has said last, by id.
struct Watch {
    child: Child,
    rows: Arc<Mutex<HashMap<String, Value>>>,
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Watch {
    fn start(c: &Claude) -> Self {
        let mut child = user::greenroom(&c.tmux, &c.home())
            .args(["watch", "--json", "--heartbeat", "1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let out = child.stdout.take().unwrap();
        let rows: Arc<Mutex<HashMap<String, Value>>> = Default::default();
        let seen = rows.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { return };
                let v: Value = serde_json::from_str(&line).unwrap();
                let mut rows = seen.lock().unwrap();
                let id = |r: &Value| r["id"].as_str().unwrap_or_default().to_owned();
                match v["type"].as_str() {
                    Some("snapshot") => {
                        rows.insert(String::new(), Value::Null);
                        for r in v["sessions"].as_array().unwrap() {
                            rows.insert(id(r), r.clone());
                        }
                    }
                    Some("added" | "changed") => {
                        rows.insert(id(&v["session"]), v["session"].clone());
                    }
                    Some("removed") => {
                        rows.remove(&id(&v));
                    }
                    _ => {}
                }
            }
        });
        let w = Watch { child, rows };
        wait_for(15, "the watcher's snapshot", || {
            w.rows.lock().unwrap().contains_key("").then_some(())
        });
        w
    }

    fn row(&self, id: &str) -> Option<Value> {
        self.rows.lock().unwrap().get(id).cloned()
    }
}

#[test]
fn with_hooks_the_registry_agrees_and_a_watcher_sees_the_first_hook_at_once() {
    let api = StandIn::start();
    api.script([Reply::Text(
        "Hello from the stand-in.".into(),
        tokens(900, 12),
    )]);
    let c = Claude::prepare(api.clone());
    user::plain_session(&c.tmux, &c.home(), &c.work());
    let pane = user::first_pane(&c.tmux);
    // Running before the first hook ever ran: it makes the folder.
    let adopted = c.home().join(".local/state/greenroom/sessions/adopted");
    let watch = Watch::start(&c);
    assert!(!adopted.exists(), "no hook has run yet");
    let p = start_claude(&c);
    let r = user::within_a_second_of(
        || c.payloads(),
        "SessionStart",
        1,
        || watch.row(&pane),
        "idle",
    );
    assert_eq!(r["adopted"]["hooks"], true, "{r:#}");

    one_turn(&p, "Hello from the stand-in.");
    user::within_a_second_of(|| c.payloads(), "Stop", 1, || watch.row(&pane), "idle");
    let agent = wait_for(10, "claude agents: idle after the turn", || {
        Some(claude_agents(&c)).filter(|a| a["status"] == "idle")
    });
    let started = c
        .payloads()
        .into_iter()
        .find(|p| p["hook_event_name"] == "SessionStart")
        .unwrap();
    assert_eq!(agent["sessionId"], started["session_id"]);
    // The hooks stay the first source; the record agrees with them.
    for r in [
        user::row(&c.tmux, &c.home(), &pane).unwrap(),
        wait_for(10, "the watcher's row with the turn's usage", || {
            watch
                .row(&pane)
                .filter(|r| r["usage"]["input"].as_u64().unwrap_or(0) >= 900)
        }),
    ] {
        assert_eq!(r["activity"]["state"], "idle", "{r:#}");
        assert_eq!(r["activity"]["source"], "hook", "{r:#}");
        assert_eq!(r["agent_session_id"], agent["sessionId"], "{r:#}");
        assert_eq!(r["adopted"]["hooks"], true, "{r:#}");
    }
}

/// Claude Code's own question on a fresh config, which blocks it before
/// any prompt and fires no hook: "Make auto mode your default permission
/// mode?" (shown once, when `~/.claude.json` has no
/// `hasSeenAutoDefaultNudge` and the user's settings choose another mode).
/// The row reads waiting while it is open, and idle once answered.
#[test]
fn claude_codes_own_first_run_question_reads_waiting_until_answered() {
    let c = Claude::prepare(StandIn::start());
    let config = c.home().join(".claude.json");
    let mut v: Value = serde_json::from_slice(&std::fs::read(&config).unwrap()).unwrap();
    v.as_object_mut().unwrap().remove("hasSeenAutoDefaultNudge");
    std::fs::write(&config, v.to_string()).unwrap();
    user::plain_session(&c.tmux, &c.home(), &c.work());
    let pane = user::first_pane(&c.tmux);
    let watch = Watch::start(&c);
    let p = Pane::new(&c.tmux, "work");
    user::type_line(&p, &c.dir.path().join("run-claude").to_string_lossy());
    p.until(60, "Claude Code's question", |s| {
        s.contains("Make auto mode your default permission mode?")
            && s.contains("No, keep manual mode")
    });
    let agent = wait_for(10, "claude agents: waiting", || {
        Some(claude_agents(&c)).filter(|a| a["status"] == "waiting")
    });
    wait_for(30, "the SessionStart hook", || {
        c.payloads()
            .iter()
            .any(|p| p["hook_event_name"] == "SessionStart")
            .then_some(())
    });
    let ls = || user::row(&c.tmux, &c.home(), &pane);
    for (how, row) in [
        ("ls", &ls as &dyn Fn() -> Option<Value>),
        ("the watcher", &|| watch.row(&pane)),
    ] {
        let r = wait_for(5, &format!("{how}: the row waiting"), || {
            row().filter(|r| r["health"] == "waiting")
        });
        assert_eq!(r["activity"]["state"], "awaiting_input", "{how}: {r:#}");
        assert_eq!(r["activity"]["detail"], agent["waitingFor"], "{how}: {r:#}");
        assert_eq!(r["adopted"]["hooks"], true, "{how}: {r:#}");
        assert_eq!(r["agent_session_id"], agent["sessionId"], "{how}: {r:#}");
    }

    // Answered ("No, keep manual mode"): Claude Code is idle, and the row.
    p.keys(&["Down"]);
    p.keys(&["Enter"]);
    p.until(10, "the prompt", |s| {
        !s.contains("Make auto mode your default") && s.contains("for shortcuts")
    });
    wait_for(10, "claude agents: idle", || {
        Some(claude_agents(&c)).filter(|a| a["status"] == "idle")
    });
    for (how, row) in [
        ("ls", &ls as &dyn Fn() -> Option<Value>),
        ("the watcher", &|| watch.row(&pane)),
    ] {
        wait_for(5, &format!("{how}: the row idle"), || {
            row().filter(|r| r["activity"]["state"] == "idle")
        });
    }
}
