//! An OpenCode someone started by hand in a tmux pane, without greenroom's
//! plugin: its row shows the id of its OpenCode session and OpenCode's own
//! totals, from OpenCode's database, and follows them as OpenCode writes
//! (through its WAL), from file notifications. Which session is whose: the
//! one its argv names, else the latest in its folder written since it
//! started; two in one folder with nothing named are not guessed.
//!
//! The stand-in OpenCode is a copy of `sh` named `opencode` (tmux and
//! `/proc` name it so, its argv as an operator would give it); the
//! database has the real OpenCode 1.18.33's schema (tests/fixtures/opencode).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use std::path::Path;
use std::time::{Duration, Instant};

use chrono::Utc;
use greenroom::model::Session;
use rusqlite::Connection;

use crate::support::live::Live;
use crate::support::{TmuxServer, World};

const DB: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/opencode/opencode-1.18.33__bash-then-text.db"
);

/// A session in OpenCode's table: `input` prompt tokens (30 cached, 7
/// output, 2 reasoning), `cost` dollars; times in milliseconds.
fn add(
    db: &Connection,
    id: &str,
    parent: Option<&str>,
    dir: &Path,
    cost: f64,
    input: i64,
    at: [i64; 2],
) {
    db.execute(
        "INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, cost, \
         tokens_input, tokens_output, tokens_reasoning, tokens_cache_read, tokens_cache_write, \
         time_created, time_updated) \
         SELECT ?1, project_id, ?2, 'slug', ?3, 'title', version, ?4, ?5, 7, 2, 30, 0, ?6, ?7 \
         FROM session LIMIT 1",
        (id, parent, dir.to_str().unwrap(), cost, input, at[0], at[1]),
    )
    .unwrap();
}

/// A pane of its own tmux session `name`, in `dir`, running the stand-in
/// OpenCode with `args` after its own (`sh -c` keeps it there).
fn opencode_in(tmux: &TmuxServer, opencode: &Path, name: &str, dir: &Path, args: &[&str]) {
    let mut argv = vec![
        "new-session",
        "-d",
        "-s",
        name,
        "-c",
        dir.to_str().unwrap(),
        opencode.to_str().unwrap(),
        "-c",
        "sleep 600; exit 0",
    ];
    argv.extend_from_slice(args);
    tmux.run(&argv);
}

/// Polls tmux and feeds file events until `check` holds (10 s).
fn polled_until(live: &mut Live, what: &str, check: impl Fn(&[Session]) -> bool) -> Vec<Session> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        live.engine.poll_tmux();
        let rows = live.engine.rows(Utc::now());
        if check(&rows) {
            return rows;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}; rows: {rows:#?}"
        );
        if let Ok(first) = live.rx.recv_timeout(Duration::from_millis(100)) {
            let mut batch = vec![first];
            batch.extend(live.rx.try_iter());
            live.engine.apply_changes(batch);
        }
    }
}

fn row<'a>(rows: &'a [Session], name: &str) -> &'a Session {
    rows.iter().find(|r| r.name == name).unwrap()
}

#[test]
fn an_opencode_started_by_hand_shows_its_sessions_id_and_opencodes_totals() {
    let world = World::new();
    let tmux = TmuxServer::new();
    let opencode = world.path("bin/opencode");
    std::fs::create_dir_all(opencode.parent().unwrap()).unwrap();
    std::fs::copy("/bin/sh", &opencode).unwrap();
    let dir = |name: &str| {
        let d = world.path(name);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::canonicalize(d).unwrap()
    };
    let (alone, named, both) = (dir("alone"), dir("named"), dir("both"));
    opencode_in(&tmux, &opencode, "alone", &alone, &[]);
    opencode_in(
        &tmux,
        &opencode,
        "named",
        &named,
        &["--session", "ses_named"],
    );
    opencode_in(&tmux, &opencode, "both1", &both, &[]);
    opencode_in(&tmux, &opencode, "both2", &both, &[]);
    // OpenCode's database, kept open in WAL mode as OpenCode keeps it. The
    // processes above started before `now`, after `old`.
    let db = world.path("data/opencode/opencode.db");
    std::fs::create_dir_all(db.parent().unwrap()).unwrap();
    std::fs::copy(DB, &db).unwrap();
    let oc = Connection::open(&db).unwrap();
    oc.query_row("PRAGMA journal_mode=WAL", [], |_| Ok(()))
        .unwrap();
    let now = Utc::now().timestamp_millis() + 1000;
    let old = now - 3_600_000;
    add(&oc, "ses_before", None, &alone, 9.0, 9000, [old, old]);
    add(&oc, "ses_first", None, &alone, 1.0, 100, [now, now]);
    add(
        &oc,
        "ses_alone",
        None,
        &alone,
        0.25,
        1000,
        [now + 1, now + 2],
    );
    add(
        &oc,
        "ses_task",
        Some("ses_alone"),
        &alone,
        0.5,
        500,
        [now + 1, now + 2],
    );
    // Named, and not written to since its OpenCode started.
    add(&oc, "ses_named", None, &named, 2.0, 2000, [old, old]);
    add(&oc, "ses_both", None, &both, 3.0, 3000, [now, now]);

    let mut config = world.config(Some(&tmux), &[]);
    config.opencode_db = Some(db.clone());
    let mut live = Live::start(&config);
    let rows = polled_until(&mut live, "the four OpenCodes, two known", |rows| {
        let found = rows
            .iter()
            .filter(|r| r.name.starts_with("opencode@"))
            .count();
        let known = rows.iter().filter(|r| r.agent_session_id.is_some()).count();
        found == 4 && known >= 2
    });
    let a = row(&rows, "opencode@alone");
    assert_eq!(a.agent_session_id.as_deref(), Some("ses_alone"), "{a:#?}");
    let u = a.usage.as_ref().unwrap();
    // Its sub-agent's counts with it; OpenCode's own cost.
    assert_eq!(
        (u.input, u.cache_read, u.output, u.reasoning),
        (1500, 60, 18, 4)
    );
    assert_eq!(u.cost_usd, Some(0.75));
    let n = row(&rows, "opencode@named");
    assert_eq!(n.agent_session_id.as_deref(), Some("ses_named"), "{n:#?}");
    assert_eq!(n.usage.as_ref().and_then(|u| u.cost_usd), Some(2.0));
    for two in ["opencode@both1", "opencode@both2"] {
        let r = row(&rows, two);
        assert_eq!((&r.agent_session_id, &r.usage), (&None, &None), "{r:#?}");
    }
    assert!(
        live.engine.problems().is_empty(),
        "{:?}",
        live.engine.problems()
    );

    // OpenCode's next turn, written through its WAL: followed from the
    // database's notification alone (no poll).
    oc.execute(
        "UPDATE session SET tokens_input = tokens_input + 500, cost = 0.5, time_updated = ?1 \
         WHERE id = 'ses_alone'",
        [now + 10],
    )
    .unwrap();
    let a = live.row("opencode@alone", "the next turn's totals", |r| {
        r.usage.as_ref().is_some_and(|u| u.input == 2000)
    });
    assert_eq!(a.usage.unwrap().cost_usd, Some(1.0));
    // `/new`: a newer session in its folder is its conversation now.
    add(
        &oc,
        "ses_newer",
        None,
        &alone,
        0.0,
        10,
        [now + 20, now + 20],
    );
    live.row("opencode@alone", "the new conversation", |r| {
        r.agent_session_id.as_deref() == Some("ses_newer")
    });
}
