//! Maestro's own state server (the vendored 1.4.0 release, driven over
//! stdio) writes a phase transition -> greenroom's catalog has it and the
//! frame that shows it is drawn (160x48 test terminal), with 1,000 other
//! sessions in the catalog. The clock starts at the first file event of the
//! write (when the kernel tells greenroom) and stops when the frame is drawn.
//!
//! Needs node and ../shared beside the clone; without them it says so.
//! Run: `cargo bench --bench maestro_transition` (or `benches/run`).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a bench that cannot run should stop loudly

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use chrono::Utc;
use greenroom::engine::{Change, Engine, NewRows};
use greenroom::model::PhaseId;
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use greenroom::tui::action::Action;
use greenroom::tui::keymap::Keymap;
use greenroom::tui::model::state::AppState;
use greenroom::tui::reduce::update::update;
use greenroom::tui::view::{render, theme::Theme};
use ratatui::{Terminal, backend::TestBackend};
use serde_json::json;

#[path = "../tests/interop/support.rs"]
mod support;

// The interop suite's driver of Maestro's server; the bench uses part of it.
#[allow(dead_code)]
#[path = "../tests/interop/maestro/server.rs"]
mod server;

/// A realistic orchestration: eight phases, seven transitions, then archived.
const PHASES: i64 = 8;
const RUNS: usize = 25;
const BUDGET: &str = "p50 ≤ 5 ms, p99 ≤ 20 ms";

fn available() -> bool {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/vendor");
    let node = Command::new("node").arg("--version").output();
    shared.is_dir() && node.is_ok_and(|o| o.status.success())
}

fn main() {
    let what = "Maestro's own server writes a transition -> frame drawn, 1,000 sessions";
    if !available() {
        println!("| {what} | not measured: needs node and ../shared | {BUDGET} |");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    common::populate(dir.path(), 1000);
    let config = common::config(dir.path(), "greenroom-bench-none");
    let ws: PathBuf = dir.path().join("ws/maestro");
    std::fs::create_dir_all(&ws).unwrap();
    let store = SidecarStore::new(dir.path().join("sessions"));
    let s = Sidecar::new("orchestrated", &ws, "gemini", Utc::now());
    store.create(&s).unwrap();
    let id = s.id.to_string();

    let (tx, rx) = channel();
    let mut engine = Engine::start(&config, false, move |p| {
        let _ = tx.send(p);
    })
    .unwrap();
    let mut state = AppState::new(Utc::now(), engine.looked_in());
    let mut terminal = Terminal::new(TestBackend::new(160, 48)).unwrap();
    let (keymap, theme) = (Keymap::default(), Theme::dark());

    let mut server = server::MaestroServer::start(&ws);
    server.call("initialize_workspace", json!({}));
    let phases: Vec<_> = (1..=PHASES)
        .map(|i| json!({"id": i, "name": format!("Phase {i}"), "agent": "coder"}))
        .collect();
    let shows = |rows: &[greenroom::model::Session], run: usize, phase: i64| {
        rows.iter().any(|r| {
            r.id == id
                && r.orchestration.as_ref().is_some_and(|o| {
                    o.session_id.as_deref() == Some(&format!("bench-{run}"))
                        && o.current_phase == Some(PhaseId::Number(phase))
                })
        })
    };
    // What the dashboard's loop does with a batch of file events. Whether
    // the rows changed, and whether only some came back.
    let apply = |engine: &mut Engine, state: &mut AppState, batch: Vec<Change>| {
        let (action, some) = match engine.apply_changes_rows(batch, Utc::now()) {
            Some(NewRows::All(rows)) => {
                let problems = engine.problems();
                (Action::Rows { rows, problems }, false)
            }
            Some(NewRows::Changed(rows)) => (Action::RowsChanged(rows), true),
            None => return None,
        };
        update(state, action);
        Some(some)
    };
    let settle = |engine: &mut Engine, state: &mut AppState| {
        while let Ok(p) = rx.recv_timeout(Duration::from_millis(50)) {
            apply(engine, state, vec![p]);
        }
    };
    let mut times = Vec::new();
    // Of each figure: waiting for the writer to finish its write (its temp
    // file appears first), and drawing the frame.
    let (mut waits, mut draws) = (Vec::new(), Vec::new());
    // How many transitions came back as their session's row alone.
    let mut alone = 0;
    std::thread::scope(|scope| {
        // The server runs its calls on its own thread, as Gemini CLI would;
        // `Some(phase)` completes it and starts the next, `None` archives
        // and starts the next orchestration.
        let (go, calls) = channel::<(usize, Option<i64>)>();
        let (done, finished) = channel::<()>();
        scope.spawn(move || {
            for (run, call) in calls {
                let session = format!("bench-{run}");
                match call {
                    Some(phase) => server.call(
                        "transition_phase",
                        json!({"session_id": session, "completed_phase_id": phase,
                               "next_phase_id": phase + 1,
                               "token_usage": {"input": 100, "output": 10, "cached": 1}}),
                    ),
                    None => {
                        if run > 0 {
                            let last = format!("bench-{}", run - 1);
                            server.call("archive_session", json!({"session_id": last}));
                        }
                        server.call(
                            "create_session",
                            json!({"session_id": session, "task": "bench", "phases": phases}),
                        )
                    }
                };
                done.send(()).unwrap();
            }
        });
        for run in 0..RUNS {
            go.send((run, None)).unwrap();
            finished.recv().unwrap();
            settle(&mut engine, &mut state);
            assert!(shows(&state.list.rows, run, 1), "orchestration {run} shows");
            for phase in 1..PHASES {
                go.send((run, Some(phase))).unwrap();
                let first = rx.recv_timeout(Duration::from_secs(10)).expect("an event");
                let start = Instant::now();
                let mut batch = vec![first];
                let mut waited = Duration::ZERO;
                let mut drawing;
                loop {
                    batch.extend(rx.try_iter());
                    drawing = Instant::now();
                    let applied = apply(&mut engine, &mut state, std::mem::take(&mut batch));
                    if let Some(some) = applied
                        && shows(&state.list.rows, run, phase + 1)
                    {
                        alone += usize::from(some);
                        break;
                    }
                    let idle = Instant::now();
                    batch.push(rx.recv_timeout(Duration::from_secs(10)).expect("the write"));
                    waited += idle.elapsed();
                }
                waits.push(waited);
                terminal
                    .draw(|f| render(f, &state, &keymap, &theme))
                    .unwrap();
                draws.push(drawing.elapsed());
                times.push(start.elapsed());
                finished.recv().unwrap();
                settle(&mut engine, &mut state);
            }
        }
    });
    waits.sort();
    draws.sort();
    println!(
        "| of which waiting for the writer's rename after its temp file | p50 {:.2} ms, p99 {:.2} ms | |",
        common::pct(&waits, 0.5),
        common::pct(&waits, 0.99)
    );
    println!(
        "| of which the rows (the transition's session's row alone in {alone} of {}) and drawing the frame | p50 {:.2} ms, p99 {:.2} ms | |",
        draws.len(),
        common::pct(&draws, 0.5),
        common::pct(&draws, 0.99)
    );
    times.sort();
    println!(
        "| {what} (n={}) | p50 {:.2} ms, p99 {:.2} ms | {BUDGET} |",
        times.len(),
        common::pct(&times, 0.5),
        common::pct(&times, 0.99)
    );
}
