//! What the benchmarks share: a world of sessions with Maestro workspaces
//! in a temp folder, a config pointing at it, and measuring helpers.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)] // a bench that cannot run should stop loudly

pub mod proc;
pub mod pty;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use chrono::Utc;
use greenroom::config::{Config, Environ, Overrides};
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
    let out = Command::new("sh")
        .args(["-c", "command -v tmux"])
        .output()
        .unwrap();
    let real = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let count = dir.join("count");
    let script = format!(
        "#!/bin/sh\necho x >> '{}'\nexec '{real}' \"$@\"\n",
        count.display()
    );
    std::fs::write(bin.join("tmux"), script).unwrap();
    std::fs::set_permissions(bin.join("tmux"), std::fs::Permissions::from_mode(0o755)).unwrap();
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
