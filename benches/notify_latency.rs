//! Notifications, with the real binary running in tmux over 12 live
//! sessions and `[notify] command` set to a program that appends the time
//! it started:
//! - a session turning waiting (its hook's report written to its sidecar)
//!   -> the notify program started (budget: p50 ≤ 50 ms);
//! - idle CPU with notifications on (they add no timer: held notices are
//!   sent from the clock tick the dashboard has anyway).
//!
//! Each session turns once, 5.5 s apart: the overall rate limit (5 s)
//! would otherwise hold a turn back on purpose.
//!
//! Run: `cargo bench --bench notify_latency` (or `benches/run`).
//! GREENROOM_BENCH_QUICK=1 measures 5 turns.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a bench that cannot run should stop loudly

mod common;

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use chrono::Utc;
use greenroom::sources::sidecar::SidecarStore;

const SESSIONS: usize = 12;

fn epoch_ns() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

fn main() {
    let quick = common::quick();
    let dir = tempfile::tempdir().unwrap();
    let tmux = common::tmux::Server::new("notify");
    let sidecars = common::populate(dir.path(), SESSIONS);
    tmux.agents(SESSIONS);
    let started = dir.path().join("started");
    std::fs::write(
        dir.path().join("config.toml"),
        format!(
            "[notify]\nbell = false\ncommand = [\"sh\", \"-c\", 'date +%s%N >> \"$0\"', '{}']\n",
            started.display()
        ),
    )
    .unwrap();
    let command = format!(
        "exec {} --config {d}/config.toml --sidecar-dir {d}/sessions --ao-dir {d}/ao --claude-dir {d}/claude --tmux-socket {socket}",
        env!("CARGO_BIN_EXE_greenroom"),
        d = dir.path().display(),
        socket = tmux.socket,
    );
    let pid = tmux.dashboard(&command, "agent-0");
    // Let start-up settle, then measure a quiet window with notifications on.
    std::thread::sleep(Duration::from_secs(3));
    let window = if quick { 5 } else { 10 };
    let cpu_before = common::proc::cpu_seconds(pid);
    std::thread::sleep(Duration::from_secs(window));
    let idle = (common::proc::cpu_seconds(pid) - cpu_before) / window as f64 * 100.0;

    let store = SidecarStore::new(dir.path().join("sessions"));
    let turns = if quick { 5 } else { SESSIONS };
    let mut times = Vec::new();
    for (i, s) in sidecars.iter().take(turns).enumerate() {
        let before = epoch_ns();
        store
            .update(s.id, Duration::from_secs(1), |s| {
                s.activity = Some(greenroom::model::Activity::AwaitingInput);
                s.activity_detail = Some("Claude needs your permission to use Bash".into());
                s.activity_reported_at = Some(Utc::now());
                s.activity_since = Some(Utc::now());
                true
            })
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        let at: u128 = loop {
            if let Some(line) = common::lines(&started).get(i) {
                break line.trim().parse().unwrap();
            }
            assert!(Instant::now() < deadline, "no notify program for turn {i}");
            std::thread::sleep(Duration::from_millis(1));
        };
        times.push(Duration::from_nanos((at.saturating_sub(before)) as u64));
        // Past the overall gap before the next session turns.
        std::thread::sleep(Duration::from_millis(5500));
    }
    drop(tmux);
    times.sort();
    println!("| measure | measured | budget |");
    println!("|---|---|---|");
    println!(
        "| session turns waiting (hook report written) -> notify program started, {SESSIONS} live sessions | p50 {:.1} ms, max {:.1} ms ({turns} turns) | p50 ≤ 50 ms |",
        common::pct(&times, 0.5),
        common::pct(&times, 1.0)
    );
    println!(
        "| idle CPU over {window} s with notifications on, {SESSIONS} live sessions (greenroom process) | {idle:.2}% of one core | no more than without |"
    );
}
