//! The first hook after `greenroom hooks install` creates the adopted
//! folder and writes its record milliseconds later, while a watcher already
//! runs: the record is seen at once (the folder is read once its watch is
//! armed), not at the agent's next hook.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::adopt::{Setup, fixture};
use crate::cli::watch_json::Watch;
use crate::support::actions::Greenroom;

/// The pane's row in a `watch --json` line, if the line carries it.
fn row_of<'a>(v: &'a Value, pane: &str) -> Option<&'a Value> {
    let by_pane = |s: &&Value| s["adopted"]["pane"] == pane;
    match v["type"].as_str() {
        Some("snapshot") => v["sessions"].as_array()?.iter().find(by_pane),
        Some("added" | "changed") => Some(&v["session"]).filter(by_pane),
        _ => None,
    }
}

/// The first hook's `mkdir` and its record's write are milliseconds apart,
/// and the watcher arms the new folder only after it hears of it: on a busy
/// machine the record is written first, and no event will ever come for it.
/// That worst case, made certain: the real `greenroom report`'s folder and
/// record, made while no watcher runs, set aside, then put in place at once
/// (a rename) while the watcher runs.
#[test]
fn the_first_hooks_record_in_a_folder_made_after_start_is_seen_at_once() {
    let s = Setup::new();
    let pane = s.hook_window();
    let start = fixture("SessionStart__startup");
    // The real `greenroom report`, from inside the pane, as the first hook.
    s.report(Some(&pane), &start);
    let adopted = s.world.path("sessions/adopted");
    let aside = s.world.path("adopted-aside");
    std::fs::rename(&adopted, &aside).unwrap();

    let gr = Greenroom::new(&s.world, &s.tmux);
    let watch = Watch::start(gr.command(&["watch", "--json", "--heartbeat", "1"]));
    let snap = watch.until("the snapshot", |v| v["type"] == "snapshot");
    assert!(row_of(&snap, &pane).is_none(), "{snap:#}");

    std::fs::rename(&aside, &adopted).unwrap();
    let appeared = Instant::now();
    let line = watch.until("the pane's row from its first hook", |v| {
        row_of(v, &pane).is_some()
    });
    let row = row_of(&line, &pane).unwrap();
    assert_eq!(row["adopted"]["hooks"], true, "{row:#}");
    assert_eq!(row["agent_session_id"], start["session_id"], "{row:#}");
    // At once: the agent's next hook may be minutes away. Generous for a
    // loaded machine.
    let took = appeared.elapsed();
    assert!(took < Duration::from_secs(3), "took {took:?}");

    // The folder goes (removed by hand): its record's row goes with it.
    std::fs::remove_dir_all(&adopted).unwrap();
    watch.until("the row gone with its folder", |v| {
        v["type"] == "removed" && v["id"].as_str() == Some(pane.as_str())
    });
}
