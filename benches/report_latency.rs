//! `greenroom report`: process start -> sidecar updated (budget: median
//! ≤ 5 ms). Spawns the release binary with a real hook payload on stdin and
//! times until it exits, which is after the sidecar's atomic rename.
//!
//! Run: `cargo bench --bench report_latency` (or `benches/run`).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use chrono::Utc;
use greenroom::sources::sidecar::{Sidecar, SidecarStore};

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() -> std::io::Result<()> {
    let bin = env!("CARGO_BIN_EXE_greenroom");
    let dir = tempfile::tempdir()?;
    let store = SidecarStore::new(dir.path().join("sessions"));
    let s = Sidecar::new("bench", Path::new("/tmp"), "claude", Utc::now());
    store.create(&s).map_err(std::io::Error::other)?;
    let payloads = [
        r#"{"session_id":"8b7f","transcript_path":"/t/8b7f.jsonl","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash"}"#,
        r#"{"session_id":"8b7f","transcript_path":"/t/8b7f.jsonl","cwd":"/tmp","hook_event_name":"Stop"}"#,
    ];
    let runs = 300;
    let mut times = Vec::with_capacity(runs);
    for i in 0..runs {
        let start = Instant::now();
        let mut child = Command::new(bin)
            .arg("report")
            .env("GREENROOM_SESSION_ID", s.id.to_string())
            .env("GREENROOM_SIDECAR_DIR", store.dir())
            .env("GREENROOM_LOG", dir.path().join("log"))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin.write_all(payloads[i % 2].as_bytes())?;
        }
        child.wait()?;
        times.push(start.elapsed());
    }
    let after = store.read(s.id).map_err(std::io::Error::other)?;
    assert!(after.activity_reported_at.is_some(), "reports did not land");
    times.sort();
    println!("| measure | measured | budget |");
    println!("|---|---|---|");
    println!(
        "| greenroom report: process start -> sidecar updated | median {:.2} ms, p99 {:.2} ms ({runs} runs) | median ≤ 5 ms |",
        percentile(&times, 0.5).as_secs_f64() * 1e3,
        percentile(&times, 0.99).as_secs_f64() * 1e3
    );
    Ok(())
}
