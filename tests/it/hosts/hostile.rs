//! Hostile hosts against the dashboard, each a real sshd on loopback whose
//! `greenroom` is a program of the attacker's: an endless stream of
//! `changed` lines must cost the local dashboard a bounded amount of
//! memory.

use std::time::{Duration, Instant};

use crate::support::actions::stub;
use crate::support::sshd::{Host, sshd_or_skip};
use crate::support::{Pane, TmuxServer, World};

/// The dashboard on `local`, in tmux session `dash`; its process id.
fn dashboard<'a>(local: &World, tmux: &'a TmuxServer) -> (Pane<'a>, u32) {
    let pane = crate::hosts::dashboard::dashboard(local, tmux);
    // `exec`: the pane's process is the dashboard.
    let pid = tmux.run(&["display-message", "-p", "-t", "=dash:", "#{pane_pid}"]);
    (pane, pid.trim().parse().unwrap())
}

/// The resident memory of process `pid`, in MiB.
fn rss_mib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|kb| kb.parse::<u64>().ok())
        .map_or(0, |kb| kb / 1024)
}

/// A host that sends its snapshot, then `changed` lines as fast as it can
/// for 4,000 rows over and over (more work for the dashboard per line than
/// for ssh and the reader): the dashboard's memory stays under 200 MiB while
/// the host writes 300,000 of them (or for a minute), and the local rows
/// stay on screen.
#[test]
fn an_endless_stream_of_changed_lines_costs_bounded_memory() {
    if !sshd_or_skip() {
        return;
    }
    let local = World::new();
    let local_tmux = TmuxServer::new();
    local.running(&local_tmux, "here");
    let h = Host::start("flood", &local.path("keys"));
    let count = h.world.path("count");
    let flood = stub(
        &h.world.path("bin"),
        "greenroom",
        &format!(
            r#"echo '{{"type":"snapshot","greenroom":"0.1.0","protocol":1,"sessions":[],"problems":[]}}'
exec awk -v count='{count}' 'BEGIN {{
  for (i = 0; ; i++) {{
    printf "{{\"type\":\"changed\",\"session\":{{\"id\":\"row-%d\",\"name\":\"flood-%d\",\"status\":\"Running\",\"health\":\"idle\",\"cwd\":\"/w\"}}}}\n", i % 4000, i
    if (i % 1000 == 0) {{ print i > count; close(count) }}
  }}
}}'"#,
            count = count.display()
        ),
    );
    let mut entry = h.toml();
    entry.push_str(&format!("greenroom = {:?}\n", flood.display().to_string()));
    std::fs::write(local.path("config.toml"), entry).unwrap();
    let (dash, pid) = dashboard(&local, &local_tmux);
    dash.until(30, "the host's rows", |s| {
        s.contains("here") && s.contains("flood:flood-")
    });
    let written = || -> u64 {
        std::fs::read_to_string(&count)
            .ok()
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(0)
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut most = 0;
    while written() < 300_000 && Instant::now() < deadline {
        let rss = rss_mib(pid);
        most = most.max(rss);
        assert!(
            rss < 200,
            "the dashboard holds {rss} MiB after the host wrote {} lines",
            written()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    eprintln!(
        "the host wrote {} lines; the dashboard held at most {most} MiB",
        written()
    );
    assert!(written() > 1000, "the host's stream never flowed");
    let screen = dash.text();
    assert!(screen.contains("here"), "{screen}");
    dash.keys(&["q"]);
}
