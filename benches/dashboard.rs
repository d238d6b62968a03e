//! The dashboard's budgets, in process with the real engine and
//! views drawn into a 160x48 test terminal:
//! - start-up to first full frame at 1,000 and 10,000 sessions with Maestro state;
//! - key press -> frame at 1,000 sessions;
//! - a sidecar written -> the frame that shows it, at 1,000 sessions;
//!
//! and with the real binary running in tmux over 1,000 live sessions:
//! - idle CPU over 30 s, tmux processes per poll, resident memory.
//!
//! Run: `cargo bench --bench dashboard` (or `benches/run`). GREENROOM_BENCH_QUICK=1
//! shortens the idle window to 5 s; GREENROOM_BENCH_STARTUP=1 measures the
//! start-up rows alone.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a bench that cannot run should stop loudly

mod common;

use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use chrono::Utc;
use greenroom::engine::Engine;
use greenroom::sources::sidecar::SidecarStore;
use greenroom::tui::action::{Action, Command as Cmd};
use greenroom::tui::keymap::Keymap;
use greenroom::tui::model::state::AppState;
use greenroom::tui::reduce::update::update;
use greenroom::tui::view::{render, theme::Theme};
use ratatui::{Terminal, backend::TestBackend};

struct Ui {
    terminal: Terminal<TestBackend>,
    keymap: Keymap,
    theme: Theme,
}

impl Ui {
    fn new() -> Self {
        Ui {
            terminal: Terminal::new(TestBackend::new(160, 48)).unwrap(),
            keymap: Keymap::default(),
            theme: Theme::dark(),
        }
    }

    fn draw(&mut self, state: &AppState) {
        let (k, t) = (&self.keymap, &self.theme);
        self.terminal.draw(|f| render(f, state, k, t)).unwrap();
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn startup(n: usize, rows: &mut Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    common::populate(dir.path(), n);
    let config = common::config(dir.path(), "greenroom-bench-none");
    let runs = if n > 1000 { 3 } else { 7 };
    let mut times = Vec::new();
    let mut watch_times = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        // As the dashboard starts: load, recover, first frame; watches are
        // armed after it. No tmux server answers: the first run is a start
        // after a reboot, where every session turns dormant and recovery's
        // writes follow the frame, off the loop (done untimed below).
        let mut engine = Engine::load(&config, false, |_| {}).unwrap();
        let (_, statuses) = engine.recover_deferred();
        let mut state = AppState::new(Utc::now(), engine.looked_in());
        update(
            &mut state,
            Action::Rows {
                rows: engine.rows(Utc::now()),
                problems: engine.problems(),
            },
        );
        let mut ui = Ui::new();
        ui.draw(&state);
        times.push(start.elapsed());
        let armed = Instant::now();
        engine.watch();
        watch_times.push(armed.elapsed());
        greenroom::engine::write_statuses(engine.store(), &statuses);
    }
    let after_reboot = times[0];
    times.sort();
    watch_times.sort();
    let budget = if n > 1000 { "≤ 1 s" } else { "≤ 150 ms" };
    rows.push(format!(
        "| start-up to first full frame, {n} sessions with Maestro state | {:.0} ms (median of {runs}) | {budget} |",
        ms(times[runs / 2])
    ));
    rows.push(format!(
        "| of which the first, after a reboot (no tmux server: every session turns dormant, its status written after the frame) | {:.0} ms | {budget} |",
        ms(after_reboot)
    ));
    rows.push(format!(
        "| then arming the file watches, {n} sessions (keys wait meanwhile) | {:.0} ms | |",
        ms(watch_times[runs / 2])
    ));
}

fn key_and_file_to_frame(rows: &mut Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let sidecars = common::populate(dir.path(), 1000);
    let config = common::config(dir.path(), "greenroom-bench-none");
    let (tx, rx) = channel();
    let mut engine = Engine::start(&config, false, move |p| {
        let _ = tx.send(p);
    })
    .unwrap();
    let mut state = AppState::new(Utc::now(), engine.looked_in());
    update(
        &mut state,
        Action::Rows {
            rows: engine.rows(Utc::now()),
            problems: vec![],
        },
    );
    update(
        &mut state,
        Action::Resize {
            width: 160,
            height: 48,
        },
    );
    let mut ui = Ui::new();
    ui.draw(&state);

    let mut keys = Vec::new();
    for i in 0..500 {
        let c = if i % 100 < 50 { Cmd::Down } else { Cmd::Up };
        let start = Instant::now();
        update(&mut state, Action::Command(c));
        ui.draw(&state);
        keys.push(start.elapsed());
    }
    keys.sort();
    rows.push(format!(
        "| key press -> frame, 1000 sessions | p50 {:.2} ms, p99 {:.2} ms | ≤ 5 ms of work |",
        ms(keys[keys.len() / 2]),
        ms(keys[keys.len() * 99 / 100])
    ));

    let store = SidecarStore::new(dir.path().join("sessions"));
    let mut frames = Vec::new();
    for i in 0..200 {
        let s = &sidecars[(i * 7) % sidecars.len()];
        store
            .update(s.id, Duration::from_secs(1), |s| {
                s.activity_detail = Some(format!("step {i}"));
                s.activity = Some(greenroom::model::Activity::Active);
                s.activity_reported_at = Some(Utc::now());
                true
            })
            .unwrap();
        let start = Instant::now();
        common::apply_until_rows_change(&mut engine, &rx);
        update(
            &mut state,
            Action::Rows {
                rows: engine.rows(Utc::now()),
                problems: vec![],
            },
        );
        ui.draw(&state);
        frames.push(start.elapsed());
        common::drain(&mut engine, &rx);
    }
    frames.sort();
    rows.push(format!(
        "| sidecar written -> frame that shows it, 1000 sessions | p50 {:.2} ms, p99 {:.2} ms | p50 ≤ 15 ms, p99 ≤ 50 ms |",
        ms(frames[frames.len() / 2]),
        ms(frames[frames.len() * 99 / 100])
    ));
}

fn idle_in_tmux(rows: &mut Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let tmux = common::tmux::Server::new("dash");
    common::populate(dir.path(), 1000);
    tmux.agents(1000);
    // A tmux on PATH that counts its starts, for the dashboard's polls.
    let bin = common::counting_tmux(dir.path());
    let count = dir.path().join("count");
    // Listening on any tmux: the bench measures the event path (on tmux
    // before 3.7 the default polls; the tmux_events bench measures that).
    std::fs::write(dir.path().join("config.toml"), "tmux_events = true\n").unwrap();
    let greenroom = env!("CARGO_BIN_EXE_greenroom");
    let command = format!(
        "PATH={}:$PATH exec {greenroom} --config {d}/config.toml --sidecar-dir {d}/sessions --ao-dir {d}/ao --claude-dir {d}/claude --tmux-socket {socket}",
        bin.display(),
        d = dir.path().display(),
        socket = tmux.socket,
    );
    let pid = tmux.dashboard(&command, "agent-0");
    // Let start-up settle, then measure a quiet window.
    std::thread::sleep(Duration::from_secs(3));
    let window = common::idle_window(30);
    let _ = std::fs::remove_file(&count);
    let cpu_before = common::proc::cpu_seconds(pid);
    std::thread::sleep(Duration::from_secs(window));
    let cpu = common::proc::cpu_seconds(pid) - cpu_before;
    let polls = common::lines(&count).len();
    let rss = common::rss_kib(&pid.to_string()) as f64 / 1024.0;
    drop(tmux);
    rows.push(format!(
        "| idle CPU over {window} s, 1000 live sessions (greenroom process) | {:.2}% of one core | ≤ 1% |",
        cpu / window as f64 * 100.0
    ));
    rows.push(format!(
        "| tmux processes started per poll, idle, 1000 sessions | {:.2} ({polls} in {window} s at 1 poll/s) | 1 |",
        polls as f64 / window as f64
    ));
    rows.push(format!(
        "| resident memory, 1000 sessions with Maestro state | {rss:.1} MiB | ≤ 60 MB |"
    ));
}

fn main() {
    let mut rows = Vec::new();
    startup(1000, &mut rows);
    startup(10_000, &mut rows);
    // GREENROOM_BENCH_STARTUP=1: the start-up rows alone (when tuning them).
    if std::env::var("GREENROOM_BENCH_STARTUP").is_err() {
        key_and_file_to_frame(&mut rows);
        idle_in_tmux(&mut rows);
    }
    println!("| measure | measured | budget |");
    println!("|---|---|---|");
    for r in rows {
        println!("{r}");
    }
}
