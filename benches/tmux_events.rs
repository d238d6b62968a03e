//! Told, not polling: the dashboard at 1,000 live tmux sessions, run as a
//! user runs it (the release binary in a pseudo-terminal this benchmark
//! owns, through `script`), with tmux's control client and with polling
//! (`tmux_events = false`):
//! - idle CPU: greenroom (with the tmux clients it ran and reaped, and its
//!   live control client) plus the tmux server's extra work over its own idle;
//! - a session killed outside greenroom -> the header's count changes in the
//!   bytes greenroom writes;
//! - a sidecar written -> the new name in the bytes greenroom writes (the
//!   frame leaving greenroom, not a capture of it), timed from the
//!   writer's rename, when the new file is in place.
//!
//! `GREENROOM_BENCH_QUICK=1` shortens the idle window to 5 s.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a bench that cannot run should stop loudly

mod common;

use std::time::{Duration, Instant};

use common::pty::Dashboard;
use greenroom::sources::sidecar::SidecarStore;

const SESSIONS: usize = 1000;

/// The dashboard on the agents' server, with or without tmux events.
fn dashboard(dir: &std::path::Path, socket: &str, events: bool) -> Dashboard {
    let config = dir.join(format!("config-{events}.toml"));
    std::fs::write(&config, format!("tmux_events = {events}\n")).unwrap();
    let bin = env!("CARGO_BIN_EXE_greenroom");
    Dashboard::start(&format!(
        "stty cols 160 rows 48; exec {bin} --config {c} --sidecar-dir {d}/sessions --ao-dir {d}/ao --claude-dir {d}/claude --tmux-socket {socket}",
        c = config.display(),
        d = dir.display()
    ))
}

/// Renames a session as `SidecarStore::update` writes: the new record in a
/// temporary of the same folder, fsync, rename over the old one (then the
/// folder's fsync). Returns the instant the rename began: once it lands,
/// every reader sees the new file and the watcher's event is on its way.
/// The steps before (the lock, the temporary's write and fsync: 1 to 10 ms
/// on this disk) and after (the folder's fsync, which greenroom may well
/// beat) are the writer's cost, not greenroom's, so the clock starts here.
fn rename_in_place(store: &SidecarStore, id: uuid::Uuid, name: &str) -> Instant {
    use std::io::Write;
    let mut s = store.read(id).unwrap();
    s.name = name.to_owned();
    let mut bytes = serde_json::to_vec_pretty(&s).unwrap();
    bytes.push(b'\n');
    let path = store.path_for(id);
    let tmp = store.dir().join(format!(".{id}.json.bench.tmp"));
    let mut f = std::fs::File::create(&tmp).unwrap();
    f.write_all(&bytes).unwrap();
    f.sync_all().unwrap();
    drop(f);
    // Read just before the rename, so the rename itself (microseconds) counts.
    let landing = Instant::now();
    std::fs::rename(&tmp, &path).unwrap();
    std::fs::File::open(store.dir())
        .unwrap()
        .sync_all()
        .unwrap();
    landing
}

fn median(mut v: Vec<Duration>) -> f64 {
    v.sort();
    common::pct(&v, 0.5)
}

fn run(events: bool, idle_window: u64, rows: &mut Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let sidecars = common::populate(dir.path(), SESSIONS);
    let agents = common::tmux::Server::new("events");
    agents.agents(SESSIONS);
    let server = agents.pid();
    // The server's own idle, before greenroom.
    std::thread::sleep(Duration::from_secs(1));
    let (t0, s0) = (Instant::now(), common::proc::ticks(server, false));
    std::thread::sleep(Duration::from_secs(idle_window));
    let server_idle = (common::proc::ticks(server, false) - s0) as f64 / t0.elapsed().as_secs_f64();

    let dash = dashboard(dir.path(), &agents.socket, events);
    let pid = dash.pid();
    dash.wait_for("agent-0", Instant::now() - Duration::from_secs(60), 60)
        .expect("the first frame");
    // Start-up settles: watches armed, usage read, the client connected.
    std::thread::sleep(Duration::from_secs(4));
    let (t0, g0, s0) = (
        Instant::now(),
        common::proc::family_ticks(pid),
        common::proc::ticks(server, false),
    );
    std::thread::sleep(Duration::from_secs(idle_window));
    let secs = t0.elapsed().as_secs_f64();
    let own = (common::proc::family_ticks(pid) - g0) as f64 / secs;
    let extra = ((common::proc::ticks(server, false) - s0) as f64 / secs - server_idle).max(0.0);
    let how = if events {
        "tmux events"
    } else {
        "polling (tmux_events = false)"
    };
    let budget = if events { "≤ 1.5%" } else { "(fallback)" };
    rows.push(format!(
        "| idle CPU, {SESSIONS} live sessions, {how}: greenroom + its tmux clients + the server's extra work | {:.2}% + {:.2}% = {:.2}% of one core | {budget} |",
        own,
        extra,
        own + extra
    ));

    // Sessions killed outside greenroom, near the top of the list: their
    // row turns dormant (`·`).
    let mut kills = Vec::new();
    for k in 1..=15 {
        std::thread::sleep(Duration::from_millis(300));
        let target = format!("=gr-agent-{k}");
        let start = Instant::now();
        agents.run(&["kill-session", "-t", &target]);
        match dash.wait_for(&format!("· agent-{k} "), start, 5) {
            Some(t) => kills.push(t - start),
            None => kills.push(Duration::from_secs(5)),
        }
    }
    let budget = if events {
        "p50 ≤ 50 ms"
    } else {
        "(fallback: up to the poll)"
    };
    rows.push(format!(
        "| session killed outside greenroom -> its row changes (bytes out), {how} | p50 {:.1} ms, max {:.1} ms | {budget} |",
        median(kills.clone()),
        kills.iter().max().unwrap().as_secs_f64() * 1e3
    ));

    if events {
        let store = SidecarStore::new(dir.path().join("sessions"));
        let mut frames = Vec::new();
        for i in 0..40 {
            std::thread::sleep(Duration::from_millis(100));
            let name = format!("renamed-{i}x");
            let start = rename_in_place(&store, sidecars[0].id, &name);
            if let Some(t) = dash.wait_for(&name, start, 5) {
                frames.push(t - start);
            }
        }
        rows.push(format!(
            "| sidecar written -> frame bytes out of greenroom, {SESSIONS} sessions | p50 {:.2} ms ({} of 40 seen) | p50 ≤ 3 ms |",
            median(frames.clone()),
            frames.len()
        ));
    }
}

fn main() {
    let window = common::idle_window(30);
    let mut rows = Vec::new();
    run(true, window, &mut rows);
    run(false, window, &mut rows);
    println!("| measure | measured | budget |");
    println!("|---|---|---|");
    for r in rows {
        println!("{r}");
    }
}
