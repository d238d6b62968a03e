//! Building the rows at 1,000 live sessions (each with a Maestro state
//! file and tmux's facts), in process, with no IO:
//! - when the clock moved (the dashboard's tick): every row is built;
//! - when one record changed between two ticks (a sidecar written, rows read
//!   at the tick's time): one row is built, the others are kept.
//!
//! Run: `cargo bench --bench rows_rebuild` (or `benches/run`).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a bench that cannot run should stop loudly

mod common;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use greenroom::catalog::Catalog;
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
    for k in 1..=runs {
        let now = t0 + chrono::Duration::seconds(k);
        let start = Instant::now();
        let rows = catalog.rows(now);
        every.push(start.elapsed());
        assert_eq!(catalog.rows_built(), SESSIONS, "{}", rows.len());
    }

    let store = SidecarStore::new(dir.path().join("sessions"));
    let mut one = Vec::new();
    // One reading of the clock (the dashboard reads rows at its tick's time
    // until the next tick): every change then finds the others' rows kept.
    let now = t0 + chrono::Duration::seconds(runs + 1);
    let _ = catalog.rows(now);
    for k in 0..runs {
        let s = &sidecars[k as usize % SESSIONS];
        store
            .update(s.id, Duration::from_secs(1), |s| {
                s.name = format!("renamed-{k}");
                true
            })
            .unwrap();
        assert!(catalog.apply(&store.path_for(s.id)));
        let start = Instant::now();
        let rows = catalog.rows(now);
        one.push(start.elapsed());
        assert_eq!(catalog.rows_built(), 1);
        assert!(rows.iter().any(|r| r.name == format!("renamed-{k}")));
    }

    let (a50, a99) = p50_p99(every);
    let (b50, b99) = p50_p99(one);
    println!("| measure | measured | budget |");
    println!("|---|---|---|");
    println!(
        "| rows at {SESSIONS} live sessions, the clock moved, a tick (every row built) | p50 {a50:.2} ms, p99 {a99:.2} ms | |"
    );
    println!(
        "| rows at {SESSIONS} live sessions, one record changed between two ticks (one row built) | p50 {b50:.2} ms, p99 {b99:.2} ms | (part of the 3 ms sidecar -> frame) |"
    );
}
