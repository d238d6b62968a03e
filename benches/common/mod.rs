//! What the benchmarks share: a world of sessions with Maestro workspaces
//! in a temp folder, a config pointing at it, and measuring helpers.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)] // a bench that cannot run should stop loudly

pub mod proc;
pub mod pty;
pub mod tmux;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc::Receiver;
use std::time::Duration;

use chrono::Utc;
use greenroom::config::{Config, Environ, Overrides};
use greenroom::engine::{Change, Engine};
use greenroom::sources::sidecar::{Sidecar, SidecarStore};

pub const STATE: &str = include_str!("../../assets/example/docs/maestro/state/active-session.md");

/// `n` sessions, each with its own workspace holding a Maestro state file,
/// focused one second apart; tmux sessions `gr-agent-<i>`.
pub fn populate(root: &Path, n: usize) -> Vec<Sidecar> {
    let store = SidecarStore::new(root.join("sessions"));
    (0..n)
        .map(|i| {
            let ws = root.join("ws").join(format!("w{i}"));
            let state = ws.join("docs/maestro/state");
            std::fs::create_dir_all(&state).unwrap();
            std::fs::write(state.join("active-session.md"), STATE).unwrap();
            let mut s = Sidecar::new(&format!("agent-{i}"), &ws, "sleep 3600", Utc::now());
            s.tmux_session = Some(format!("gr-agent-{i}"));
            s.last_focused_at = Some(Utc::now() - chrono::Duration::seconds(i as i64));
            store.create(&s).unwrap();
            s
        })
        .collect()
}

/// A config on the world's folders (an empty user config file) and a tmux socket name.
pub fn config(root: &Path, socket: &str) -> Config {
    std::fs::write(root.join("config.toml"), "").unwrap();
    let o = Overrides {
        config: Some(root.join("config.toml")),
        sidecar_dir: Some(root.join("sessions")),
        ao_dir: Some(root.join("ao")),
        claude_dir: Some(root.join("claude")),
        tmux_socket: Some(socket.into()),
        ..Overrides::default()
    };
    let mut c = Config::load(&o, &Environ::from_process()).unwrap();
    c.maestro_hooks_dir = root.join("hooks");
    c.maestro_hooks_legacy = None;
    c
}

/// Whether GREENROOM_BENCH_QUICK asks for a short run.
pub fn quick() -> bool {
    std::env::var("GREENROOM_BENCH_QUICK").is_ok()
}

/// How long an idle window is watched: `full` seconds, 5 on a quick run.
pub fn idle_window(full: u64) -> u64 {
    if quick() { 5 } else { full }
}

/// The lines of a file a counting program appends to; none when it is not
/// there yet.
pub fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Applies the engine's changes as they come (each within 5 s) until a
/// batch changes the rows.
pub fn apply_until_rows_change(engine: &mut Engine, rx: &Receiver<Change>) {
    loop {
        let first = rx.recv_timeout(Duration::from_secs(5)).expect("an event");
        let mut batch = vec![first];
        batch.extend(rx.try_iter());
        if engine.apply_changes(batch) {
            break;
        }
    }
}

/// Applies a write's trailing changes (a temp file's events), until none
/// comes for 2 ms.
pub fn drain(engine: &mut Engine, rx: &Receiver<Change>) {
    while let Ok(p) = rx.recv_timeout(Duration::from_millis(2)) {
        engine.apply_changes(vec![p]);
    }
}

/// The `p` quantile of sorted durations, in milliseconds.
pub fn pct(sorted: &[Duration], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize].as_secs_f64() * 1e3
}

/// Resident memory of a process (`self` for this one), in KiB.
pub fn rss_kib(pid: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// A `tmux` in `<dir>/bin` that counts its starts in `<dir>/count`, then
/// runs the real one. Returns the folder to put first on PATH.
pub fn counting_tmux(dir: &Path) -> PathBuf {
    counting(dir, "tmux", &dir.join("count"))
}

/// A `program` in `<dir>/bin` that counts its starts in `count` (a line
/// each), then runs the real one. Returns the folder to put first on PATH.
pub fn counting(dir: &Path, program: &str, count: &Path) -> PathBuf {
    let out = Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .unwrap();
    let real = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let script = format!(
        "#!/bin/sh\necho x >> '{}'\nexec '{real}' \"$@\"\n",
        count.display()
    );
    std::fs::write(bin.join(program), script).unwrap();
    std::fs::set_permissions(bin.join(program), std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

/// Kills a bench's tmux server (`kill`) and removes the socket file tmux
/// leaves behind; `socket_path` is what `display-message -p '#{socket_path}'` printed.
pub fn stop_server(socket_path: &[u8], kill: impl FnOnce()) {
    let path = String::from_utf8_lossy(socket_path).trim().to_owned();
    kill();
    if path.starts_with('/') {
        let _ = std::fs::remove_file(path);
    }
}
