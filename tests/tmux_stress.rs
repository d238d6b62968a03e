//! greenroom must never take the operator's tmux server down. tmux (3.3a
//! among others) has crashed under greenroom's control clients as they
//! started and ended (`src/tmux/events.rs` says how, and what greenroom
//! does instead). This drives the real binary as operators do, on a busy
//! private server, for a while: dashboards in windows and in popups,
//! started and ended every way (quit, `kill -9`, window closed, popup
//! closed) at every moment (at once, while the control client is being
//! set up, once it listens, once the dashboard has drawn), while fifteen
//! sessions print and windows are renamed without pause. The server must
//! outlive them all, and no control client's session may be left behind.
//!
//! Its own test binary: cargo runs test binaries one at a time, so this
//! load disturbs no other test. `GREENROOM_STRESS_SECONDS` sets how long
//! (default 60; CI runs it longer). The dashboards run with greenroom's
//! default settings; `GREENROOM_STRESS_EVENTS=true` writes
//! `tmux_events = true` into their config instead, to measure what a
//! listening client risks on this tmux. `GREENROOM_STRESS_BIN` runs
//! another build of greenroom (an older release, to see this test fail).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

struct Server {
    name: String,
}

fn tmux(server: &str) -> Command {
    let mut c = Command::new("tmux");
    c.args(["-L", server, "-f", "/dev/null"]);
    c.stdin(Stdio::null());
    c
}

/// Runs tmux; its stdout, or `None` when it failed.
fn run(server: &str, args: &[&str]) -> Option<String> {
    let out = tmux(server)
        .args(args)
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

impl Server {
    fn cmd(&self) -> Command {
        tmux(&self.name)
    }

    fn try_run(&self, args: &[&str]) -> Option<String> {
        run(&self.name, args)
    }

    fn alive(&self) -> bool {
        self.try_run(&["has-session", "-t", "=base"]).is_some()
    }

    fn events_sessions(&self) -> Vec<String> {
        self.try_run(&["list-sessions", "-F", "#{session_name}"])
            .unwrap_or_default()
            .lines()
            .filter(|l| l.starts_with("greenroom-events"))
            .map(str::to_owned)
            .collect()
    }

    /// How many clients sit in a control client's session.
    fn listening(&self) -> usize {
        self.try_run(&["list-clients", "-F", "#{client_session}"])
            .unwrap_or_default()
            .lines()
            .filter(|l| l.starts_with("greenroom-events"))
            .count()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.cmd().arg("kill-server").output();
    }
}

/// Polls `check` until it holds or `secs` pass; whether it held.
fn within(secs: u64, mut check: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < deadline {
        if check() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// When a dashboard is ended.
#[derive(Clone, Copy, Debug)]
enum Moment {
    /// As soon as it was started: its control client may not exist yet,
    /// or be half set up.
    AtOnce,
    /// Once some control client is being set up or listens (or, for a
    /// dashboard that polls, once it has drawn).
    Connecting,
    /// Once it has drawn its first frame.
    Drawn,
}

/// How a dashboard is ended.
#[derive(Clone, Copy, Debug)]
enum End {
    Quit,
    KillNine,
    WindowClosed,
}

struct World {
    _dir: tempfile::TempDir,
    root: PathBuf,
    bin: PathBuf,
}

impl World {
    /// The dashboard's command line, with its state in the test's folder
    /// and nothing read from the machine's own configuration.
    fn dashboard(&self, server: &Server, n: usize) -> String {
        let sidecars = self.root.join(format!("sc{n}"));
        format!(
            "env HOME={root}/home XDG_STATE_HOME={root}/state XDG_CONFIG_HOME={root}/config {bin} --sidecar-dir {sc} --tmux-socket {sock}",
            root = self.root.display(),
            bin = self.bin.display(),
            sc = sidecars.display(),
            sock = server.name,
        )
    }
}

fn pid_of(server: &Server, target: &str) -> Option<String> {
    server
        .try_run(&["display-message", "-p", "-t", target, "#{pane_pid}"])
        .map(|p| p.trim().to_owned())
        .filter(|p| !p.is_empty())
}

fn kill_nine(pid: &str) {
    let _ = Command::new("kill").args(["-KILL", pid]).status();
}

/// Waits for the moment; a dashboard that is already gone is fine.
/// Whether it was seen drawn.
fn reach(server: &Server, moment: Moment, screen: impl Fn() -> Option<String>) -> bool {
    let drawn = || screen().is_some_and(|s| s.contains("Sessions"));
    match moment {
        Moment::AtOnce => false,
        Moment::Connecting => {
            // A polling dashboard has no control client: its first frame
            // is as far as this moment goes.
            within(20, || server.listening() > 0 || drawn());
            false
        }
        Moment::Drawn => within(20, drawn),
    }
}

/// A dashboard in a window of its own, ended at `moment` by `end`;
/// whether it was seen drawn.
fn in_a_window(server: &Server, world: &World, n: usize, moment: Moment, end: End) -> bool {
    let name = format!("dash{n}");
    let target = format!("={name}:");
    let command = world.dashboard(server, n);
    if server
        .try_run(&[
            "new-session",
            "-d",
            "-s",
            &name,
            "-x",
            "120",
            "-y",
            "30",
            &command,
        ])
        .is_none()
    {
        return false;
    }
    let drawn = reach(server, moment, || {
        server.try_run(&["capture-pane", "-p", "-t", &target])
    });
    match end {
        End::Quit => {
            let _ = server.try_run(&["send-keys", "-t", &target, "q"]);
        }
        End::KillNine => {
            if let Some(pid) = pid_of(server, &target) {
                kill_nine(&pid);
            }
        }
        End::WindowClosed => {
            let _ = server.try_run(&["kill-session", "-t", &format!("={name}")]);
        }
    }
    // A quit dashboard's window stays until it has ended; then it goes.
    within(10, || {
        server
            .try_run(&["has-session", "-t", &format!("={name}")])
            .is_none()
    });
    let _ = server.try_run(&["kill-session", "-t", &format!("={name}")]);
    drawn
}

/// A dashboard in a popup over the operator's attached client, as
/// `prefix G` opens it, ended at `moment` by `end`; whether it was seen
/// drawn.
fn in_a_popup(
    server: &Server,
    world: &World,
    client: &str,
    n: usize,
    moment: Moment,
    end: End,
) -> bool {
    let command = format!("exec {}", world.dashboard(server, n));
    let popup: Option<Child> = server
        .cmd()
        .args([
            "display-popup",
            "-c",
            client,
            "-E",
            "-w",
            "110",
            "-h",
            "26",
            &command,
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok();
    let Some(mut popup) = popup else {
        return false;
    };
    // The popup is drawn on the operator's terminal: the pane the nested
    // client runs in.
    let drawn = reach(server, moment, || {
        server.try_run(&["capture-pane", "-p", "-t", "=term:"])
    });
    match end {
        End::Quit => {
            let _ = server.try_run(&["send-keys", "-t", "=term:", "q"]);
        }
        End::KillNine => {
            // The popup's dashboard: the one whose sidecar folder is its own.
            let mark = format!("sc{n} ");
            let found = Command::new("pgrep")
                .args(["-f", &mark])
                .output()
                .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
                .unwrap_or_default();
            for pid in found.split_whitespace() {
                kill_nine(pid);
            }
        }
        End::WindowClosed => {
            let _ = server.try_run(&["display-popup", "-C", "-c", client]);
        }
    }
    if !within(10, || matches!(popup.try_wait(), Ok(Some(_)))) {
        let _ = server.try_run(&["display-popup", "-C", "-c", client]);
        let _ = popup.kill();
    }
    let _ = popup.wait();
    drawn
}

#[test]
fn dashboards_and_popups_started_and_ended_for_minutes_never_crash_tmux() {
    let secs: u64 = std::env::var("GREENROOM_STRESS_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    for sub in ["home", "state", "config/greenroom"] {
        std::fs::create_dir_all(root.join(sub)).unwrap();
    }
    if let Ok(events) = std::env::var("GREENROOM_STRESS_EVENTS") {
        std::fs::write(
            root.join("config/greenroom/config.toml"),
            format!("tmux_events = {events}\n"),
        )
        .unwrap();
    }
    let world = World {
        _dir: dir,
        root,
        // Another build (an older release, to see it fail) with
        // GREENROOM_STRESS_BIN.
        bin: std::env::var_os("GREENROOM_STRESS_BIN").map_or_else(
            || PathBuf::from(env!("CARGO_BIN_EXE_greenroom")),
            PathBuf::from,
        ),
    };
    let server = Server {
        name: format!("greenroom-stress-{}", std::process::id()),
    };
    assert!(
        server
            .try_run(&[
                "new-session",
                "-d",
                "-s",
                "base",
                "-x",
                "120",
                "-y",
                "30",
                "sleep 3600"
            ])
            .is_some(),
        "tmux starts"
    );
    for i in 1..=15 {
        let name = format!("w{i}");
        server
            .try_run(&[
                "new-session",
                "-d",
                "-s",
                &name,
                "sh -c 'while :; do printf \"x$$ \"; sleep 0.02; done'",
            ])
            .expect("a printing session starts");
    }
    // The operator's terminal: a real client attached to `base`, running
    // in a pane of the same server (popups need an attached client).
    let nested = format!("env -u TMUX tmux -L {} attach -t =base", server.name);
    server
        .try_run(&[
            "new-session",
            "-d",
            "-s",
            "term",
            "-x",
            "130",
            "-y",
            "40",
            &nested,
        ])
        .expect("the operator's terminal starts");
    let client = {
        let mut name = None;
        within(10, || {
            name = server
                .try_run(&["list-clients", "-F", "#{client_name} #{client_session}"])
                .and_then(|l| {
                    l.lines()
                        .find(|l| l.ends_with(" base"))
                        .and_then(|l| l.split(' ').next())
                        .map(str::to_owned)
                });
            name.is_some()
        });
        name.expect("the operator's client is attached")
    };

    // Windows renamed without pause: every tmux command is a client that
    // comes and goes, the moments tmux's bugs need.
    let stop = Arc::new(AtomicBool::new(false));
    let renamer = {
        let (stop, name) = (stop.clone(), server.name.clone());
        std::thread::spawn(move || {
            let mut i = 0u64;
            while !stop.load(Ordering::Relaxed) {
                i += 1;
                let target = format!("=w{}:", i % 15 + 1);
                let _ = run(&name, &["rename-window", "-t", &target, &format!("n{i}")]);
            }
        })
    };

    let moments = [Moment::AtOnce, Moment::Connecting, Moment::Drawn];
    let ends = [End::Quit, End::KillNine, End::WindowClosed];
    let started = Instant::now();
    let mut n = 0usize;
    let mut died = None;
    // Dashboards seen drawn, in windows and in popups: the stress is real
    // only if they really ran.
    let (mut windows, mut popups) = (0, 0);
    while started.elapsed() < Duration::from_secs(secs) {
        n += 1;
        let moment = moments[n % 3];
        let end = ends[(n / 3) % 3];
        if n.is_multiple_of(4) {
            popups += usize::from(in_a_popup(&server, &world, &client, n, moment, end));
        } else {
            windows += usize::from(in_a_window(&server, &world, n, moment, end));
        }
        if !server.alive() {
            died = Some(format!(
                "the tmux server died at dashboard {n} ({moment:?}, {end:?}, {} in a popup) after {:?}",
                if n.is_multiple_of(4) { "" } else { "not" },
                started.elapsed()
            ));
            break;
        }
    }
    stop.store(true, Ordering::Relaxed);
    let _ = renamer.join();
    if let Some(why) = died {
        panic!("{why}; the kernel log (dmesg) names the segfault");
    }
    eprintln!(
        "the tmux server outlived {n} dashboards in {:?} ({windows} in windows and {popups} in popups seen drawn)",
        started.elapsed()
    );
    assert!(
        windows > 0 && popups > 0,
        "dashboards seen drawn: {windows} in windows, {popups} in popups"
    );

    // No control client's session is left behind: one more dashboard ends
    // those whose dashboard was killed, and its own when it quits.
    in_a_window(&server, &world, n + 1, Moment::Drawn, End::Quit);
    let left = server.events_sessions();
    assert!(
        within(10, || server.events_sessions().is_empty()),
        "events sessions left behind: {left:?} (now {:?})",
        server.events_sessions()
    );
    assert!(server.alive());
}
