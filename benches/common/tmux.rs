//! A bench's own tmux server on a private socket: the agents' sessions
//! (`gr-agent-<i>`, as [`super::populate`] names them) and the dashboard's
//! session `dash`. Dropped, it kills the server and removes its socket.

use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// One bench's tmux server, started by its first session.
pub struct Server {
    pub socket: String,
}

impl Server {
    /// The server of bench `name`, on a socket of this process's own.
    pub fn new(name: &str) -> Self {
        Self {
            socket: format!("greenroom-bench-{name}-{}", std::process::id()),
        }
    }

    /// `tmux ARGS` on this server, without the user's config.
    pub fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .output()
            .unwrap()
    }

    /// Sessions `gr-agent-0` .. `gr-agent-<n-1>`, each sleeping an hour.
    pub fn agents(&self, n: usize) {
        start_agents(n, |args| drop(self.run(args)));
    }

    /// Starts `command` (the dashboard's shell line) in a 160x48 session
    /// `dash`, and waits (30 s at most) until its screen shows `words`;
    /// returns the dashboard's pid.
    pub fn dashboard(&self, command: &str, words: &str) -> u32 {
        self.run(&[
            "new-session",
            "-d",
            "-s",
            "dash",
            "-x",
            "160",
            "-y",
            "48",
            command,
        ]);
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let screen = self.run(&["capture-pane", "-p", "-t", "=dash:"]).stdout;
            let screen = String::from_utf8_lossy(&screen);
            if screen.contains(words) {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the dashboard did not start:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let out = self.run(&["list-panes", "-t", "=dash:", "-F", "#{pane_pid}"]);
        String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
    }

    /// The server's pid.
    pub fn pid(&self) -> u32 {
        let out = self.run(&["display-message", "-p", "#{pid}"]);
        String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let path = self
            .run(&["display-message", "-p", "#{socket_path}"])
            .stdout;
        super::stop_server(&path, || drop(self.run(&["kill-server"])));
    }
}

/// Starts `n` agents' sessions with `run` (`tmux ARGS` on some server:
/// this machine's, or a host's).
pub fn start_agents(n: usize, mut run: impl FnMut(&[&str])) {
    for i in 0..n {
        run(&[
            "new-session",
            "-d",
            "-s",
            &format!("gr-agent-{i}"),
            "sleep",
            "3600",
        ]);
    }
}
