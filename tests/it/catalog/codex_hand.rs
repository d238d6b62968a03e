//! A Codex CLI started by hand in a tmux pane, without greenroom's hooks:
//! its row's thread id and usage are those of the rollout its process
//! holds open (Codex keeps it open while it runs), not of another rollout
//! of the same folder and day. Fake Codexes (copies of `sh` named `codex`)
//! hold Codex CLI 0.169.0's own rollout (tests/fixtures/real/codex-rollout).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use std::path::{Path, PathBuf};

use chrono::Local;
use greenroom::model::Session;
use serde_json::Value;

use crate::support::actions::Greenroom;
use crate::support::live::Live;
use crate::support::{TmuxServer, World};

const ROLLOUT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/real/codex-rollout/codex-0.169.0__two-turns.jsonl"
);
const ID: &str = "01a2369d-5c0d-7712-9b13-6966c3434d37";
/// The id another Codex's rollout of the same folder is given here.
const OTHER_ID: &str = "01a2369d-0000-7000-8000-000000000000";

/// Where Codex files a rollout begun now, with `id` in its name.
fn rollout_path(codex_home: &Path, id: &str, tag: &str) -> PathBuf {
    let now = Local::now();
    codex_home
        .join("sessions")
        .join(now.format("%Y/%m/%d").to_string())
        .join(format!(
            "rollout-{}-{tag}{id}.jsonl",
            now.format("%Y-%m-%dT%H-%M-%S")
        ))
}

/// The captured rollout, as the session `id`'s.
fn file_rollout(codex_home: &Path, id: &str, tag: &str) -> PathBuf {
    let path = rollout_path(codex_home, id, tag);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let text = std::fs::read_to_string(ROLLOUT).unwrap();
    std::fs::write(&path, text.replace(ID, id)).unwrap();
    path
}

/// A window of `work` running a copy of `sh` named `codex` with `script`;
/// its pane id.
fn codex_window(tmux: &TmuxServer, world: &World, script: &str) -> String {
    let codex = world.path("codex");
    if !codex.exists() {
        std::fs::copy("/bin/sh", &codex).unwrap();
    }
    let codex = codex.to_str().unwrap();
    let args = [
        "new-window",
        "-d",
        "-P",
        "-F",
        "#{pane_id}",
        "-t",
        "work:",
        codex,
        "-c",
        script,
    ];
    tmux.run(&args).trim().to_owned()
}

/// A shell line holding `path` open for appending, then waiting.
fn hold(path: &Path) -> String {
    format!(
        "exec 3>>{}; while read -r x; do :; done",
        greenroom::ops::shell_quote(path.to_str().unwrap())
    )
}

fn the_rollouts_totals(row: &Value, id: &str) {
    assert_eq!(row["agent_session_id"], id, "{row:#}");
    let u = &row["usage"];
    assert_eq!(u["input"], 25_500 - 14_000, "{row:#}");
    assert_eq!(u["cache_read"], 14_000);
    assert_eq!(u["output"], 650);
    assert_eq!(u["reasoning"], 150);
    assert_eq!(u["by_model"]["gpt-5.4"]["cache_read"], 14_000);
    assert_eq!(u["cost_usd"], Value::Null, "gpt-5.4 has no price");
    assert_eq!(u["unpriced_models"], serde_json::json!(["gpt-5.4"]));
}

#[test]
fn a_codex_started_by_hand_shows_the_rollout_it_holds() {
    let world = World::new();
    let tmux = TmuxServer::new();
    tmux.spawn("work", &["sleep", "600"]);
    let codex_home = world.path("codex-home");
    // Two rollouts of one day (and, as the fixture's, one folder): the
    // pane's Codex holds the first begun, the other is someone else's.
    let mine = file_rollout(&codex_home, ID, "a");
    file_rollout(&codex_home, OTHER_ID, "b");
    let holding = codex_window(&tmux, &world, &hold(&mine));
    // A Codex before its first prompt: no rollout of its own yet.
    let waiting = codex_window(&tmux, &world, "while read -r x; do :; done");
    let gr = Greenroom::new(&world, &tmux);
    let rows = crate::support::wait_for(10, "both Codex panes found", || {
        let out = gr
            .command(&["ls", "--json"])
            .env("CODEX_HOME", &codex_home)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let rows = v["sessions"].as_array().unwrap().clone();
        let row = |pane: &str| rows.iter().find(|r| r["id"] == pane).cloned();
        Some((row(&holding)?, row(&waiting)?))
    });
    let (held, none) = rows;
    assert_eq!(held["name"], "codex@work", "{held:#}");
    assert_eq!(held["adopted"]["hooks"], false);
    the_rollouts_totals(&held, ID);
    assert_eq!(none["agent_session_id"], Value::Null, "{none:#}");
    assert_eq!(none["usage"], Value::Null, "no guess: {none:#}");
}

fn of_pane<'a>(rows: &'a [Session], pane: &str) -> Option<&'a Session> {
    rows.iter()
        .find(|r| r.adopted.as_ref().is_some_and(|a| a.pane.as_str() == pane))
}

/// The dashboard's engine: a hand-started Codex writes its rollout at its
/// first prompt (here, a line typed in its pane), in a day folder that may
/// not exist yet; the row follows it from file notifications as it grows.
#[test]
fn a_running_dashboard_follows_the_rollout_a_codex_by_hand_begins() {
    let world = World::new();
    let tmux = TmuxServer::new();
    tmux.spawn("work", &["sleep", "600"]);
    let codex_home = world.path("codex-home");
    std::fs::create_dir_all(&codex_home).unwrap();
    let path = rollout_path(&codex_home, ID, "");
    let q = |p: &Path| greenroom::ops::shell_quote(p.to_str().unwrap());
    let script = format!(
        "read -r x; mkdir -p {dir}; exec 3>>{path}; cat {fixture} >&3; \
         while read -r x; do :; done",
        dir = q(path.parent().unwrap()),
        path = q(&path),
        fixture = q(Path::new(ROLLOUT)),
    );
    let pane = codex_window(&tmux, &world, &script);
    let mut config = world.config(Some(&tmux), &[]);
    config.codex_dir = Some(codex_home.clone());
    let mut live = Live::start(&config);
    live.engine.poll_tmux();
    let rows = live.until("the Codex pane, no rollout yet", |rows| {
        of_pane(rows, &pane).is_some()
    });
    let row = of_pane(&rows, &pane).unwrap();
    assert_eq!((&row.agent_session_id, &row.usage), (&None, &None));
    // The first prompt: Codex begins its rollout.
    tmux.run(&["send-keys", "-t", &pane, "Enter"]);
    let rows = live.until("the rollout's totals", |rows| {
        of_pane(rows, &pane)
            .and_then(|r| r.usage.as_ref())
            .is_some_and(|u| u.output == 650 && u.reasoning == 150)
    });
    let row = of_pane(&rows, &pane).unwrap();
    assert_eq!(row.agent_session_id.as_deref(), Some(ID));
    let more = r#"{"timestamp":"2026-12-02T11:58:00.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":30000,"cached_input_tokens":20000,"output_tokens":700,"reasoning_output_tokens":160}}}}"#;
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    std::io::Write::write_all(&mut f, format!("{more}\n").as_bytes()).unwrap();
    live.until("the next total", |rows| {
        of_pane(rows, &pane)
            .and_then(|r| r.usage.as_ref())
            .is_some_and(|u| (u.input, u.cache_read, u.output) == (10_000, 20_000, 700))
    });
}

/// Waits until the pane's first process holds `path` open.
fn until_held(tmux: &TmuxServer, pane: &str, path: &Path) {
    let pid = tmux.run(&["display-message", "-p", "-t", pane, "#{pane_pid}"]);
    let fds = format!("/proc/{}/fd", pid.trim());
    crate::support::wait_for(10, "the fake Codex to hold its rollout", || {
        std::fs::read_dir(&fds)
            .ok()?
            .filter_map(Result::ok)
            .any(|e| std::fs::read_link(e.path()).is_ok_and(|p| p == path))
            .then_some(())
    });
}

/// `/new` in a hand-started Codex closes its rollout and begins another:
/// the row follows the new thread.
#[test]
fn a_new_thread_in_a_codex_by_hand_is_followed() {
    let world = World::new();
    let tmux = TmuxServer::new();
    tmux.spawn("work", &["sleep", "600"]);
    let codex_home = world.path("codex-home");
    let first = file_rollout(&codex_home, ID, "a");
    let second = rollout_path(&codex_home, OTHER_ID, "b");
    // The second thread's rollout: its meta, then one total of its own.
    let meta = format!(r#"{{"type":"session_meta","payload":{{"id":"{OTHER_ID}","cwd":"/w"}}}}"#);
    let total = r#"{"timestamp":"2026-12-02T12:00:00.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":1000,"cached_input_tokens":0,"output_tokens":10,"reasoning_output_tokens":0}}}}"#;
    let lines = world.path("second.jsonl");
    std::fs::write(&lines, format!("{meta}\n{total}\n")).unwrap();
    let q = |p: &Path| greenroom::ops::shell_quote(p.to_str().unwrap());
    let script = format!(
        "exec 3>>{first}; read -r x; exec 3>&-; exec 3>>{second}; cat {lines} >&3; \
         while read -r x; do :; done",
        first = q(&first),
        second = q(&second),
        lines = q(&lines),
    );
    let pane = codex_window(&tmux, &world, &script);
    let mut config = world.config(Some(&tmux), &[]);
    config.codex_dir = Some(codex_home.clone());
    until_held(&tmux, &pane, &first);
    let mut live = Live::start(&config);
    live.engine.poll_tmux();
    live.until("the first thread", |rows| {
        of_pane(rows, &pane).is_some_and(|r| r.agent_session_id.as_deref() == Some(ID))
    });
    tmux.run(&["send-keys", "-t", &pane, "Enter"]);
    let rows = live.until("the new thread's total", |rows| {
        of_pane(rows, &pane).is_some_and(|r| r.agent_session_id.as_deref() == Some(OTHER_ID))
    });
    let u = of_pane(&rows, &pane).unwrap().usage.clone().unwrap();
    assert_eq!((u.input, u.output), (1000, 10), "{u:?}");
}
