//! Building the rows at 1,000 live sessions (each with a Maestro state
//! file and tmux's facts), in process, with no IO:
//! - when tmux's answer changed every session's facts: every row is built;
//! - all rows again with nothing changed: every row kept;
//! - when one record changed (a sidecar written): the full list with one
//!   row built, and the dashboard's path, that row alone (`rows_of`).
//!
//! Run: `cargo bench --bench rows_rebuild` (or `benches/run`).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a bench that cannot run should stop loudly

mod common;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use greenroom::catalog::{Applied, Catalog};
use greenroom::health::TmuxFacts;
use greenroom::sources::sidecar::SidecarStore;
use greenroom::tmux::{Pane, PaneId, Server, ServerState};

const SESSIONS: usize = 1000;

fn server(now: chrono::DateTime<Utc>) -> ServerState {
    let mut sessions = BTreeMap::new();
    let mut panes = Vec::new();
    for i in 0..SESSIONS {
        let name = format!("gr-agent-{i}");
        let active = Some(now - chrono::Duration::seconds(i as i64));
        sessions.insert(
            name.clone(),
            TmuxFacts {
                pane_dead: false,
                exit_status: None,
                window_activity: active,
                last_attached: None,
            },
        );
        panes.push(Pane {
            id: PaneId::parse(&format!("%{i}")).unwrap(),
            pid: 10_000 + i as u32,
            command: "sleep".into(),
            session: name,
            window_activity: active,
            last_attached: None,
        });
    }
    ServerState::Running(Server::new(sessions, panes))
}

fn p50_p99(mut v: Vec<Duration>) -> (f64, f64) {
    v.sort();
    (common::pct(&v, 0.5), common::pct(&v, 0.99))
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let sidecars = common::populate(dir.path(), SESSIONS);
    let config = common::config(dir.path(), "greenroom-bench-none");
    let mut catalog = Catalog::load(&config, false);
    let t0 = Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap();
    catalog.set_tmux(server(t0));
    assert_eq!(catalog.rows(t0).len(), SESSIONS);

    let runs = 200;
    let mut every = Vec::new();
    let mut kept = Vec::new();
    let mut now = t0;
    for k in 1..=runs {
        now = t0 + chrono::Duration::seconds(k);
        catalog.set_tmux(server(now));
        let start = Instant::now();
        let rows = catalog.rows(now);
        every.push(start.elapsed());
        assert_eq!(catalog.rows_built(), SESSIONS, "{}", rows.len());
        let start = Instant::now();
        let _ = catalog.rows(now);
        kept.push(start.elapsed());
        assert_eq!(catalog.rows_built(), 0);
    }

    let store = SidecarStore::new(dir.path().join("sessions"));
    let mut one = Vec::new();
    let mut alone = Vec::new();
    for k in 0..runs {
        let s = &sidecars[k as usize % SESSIONS];
        let rename = |name: String| {
            store
                .update(s.id, Duration::from_secs(1), |s| {
                    s.name = name;
                    true
                })
                .unwrap();
        };
        rename(format!("renamed-{k}"));
        assert!(catalog.apply(&store.path_for(s.id)));
        let start = Instant::now();
        let rows = catalog.rows(now);
        one.push(start.elapsed());
        assert_eq!(catalog.rows_built(), 1);
        assert!(rows.iter().any(|r| r.name == format!("renamed-{k}")));

        rename(format!("again-{k}"));
        let path = store.path_for(s.id);
        assert_eq!(
            catalog.apply_path(&path),
            Applied::Records(vec![path.clone()])
        );
        let start = Instant::now();
        let rows = catalog.rows_of(std::slice::from_ref(&path), now);
        alone.push(start.elapsed());
        assert_eq!(rows.map(|r| r[0].name.clone()), Some(format!("again-{k}")));
    }

    let (a50, a99) = p50_p99(every);
    let (k50, k99) = p50_p99(kept);
    let (b50, b99) = p50_p99(one);
    let (c50, c99) = p50_p99(alone);
    println!("| measure | measured | budget |");
    println!("|---|---|---|");
    println!(
        "| rows at {SESSIONS} live sessions, tmux's facts changed for every session (every row built) | p50 {a50:.2} ms, p99 {a99:.2} ms | |"
    );
    println!(
        "| rows at {SESSIONS} live sessions, nothing changed (every row kept; the clock's tick builds none while no row is due) | p50 {k50:.2} ms, p99 {k99:.2} ms | |"
    );
    println!(
        "| rows at {SESSIONS} live sessions, one record changed: the full list (one row built) / that row alone (`rows_of`, the dashboard's path) | p50 {b50:.2} / {c50:.3} ms, p99 {b99:.2} / {c99:.3} ms | (part of the 3 ms sidecar -> frame) |"
    );
}
