//! The live catalog's budgets:
//! - a sidecar or state file written -> catalog updated and rows rebuilt (p50, p99);
//! - tmux processes started per poll at 1, 100 and 1,000 panes running agents greenroom did
//!   not start (must be 1: discovery adds no tmux call), poll time and discovery time;
//! - catalog memory at 1,000 and 10,000 sessions.
//!
//! Run: `cargo bench --bench live_catalog` (or `benches/run`).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a bench that cannot run should stop loudly

mod common;

use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use chrono::Utc;
use greenroom::catalog::Catalog;
use greenroom::config::TmuxSocket;
use greenroom::engine::Engine;
use greenroom::sources::sidecar::SidecarStore;
use greenroom::tmux::{ServerState, Tmux};

fn file_to_catalog(rows: &mut Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let sidecars = common::populate(dir.path(), 1000);
    let config = common::config(dir.path(), "greenroom-bench-none");
    let (tx, rx) = channel();
    let mut engine = Engine::start(&config, false, move |p| {
        let _ = tx.send(p);
    })
    .unwrap();
    let store = SidecarStore::new(dir.path().join("sessions"));
    let runs = 300;
    let mut sidecar_times = Vec::new();
    let mut state_times = Vec::new();
    let mut rows_times = Vec::new();
    for i in 0..runs {
        let s = &sidecars[i % sidecars.len()];
        let state_write = i % 2 == 1;
        if state_write {
            // Maestro writes its state atomically: temp file, then rename.
            let path = s.cwd.join("docs/maestro/state/active-session.md");
            let tmp = path.with_extension("tmp");
            std::fs::write(
                &tmp,
                common::STATE.replace(
                    "Add a token-bucket",
                    &format!("Step {i}: add a token-bucket"),
                ),
            )
            .unwrap();
            std::fs::rename(&tmp, &path).unwrap();
        } else {
            store
                .update(s.id, Duration::from_secs(1), |s| {
                    s.activity_detail = Some(format!("step {i}"));
                    true
                })
                .unwrap();
        }
        // The clock starts when the write is complete (its fsync is the writer's cost).
        let start = Instant::now();
        common::apply_until_rows_change(&mut engine, &rx);
        let applied = start.elapsed();
        let _ = engine.rows(Utc::now());
        let t = start.elapsed();
        rows_times.push(t - applied);
        if state_write {
            state_times.push(t);
        } else {
            sidecar_times.push(t);
        }
        // Let the write's trailing events (the temp file's) drain.
        common::drain(&mut engine, &rx);
    }
    rows_times.sort();
    rows.push(format!(
        "| of which rebuilding 1,000 rows | p50 {:.2} ms, p99 {:.2} ms | |",
        common::pct(&rows_times, 0.5),
        common::pct(&rows_times, 0.99)
    ));
    for (what, mut t) in [
        ("sidecar", sidecar_times),
        ("Maestro state file", state_times),
    ] {
        t.sort();
        rows.push(format!(
            "| {what} written -> catalog updated + rows rebuilt, 1,000 sessions | p50 {:.2} ms, p99 {:.2} ms | p50 ≤ 15 ms, p99 ≤ 50 ms (to the frame) |",
            common::pct(&t, 0.5),
            common::pct(&t, 0.99)
        ));
    }
}

/// The one `list-panes -a` per poll, with every pane running an agent
/// greenroom did not start: half a program named `claude` (known by
/// name), half a program tmux calls `node` (its processes' argv are read
/// once, when the pane first appears). Discovery must add no tmux call.
fn tmux_calls(rows: &mut Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let server = common::tmux::Server::new("catalog");
    let socket = server.socket.clone();
    let real = |args: &[&str]| server.run(args);
    let bin = common::counting_tmux(dir.path());
    let claude = dir.path().join("claude");
    std::fs::copy("/bin/sleep", &claude).unwrap();
    let claude = claude.to_string_lossy().into_owned();
    let mut config = common::config(dir.path(), &socket);
    config.tmux_socket = TmuxSocket::Name(socket.clone());
    let mut catalog = Catalog::load(&config, false);
    let mut started = 0;
    for n in [1usize, 100, 1000] {
        while started < n {
            let name = format!("gr-agent-{started}");
            if started % 2 == 0 {
                real(&["new-session", "-d", "-s", &name, &claude, "3600"]);
            } else {
                real(&[
                    "new-session",
                    "-d",
                    "-s",
                    &name,
                    "bash",
                    "-c",
                    "exec -a node sleep 3600",
                ]);
            }
            started += 1;
        }
        let tmux = Tmux::with_program(TmuxSocket::Name(socket.clone()), bin.join("tmux"));
        let count = dir.path().join("count");
        let _ = std::fs::remove_file(&count);
        let polls = 10;
        let mut times = Vec::new();
        let mut discover = Vec::new();
        let mut adopted = 0;
        for _ in 0..polls {
            let start = Instant::now();
            let state = tmux.poll();
            times.push(start.elapsed());
            let ServerState::Running(server) = &state else {
                panic!("no server")
            };
            assert_eq!(server.len(), n);
            assert_eq!(server.panes().len(), n);
            let start = Instant::now();
            catalog.set_tmux(state);
            let rows = catalog.rows(Utc::now());
            discover.push(start.elapsed());
            adopted = rows.iter().filter(|r| r.adopted.is_some()).count();
        }
        assert_eq!(adopted, n.div_ceil(2), "every `claude` pane is a row");
        let calls = common::lines(&count).len();
        times.sort();
        let first = discover[0];
        discover.sort();
        rows.push(format!(
            "| tmux processes per poll, {n} panes running agents | {} (poll {:.1} ms median; discovery + rows: first poll {:.1} ms, then {:.2} ms median) | 1 |",
            calls as f64 / polls as f64,
            common::pct(&times, 0.5),
            first.as_secs_f64() * 1e3,
            common::pct(&discover, 0.5),
        ));
    }
}

fn memory(rows: &mut Vec<String>) {
    for n in [1000usize, 10_000] {
        let dir = tempfile::tempdir().unwrap();
        common::populate(dir.path(), n);
        let config = common::config(dir.path(), "greenroom-bench-none");
        let before = common::rss_kib("self");
        let catalog = Catalog::load(&config, false);
        let rows_built = catalog.rows(Utc::now());
        let after = common::rss_kib("self");
        assert_eq!(rows_built.len(), n);
        rows.push(format!(
            "| catalog memory (files + rows), {n} sessions | {:.1} MiB | ≤ 60 MB resident at 1,000 (whole app) |",
            after.saturating_sub(before) as f64 / 1024.0
        ));
        drop(rows_built);
        drop(catalog);
    }
}

fn main() {
    let mut rows = Vec::new();
    memory(&mut rows);
    file_to_catalog(&mut rows);
    tmux_calls(&mut rows);
    println!("| measure | measured | budget |");
    println!("|---|---|---|");
    for r in rows {
        println!("{r}");
    }
}
