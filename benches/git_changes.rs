//! Issue 17's budgets for what git says about each session's work tree:
//! - 100 sessions in git work trees, nothing changing: no git process
//!   runs, and idle CPU stays as it was (the real dashboard in tmux, with a
//!   `git` on PATH that counts its starts);
//! - a file saved in a session's work tree -> its counts on screen (p50),
//!   in process: the engine, the reducer's rows and a 160x48 frame.
//!
//! Run: `cargo bench --bench git_changes` (or `benches/run`).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a bench that cannot run should stop loudly

mod common;

use std::path::Path;
use std::process::Command;
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use chrono::Utc;
use greenroom::engine::Engine;
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use greenroom::tui::keymap::Keymap;
use greenroom::tui::model::state::AppState;
use greenroom::tui::view::{Theme, render};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const SESSIONS: usize = 100;

fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.email=b@b",
            "-c",
            "user.name=b",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .output()
        .unwrap()
        .status
        .success();
    assert!(ok, "git {args:?}");
}

/// `n` sessions, each in its own small repository (20 committed files).
fn populate(root: &Path, n: usize) -> Vec<Sidecar> {
    let store = SidecarStore::new(root.join("sessions"));
    (0..n)
        .map(|i| {
            let ws = root.join("ws").join(format!("w{i}"));
            std::fs::create_dir_all(ws.join("src")).unwrap();
            for f in 0..20 {
                std::fs::write(ws.join(format!("src/f{f}.rs")), "fn f() {}\n").unwrap();
            }
            git(&ws, &["init", "-q"]);
            git(&ws, &["add", "-A"]);
            git(&ws, &["commit", "-q", "-m", "init"]);
            let mut s = Sidecar::new(&format!("agent-{i}"), &ws, "sleep 3600", Utc::now());
            s.tmux_session = Some(format!("gr-agent-{i}"));
            s.last_focused_at = Some(Utc::now() - chrono::Duration::seconds(i as i64));
            store.create(&s).unwrap();
            s
        })
        .collect()
}

fn idle(rows: &mut Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let tmux = common::tmux::Server::new("git");
    populate(dir.path(), SESSIONS);
    tmux.agents(SESSIONS);
    let counted = dir.path().join("git-count");
    let bin = common::counting(dir.path(), "git", &counted);
    std::fs::write(dir.path().join("config.toml"), "").unwrap();
    let greenroom = env!("CARGO_BIN_EXE_greenroom");
    let command = format!(
        "PATH={}:$PATH exec {greenroom} --config {d}/config.toml --sidecar-dir {d}/sessions --ao-dir {d}/ao --claude-dir {d}/claude --tmux-socket {socket}",
        bin.display(),
        d = dir.path().display(),
        socket = tmux.socket,
    );
    let pid = tmux.dashboard(&command, "agent-0");
    let deadline = Instant::now() + Duration::from_secs(60);
    // Every work tree is read once at start-up; then nothing changes.
    let mut last = (0, Instant::now());
    loop {
        let n = common::lines(&counted).len();
        if n != last.0 {
            last = (n, Instant::now());
        }
        if n > 0 && last.1.elapsed() > Duration::from_secs(3) {
            break;
        }
        assert!(Instant::now() < deadline, "the dashboard did not settle");
        std::thread::sleep(Duration::from_millis(100));
    }
    let startup_git = last.0;
    let window = common::idle_window(30);
    let before = common::lines(&counted).len();
    let cpu_before = common::proc::cpu_seconds(pid);
    std::thread::sleep(Duration::from_secs(window));
    let cpu = common::proc::cpu_seconds(pid) - cpu_before;
    let during = common::lines(&counted).len() - before;
    drop(tmux);
    rows.push(format!(
        "| git processes over {window} s idle, {SESSIONS} live sessions in git work trees | {during} (start-up read every tree once: {startup_git} processes) | 0 |"
    ));
    rows.push(format!(
        "| idle CPU over {window} s, {SESSIONS} live sessions in git work trees (greenroom process) | {:.2}% of one core | unchanged (≤ 1%) |",
        cpu / window as f64 * 100.0
    ));
}

fn save_to_screen(rows: &mut Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let sessions = populate(dir.path(), SESSIONS);
    let config = common::config(dir.path(), "greenroom-bench-none");
    let (tx, rx) = channel();
    let mut engine = Engine::start(&config, false, move |p| {
        let _ = tx.send(p);
    })
    .unwrap();
    let drain = |engine: &mut Engine, wait: Duration| -> bool {
        match rx.recv_timeout(wait) {
            Ok(first) => {
                let mut batch = vec![first];
                batch.extend(rx.try_iter());
                engine.apply_changes(batch)
            }
            Err(_) => false,
        }
    };
    let settled = Instant::now() + Duration::from_secs(60);
    while engine.rows(Utc::now()).iter().any(|r| r.changes.is_none()) {
        drain(&mut engine, Duration::from_millis(100));
        assert!(Instant::now() < settled, "the work trees were not all read");
    }
    let mut state = AppState::new(Utc::now(), Vec::new());
    state.list.rows = engine.rows(Utc::now());
    state.refresh_visible();
    let mut terminal = Terminal::new(TestBackend::new(160, 48)).unwrap();
    let (keymap, theme) = (Keymap::default(), Theme::dark());
    let runs = if common::quick() { 8 } else { 40 };
    let mut times = Vec::new();
    // Saves come 0.5 to 3 s apart (a fixed pseudo-random sequence): a save
    // within 1 s of the tree's last read waits for the rest of that second.
    let mut seed: u64 = 17;
    for i in 0..runs {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let gap = Duration::from_millis(500 + (seed >> 33) % 2500);
        let until = Instant::now() + gap;
        while Instant::now() < until {
            drain(&mut engine, until.saturating_duration_since(Instant::now()));
        }
        let s = &sessions[i % 3];
        std::fs::write(s.cwd.join(format!("src/new{i}.rs")), "fn new() {}\n").unwrap();
        let start = Instant::now();
        let want = i / 3 + 1;
        loop {
            if drain(&mut engine, Duration::from_secs(5)) {
                state.list.rows = engine.rows(Utc::now());
                state.refresh_visible();
                let shown = state
                    .list
                    .rows
                    .iter()
                    .find(|r| r.id == s.id.to_string())
                    .and_then(|r| r.changes.as_ref())
                    .is_some_and(|c| c.new_files() == want);
                if shown {
                    terminal
                        .draw(|f| render(f, &state, &keymap, &theme))
                        .unwrap();
                    break;
                }
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "save {i} never shown"
            );
        }
        times.push(start.elapsed());
    }
    times.sort();
    rows.push(format!(
        "| file saved in a session's work tree (a top-level subfolder) -> its counts on screen, {SESSIONS} sessions in git work trees, saves 0.5–3 s apart to 3 sessions in turn (n={runs}; a save within 1 s of its tree's last read would wait out that second) | p50 {:.1} ms, p99 {:.1} ms | p50 ≤ 300 ms |",
        common::pct(&times, 0.5),
        common::pct(&times, 0.99)
    ));
}

/// One read of a 10,000-file work tree (100 folders of 100 files): with one
/// file changed, and with every file changed (the list capped, every file
/// counted).
fn big_tree(rows: &mut Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for d in 0..100 {
        std::fs::create_dir_all(root.join(format!("d{d}"))).unwrap();
        for f in 0..100 {
            std::fs::write(root.join(format!("d{d}/f{f}.txt")), "line\n").unwrap();
        }
    }
    git(root, &["init", "-q"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "10k"]);
    let repo = greenroom::git::discover(root).unwrap();
    let g = greenroom::git::Git::new();
    let median = |n: usize| {
        let mut t: Vec<Duration> = (0..n)
            .map(|_| {
                let start = Instant::now();
                let _ = greenroom::git::read_changes(&g, &repo);
                start.elapsed()
            })
            .collect();
        t.sort();
        common::pct(&t, 0.5)
    };
    std::fs::write(root.join("d0/f0.txt"), "line\nmore\n").unwrap();
    let one = median(7);
    for d in 0..100 {
        for f in 0..100 {
            std::fs::write(root.join(format!("d{d}/f{f}.txt")), "line\nmore\n").unwrap();
        }
    }
    let all = median(3);
    rows.push(format!(
        "| one read of a 10,000-file work tree (status + numstat staged and unstaged), 1 file changed / all 10,000 changed | {one:.1} ms / {all:.0} ms (medians) | fast (off the loop, ≤ 1/s per tree) |"
    ));
}

fn main() {
    let mut rows = Vec::new();
    big_tree(&mut rows);
    save_to_screen(&mut rows);
    idle(&mut rows);
    println!("| measure | measured | budget |");
    println!("|---|---|---|");
    for r in rows {
        println!("{r}");
    }
}
