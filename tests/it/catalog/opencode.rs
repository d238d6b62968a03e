//! An OpenCode session greenroom started, no plugin: its id and running
//! totals are OpenCode's own, from OpenCode's database, and a running
//! dashboard follows them as OpenCode writes (through its WAL), from file
//! notifications. The database is the real OpenCode 1.18.33's, from
//! tests/fixtures/opencode (see its README), written here as OpenCode
//! would write its next turn.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use chrono::{Duration, Utc};
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use rusqlite::Connection;

use crate::support::World;
use crate::support::live::Live;

const DB: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/opencode/opencode-1.18.33__bash-then-text.db"
);
const ID: &str = "ses_dc8f99543ffep8txQIgnjsDIg0";

#[test]
fn a_running_dashboard_follows_opencodes_own_totals() {
    let world = World::new();
    let work = world.path("work");
    std::fs::create_dir_all(&work).unwrap();
    let started = Utc::now() - Duration::seconds(60);
    let mut s = Sidecar::new("oc", &work, "opencode", started);
    s.agent = Some("opencode".into());
    SidecarStore::new(world.path("sessions"))
        .create(&s)
        .unwrap();
    // OpenCode's database, its session begun in this folder after the start;
    // kept open in WAL mode as OpenCode keeps it.
    let db = world.path("data/opencode/opencode.db");
    std::fs::create_dir_all(db.parent().unwrap()).unwrap();
    std::fs::copy(DB, &db).unwrap();
    let opencode = Connection::open(&db).unwrap();
    opencode
        .query_row("PRAGMA journal_mode=WAL", [], |_| Ok(()))
        .unwrap();
    let begun = (started + Duration::seconds(5)).timestamp_millis();
    opencode
        .execute(
            "UPDATE session SET directory = ?1, time_created = ?2, time_updated = ?2",
            (work.to_str().unwrap(), begun),
        )
        .unwrap();
    let mut config = world.config(None, &[]);
    config.opencode_db = Some(db.clone());
    let mut live = Live::start(&config);
    let row = live.row("oc", "OpenCode's totals and id", |r| r.usage.is_some());
    let u = row.usage.unwrap();
    // OpenCode's split: input without the cache reads, output without the
    // reasoning (greenroom's output holds it).
    assert_eq!(
        (u.input, u.cache_read, u.output, u.reasoning),
        (2000, 400, 68, 10)
    );
    assert_eq!(row.agent_session_id.as_deref(), Some(ID));
    assert!(
        live.engine.problems().is_empty(),
        "{:?}",
        live.engine.problems()
    );
    // OpenCode's next turn, written through its WAL.
    opencode
        .execute(
            "UPDATE session SET tokens_input = tokens_input + 500, time_updated = ?1",
            [Utc::now().timestamp_millis()],
        )
        .unwrap();
    live.row("oc", "the next turn's totals", |r| {
        r.usage.as_ref().is_some_and(|u| u.input == 2500)
    });
}
