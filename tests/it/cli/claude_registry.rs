//! Claude Code's own session registry (`<claude dir>/sessions/<pid>.json`)
//! as a source, with the built binary's watcher: a record written after
//! start names the pane, and the pane's row takes its status, its session
//! id and the usage of the transcript that id names; no hooks, no polling.

use std::path::Path;

use chrono::Utc;
use greenroom::model::ModelUsage;
use greenroom::sources::transcript;
use serde_json::{Value, json};

use crate::cli::watch_json::Watch;
use crate::support::actions::Greenroom;
use crate::support::{TmuxServer, World};

/// The pane's row in a `watch --json` line, if the line carries it.
fn row_of<'a>(v: &'a Value, pane: &str) -> Option<&'a Value> {
    let by_pane = |s: &&Value| s["adopted"]["pane"] == pane;
    match v["type"].as_str() {
        Some("snapshot") => v["sessions"].as_array()?.iter().find(by_pane),
        Some("added" | "changed") => Some(&v["session"]).filter(by_pane),
        _ => None,
    }
}

fn write_record(path: &Path, record: &Value) {
    std::fs::write(path, record.to_string()).unwrap();
}

#[test]
fn a_record_written_after_start_is_the_panes_status_session_and_usage() {
    let world = World::new();
    let tmux = TmuxServer::new();
    // Not an agent's program: without the record, no row.
    tmux.spawn("work", &["sleep", "600"]);
    let info = tmux.run(&[
        "display-message",
        "-p",
        "-t",
        "work:",
        "#{pane_id} #{pane_pid} #{window_id}",
    ]);
    let [pane, pid, window]: [&str; 3] = info
        .split_whitespace()
        .collect::<Vec<_>>()
        .try_into()
        .unwrap();
    let cwd = world.path("work");
    std::fs::create_dir_all(&cwd).unwrap();

    let gr = Greenroom::new(&world, &tmux);
    let watch = Watch::start(gr.command(&["watch", "--json", "--heartbeat", "1"]));
    let snap = watch.until("the snapshot", |v| v["type"] == "snapshot");
    assert!(row_of(&snap, pane).is_none(), "{snap:#}");

    // Claude Code's own record, as 2.1.328 writes it (the captured
    // fixture's fields), into a folder that did not exist at start.
    let sid = "d10fcf9e-d290-47d0-9f2a-022516731c93";
    let main = transcript::locate(&world.path("claude"), &cwd, sid).unwrap();
    std::fs::create_dir_all(main.parent().unwrap()).unwrap();
    let used = ModelUsage {
        input: 10,
        output: 5,
        cache_read: 0,
        cache_write: 0,
    };
    let line = transcript::usage_line("req_1", "msg_1", "claude-opus-4-5", &used, Utc::now());
    std::fs::write(&main, format!("{line}\n")).unwrap();
    let dir = world.path("claude/sessions");
    std::fs::create_dir_all(&dir).unwrap();
    let now_ms = Utc::now().timestamp_millis();

    // A record anyone could write, naming this pane from a process that
    // does not run in it (this test's own): it speaks for nothing, so no
    // key of the operator's can reach that pane on its word.
    let me = std::process::id();
    let spoof = dir.join(format!("{me}.json"));
    write_record(
        &spoof,
        &json!({
            "pid": me, "sessionId": sid, "cwd": cwd, "status": "waiting",
            "tmux": format!("work:{window}.{pane}"), "statusUpdatedAt": now_ms,
        }),
    );
    let beats = std::cell::Cell::new(0);
    watch.until("two heartbeats after the spoofed record", |v| {
        assert!(
            row_of(v, pane).is_none(),
            "a spoofed record made a row: {v:#}"
        );
        if v["type"] == "heartbeat" {
            beats.set(beats.get() + 1);
        }
        beats.get() >= 2
    });
    std::fs::remove_file(&spoof).unwrap();

    let record_path = dir.join(format!("{pid}.json"));
    let mut record = json!({
        "pid": pid.parse::<u32>().unwrap(), "sessionId": sid, "cwd": cwd,
        "startedAt": now_ms, "version": "2.1.328", "kind": "interactive",
        "tmux": format!("work:{window}.{pane}"), "name": "work-08",
        "status": "waiting", "waitingFor": "permission prompt",
        "updatedAt": now_ms, "statusUpdatedAt": now_ms,
    });
    write_record(&record_path, &record);
    // The usage may come on the same line or a later one.
    let waiting = watch.until("the pane waiting, by its record, with its usage", |v| {
        row_of(v, pane).is_some_and(|r| r["health"] == "waiting" && r["usage"]["output"] == 5)
    });
    let row = row_of(&waiting, pane).unwrap();
    assert_eq!(row["agent_session_id"], sid, "{row:#}");
    assert_eq!(row["activity"]["state"], "awaiting_input", "{row:#}");
    assert_eq!(row["activity"]["source"], "claude-registry", "{row:#}");
    assert_eq!(row["adopted"]["hooks"], false, "{row:#}");
    assert_eq!(row["usage"]["input"], 10, "{row:#}");

    // Esc in Claude Code: the record says idle.
    record["status"] = json!("idle");
    record.as_object_mut().unwrap().remove("waitingFor");
    record["statusUpdatedAt"] = json!(Utc::now().timestamp_millis());
    write_record(&record_path, &record);
    watch.until("the pane idle, by its record", |v| {
        row_of(v, pane).is_some_and(|r| r["activity"]["state"] == "idle")
    });

    // Claude Code removes its record when it exits: the row goes.
    std::fs::remove_file(&record_path).unwrap();
    watch.until("the row gone", |v| {
        v["type"] == "removed" && v["id"].as_str() == Some(pane)
    });
}

#[test]
fn a_bad_record_is_a_problem_and_the_rest_still_reads() {
    let world = World::new();
    let tmux = TmuxServer::new();
    tmux.spawn("work", &["sleep", "600"]);
    let dir = world.path("claude/sessions");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("7.json"), r#"{"pid":8,"sessionId":"a"}"#).unwrap();
    // Claude Code's key files beside the records are not records.
    std::fs::write(dir.join("7.0123abcd.key"), "{}").unwrap();
    let out = Greenroom::new(&world, &tmux).run(&["ls", "--json"]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let problems = doc["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{doc:#}");
    assert!(
        problems[0]["error"]
            .as_str()
            .unwrap()
            .contains("not 7, the file's name"),
        "{doc:#}"
    );
}
