//! Triage from the command line: answering a prompt with one key
//! (`send --key`), snoozing a session out of the queue and what wakes it,
//! what a waiting session asks, and where each status comes from — the
//! real binary on a private tmux server, reports through `greenroom
//! report` as the agents' hooks send them.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use serde_json::Value;

use crate::support::World;
use crate::support::actions::{Greenroom, assert_contents, cat_to, hook_report, server};

const PAYLOADS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/real/claude-hook-payloads"
);

fn fixture(name: &str) -> Vec<u8> {
    let path = std::fs::read_dir(PAYLOADS)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().contains(name))
        .unwrap_or_else(|| panic!("no fixture {name}"));
    std::fs::read(path).unwrap()
}

#[test]
fn send_key_presses_exactly_one_key_from_a_closed_list() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let out = world.path("keys.txt");
    let cwd = world.dir.path().to_str().unwrap();
    gr.ok(&["spawn", "-n", "keys", "--cwd", cwd, "--", &cat_to(&out)]);
    for key in ["1", "Tab", "Escape", "Enter"] {
        let said = gr.ok(&["send", "keys", "--key", key]);
        assert_eq!(said.trim(), format!("sent {key} to keys"));
    }
    // The terminal hands cat one line: the digit, the tab, the escape.
    assert_contents(&out, "1\t\u{1b}\n");
    for bad in ["C-x", "Enter;kill-server", "0", "enter enter"] {
        let o = gr.run(&["send", "keys", "--key", bad]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !o.status.success() && err.contains("unknown key"),
            "{bad}: {err}"
        );
    }
    let o = gr.run(&["send", "keys", "--key", "Enter", "text too"]);
    assert!(!o.status.success(), "a key and text at once is refused");
    assert!(
        tmux.run(&["list-sessions"]).contains("gr-keys"),
        "server still up"
    );
}

#[test]
fn a_waiting_session_says_what_it_asks_and_where_its_status_comes_from() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    gr.sleeper("ask", world.dir.path());
    let id = gr.row("ask")["id"].as_str().unwrap().to_owned();
    hook_report(&world, &id, &[], &fixture("PreToolUse__Bash"));
    hook_report(
        &world,
        &id,
        &[],
        &fixture("Notification__permission_prompt"),
    );
    let r = gr.row("ask");
    assert_eq!(r["health"], "waiting", "{r:#}");
    let a = &r["activity"];
    assert_eq!(a["source"], "hook");
    assert!(a["age_seconds"].as_i64().unwrap() >= 0, "{a:#}");
    assert_eq!(
        a["waiting_for"],
        serde_json::json!({
            "question": "Claude needs your permission to use Bash",
            "tool": "Bash",
            "command": "ls -la",
        })
    );
    let why = a["why"].as_str().unwrap();
    assert!(
        why.starts_with("the hook reported AwaitingInput") && why.ends_with(": waiting"),
        "{why}"
    );
    // The tool ran: the question is over.
    hook_report(&world, &id, &[], &fixture("PostToolUse__Bash"));
    let r = gr.row("ask");
    assert_eq!(r["activity"]["waiting_for"], Value::Null, "{r:#}");
    assert_eq!(r["health"], "active");
}

#[test]
fn snooze_leaves_the_queue_until_a_newer_report_and_wake_ends_it() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    gr.sleeper("quiet", world.dir.path());
    gr.sleeper("asks", world.dir.path());
    let id = gr.row("asks")["id"].as_str().unwrap().to_owned();

    let refused = gr.run(&["snooze", "quiet"]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("only a waiting, errored, stuck or ready session"),
        "{err}"
    );

    hook_report(&world, &id, &["awaiting_input"], b"");
    assert!(gr.ok(&["status"]).contains("1 waiting"));
    // The tmux form names the session `next` goes to, and its wait.
    let tmux_line = gr.ok(&["status", "--tmux"]);
    assert!(tmux_line.trim_end().ends_with("→ asks 0s"), "{tmux_line}");
    let said = gr.ok(&["snooze", "asks", "--for", "10m"]);
    assert!(said.starts_with("snoozed asks until "), "{said}");
    assert!(said.contains("(z 10m)"), "{said}");
    let r = gr.row("asks");
    assert!(r["snoozed_until"].is_string(), "{r:#}");
    assert_eq!(r["health"], "waiting", "the health is unchanged");
    assert!(!gr.ok(&["status"]).contains("waiting"), "not counted");
    assert!(!gr.ok(&["status", "--tmux"]).contains("→"), "not next");
    assert_eq!(gr.ok(&["next"]).trim(), "nothing needs you right now");
    // Kept in the sidecar, so it survives a restart.
    let sidecar = std::fs::read_to_string(world.path(&format!("sessions/{id}.json"))).unwrap();
    assert!(sidecar.contains("\"snooze\""), "{sidecar}");

    // A newer report (a second question) wakes it, whatever the time left.
    hook_report(&world, &id, &["awaiting_input"], b"");
    let r = gr.row("asks");
    assert_eq!(r["snoozed_until"], Value::Null, "woken: {r:#}");
    assert!(gr.ok(&["status"]).contains("1 waiting"));

    gr.ok(&["snooze", "asks"]);
    assert!(gr.row("asks")["snoozed_until"].is_string());
    assert_eq!(gr.ok(&["snooze", "asks", "--wake"]).trim(), "woke asks");
    assert_eq!(gr.row("asks")["snoozed_until"], Value::Null);
    let bad = gr.run(&["snooze", "asks", "--for", "3 weeks"]);
    assert!(!bad.status.success());
}

/// Escape on a waiting session: the agents fire no hook on a refusal, so
/// greenroom records the state its answer leads to (idle) and says so;
/// the next hook report takes over again.
#[test]
fn an_answer_to_a_waiting_session_records_the_state_it_leads_to() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    gr.sleeper("asks", world.dir.path());
    let id = gr.row("asks")["id"].as_str().unwrap().to_owned();
    hook_report(
        &world,
        &id,
        &[],
        &fixture("Notification__permission_prompt"),
    );
    assert_eq!(gr.row("asks")["health"], "waiting");
    let said = gr.ok(&["send", "asks", "--key", "Escape"]);
    assert_eq!(
        said.trim(),
        "sent Escape to asks (it was waiting; now idle)"
    );
    let r = gr.row("asks");
    assert_eq!(r["health"], "idle", "{r:#}");
    let a = &r["activity"];
    assert_eq!(a["source"], "answer");
    assert_eq!(a["detail"], "answered with Escape");
    assert!(
        a["why"]
            .as_str()
            .unwrap()
            .starts_with("greenroom's answer left it Idle"),
        "{a:#}"
    );
    // Not waiting any more: a second key is just a key.
    assert_eq!(
        gr.ok(&["send", "asks", "--key", "Enter"]).trim(),
        "sent Enter to asks"
    );
    hook_report(&world, &id, &[], &fixture("UserPromptSubmit"));
    let r = gr.row("asks");
    assert_eq!(r["activity"]["source"], "hook", "{r:#}");
    assert_eq!(r["health"], "active");
}

/// Claude Code 2.1.328's own payloads for its permission dialog (recorded
/// by the interop suite): the row asks what the dialog asks.
#[test]
fn the_real_permission_payloads_make_the_question() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    gr.sleeper("real", world.dir.path());
    let id = gr.row("real")["id"].as_str().unwrap().to_owned();
    hook_report(
        &world,
        &id,
        &[],
        &fixture("2.1.328__PermissionRequest__bash"),
    );
    let r = gr.row("real");
    assert_eq!(
        r["activity"]["waiting_for"]["question"],
        "permission to use Bash"
    );
    hook_report(&world, &id, &[], &fixture("2.1.328__Notification__bash"));
    let w = &gr.row("real")["activity"]["waiting_for"];
    assert_eq!(
        *w,
        serde_json::json!({"question": "Claude needs your permission",
                           "tool": "Bash", "command": "touch allowed-by-key"})
    );
}

/// An Agent Orchestrator row's snooze lives in greenroom's own state file
/// (greenroom never writes AO's files): read at load, followed when the
/// file changes, and woken when AO reports another state.
#[test]
fn an_ao_rows_snooze_is_kept_in_greenrooms_state_file() {
    use greenroom::catalog::Catalog;
    use greenroom::sources::sidecar::SidecarStore;
    let world = World::new();
    let write = |status: &str| {
        let path = world.path("ao/0123456789ab-my-app/sessions/ma-1");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(
            path,
            format!("worktree=/tmp/w/ma-1\nstatus={status}\nproject=my-app\n"),
        )
        .unwrap();
    };
    write("needs_input");
    let config = world.config(None, &[]);
    let now = chrono::Utc::now();
    let mut catalog = Catalog::load(&config, false);
    let row = catalog.rows(now).pop().unwrap();
    assert_eq!(greenroom::health::provenance(&row, now), "needs_input · AO");
    assert_eq!(
        row.why.at(chrono::Utc::now()),
        "AO says needs_input: waiting"
    );
    let store = SidecarStore::new(&config.sidecar_dir);
    greenroom::ops::snooze(&store, &row, std::time::Duration::from_secs(600), now).unwrap();
    let file = world.path("sessions/.snoozes.json");
    assert!(file.is_file());
    assert!(catalog.apply(&file), "the file's change reaches the rows");
    let snoozed = catalog.rows(now).pop().unwrap();
    assert!(snoozed.snoozed_until.is_some());
    assert!(greenroom::attention::queue(&catalog.rows(now)).is_empty());
    // Read again at start-up.
    let fresh = Catalog::load(&config, false);
    assert!(fresh.rows(now).pop().unwrap().snoozed_until.is_some());
    // AO says something else: the snooze no longer holds.
    write("stuck");
    let moved = Catalog::load(&config, false).rows(now).pop().unwrap();
    assert_eq!(moved.health, greenroom::model::Health::Stuck);
    assert_eq!(moved.snoozed_until, None);
    greenroom::ops::wake(&store, &snoozed, now).unwrap();
    assert!(catalog.apply(&file));
    assert_eq!(catalog.rows(now).pop().unwrap().snoozed_until, None);
}

/// The queue holds a session whose pane is gone (it exited with an error):
/// `next` says which and what to do, where it said "nothing needs you"
/// while `status` counted it.
#[test]
fn next_names_the_sessions_that_need_you_but_have_no_pane() {
    use greenroom::model::Status;
    use greenroom::sources::sidecar::{Sidecar, SidecarStore};
    let world = World::new();
    let tmux = server();
    let mut s = Sidecar::new("crashed", world.dir.path(), "sleep 600", chrono::Utc::now());
    s.status = Status::Exited;
    s.exit_status = Some(1);
    SidecarStore::new(world.path("sessions"))
        .create(&s)
        .unwrap();
    let gr = Greenroom::new(&world, &tmux);
    assert!(gr.ok(&["status"]).contains("1 errored"));
    assert_eq!(
        gr.ok(&["next"]).trim(),
        "1 session needs you and has no pane to attach: \
         crashed (errored: greenroom restore crashed)"
    );
}
