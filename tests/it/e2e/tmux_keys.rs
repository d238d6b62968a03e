//! greenroom's keys in a real tmux client, the way an operator presses
//! them: a private "user" tmux server, and a real client attached to it in
//! a pane of a second private server, so that keys sent there pass through
//! the client's prefix and key tables (keys sent to a pane directly would
//! skip them). `greenroom tmux install --apply` binds the keys; the client's
//! screen shows tmux's status line.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::{TmuxServer, wait_for};

const BIN: &str = env!("CARGO_BIN_EXE_greenroom");

/// The user's tmux server with a real client attached to its session `dash`.
pub(super) struct Client {
    pub(super) user: TmuxServer,
    driver: TmuxServer,
    pub(super) home: tempfile::TempDir,
}

impl Client {
    /// `dash` runs `command` (a shell line) in a 160x48 window.
    pub(super) fn new(command: &str) -> Self {
        let home = tempfile::tempdir().unwrap();
        let user = TmuxServer::new();
        let env = |k: &str, rel: &str| format!("{k}={}", home.path().join(rel).display());
        let (h, c, s) = (
            env("HOME", ""),
            env("XDG_CONFIG_HOME", ".config"),
            env("XDG_STATE_HOME", ".local/state"),
        );
        // The server (and every job it runs, like run-shell) sees this
        // HOME: greenroom started from a key reads nothing of the real user's.
        let out = user
            .cmd()
            .envs(isolated_env(home.path()))
            .args(["new-session", "-d", "-s", "dash", "-x", "160", "-y", "48"])
            .args(["-e", &h, "-e", &c, "-e", &s, "sh", "-c", command])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        user.run(&["set-option", "-g", "display-time", "30000"]);
        let driver = TmuxServer::new();
        driver.run(&[
            "new-session",
            "-d",
            "-s",
            "client",
            "-x",
            "160",
            "-y",
            "50",
            "env",
            "-u",
            "TMUX",
            "tmux",
            "-L",
            &user.name,
            "-f",
            "/dev/null",
            "attach-session",
            "-t",
            "=dash",
        ]);
        let client = Client { user, driver, home };
        wait_for(10, "the client to attach", || {
            (!client.client_session().is_empty()).then_some(())
        });
        client
    }

    fn screen(&self) -> String {
        self.driver.run(&["capture-pane", "-p", "-t", "=client:"])
    }

    pub(super) fn press(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "=client:"];
        args.extend_from_slice(keys);
        self.driver.run(&args);
    }

    pub(super) fn until(&self, secs: u64, what: &str, check: impl Fn(&str) -> bool) -> String {
        let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            wait_for(secs, what, || {
                let s = self.screen();
                check(&s).then_some(s)
            })
        }));
        found.unwrap_or_else(|_| {
            panic!(
                "timed out waiting for {what}; the client:\n{}",
                self.screen()
            )
        })
    }

    /// The session the real client shows ("" once it is gone); the
    /// dashboard's control-mode event client is not the user's.
    fn client_session(&self) -> String {
        let out = self
            .user
            .cmd()
            .args([
                "list-clients",
                "-F",
                "#{client_control_mode} #{client_session}",
            ])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.strip_prefix("0 "))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn conf(&self) -> PathBuf {
        self.home.path().join(".tmux.conf")
    }

    /// `greenroom tmux ARGS --file ~/.tmux.conf --tmux-socket <user's>`.
    pub(super) fn greenroom_tmux(&self, args: &[&str]) -> String {
        let out = Command::new(BIN)
            .arg("tmux")
            .args(args)
            .arg("--file")
            .arg(self.conf())
            .args(["--tmux-socket", &self.user.name])
            .envs(isolated_env(self.home.path()))
            .env_remove("TMUX")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        text
    }
}

pub(super) fn isolated_env(home: &Path) -> Vec<(String, PathBuf)> {
    vec![
        ("HOME".into(), home.to_path_buf()),
        ("XDG_CONFIG_HOME".into(), home.join(".config")),
        ("XDG_STATE_HOME".into(), home.join(".local/state")),
    ]
}

#[test]
fn installed_keys_work_in_a_real_client_and_uninstall_takes_them_back() {
    let c = Client::new("exec sh");
    std::fs::write(c.conf(), "set -g mouse on\n").unwrap();
    let said = c.greenroom_tmux(&["install", "--apply"]);
    assert!(
        said.contains("applied to the running tmux server"),
        "{said}"
    );
    let status = c.user.run(&["show-options", "-gv", "status-right"]);
    assert!(
        status.contains(&format!("#('{BIN}' status --tmux)")),
        "{status}"
    );
    // Applying again (or the user re-reading their config) adds nothing twice.
    c.greenroom_tmux(&["install", "--apply"]);
    let again = c.user.run(&["show-options", "-gv", "status-right"]);
    assert_eq!(again.matches("status --tmux").count(), 1, "{again}");

    // prefix g with nothing urgent: the answer is in the status line, and
    // the pane is not left in a view the user must close with q.
    c.press(&["C-b", "g"]);
    c.until(10, "next's answer in the status line", |s| {
        s.contains("greenroom: nothing needs you right now")
    });
    let in_mode = c
        .user
        .run(&["display-message", "-p", "-t", "=dash:", "#{pane_in_mode}"]);
    assert_eq!(
        in_mode.trim(),
        "0",
        "greenroom next left the pane in a view"
    );

    // prefix b: back to where the user was (the dashboard, after an attach).
    c.user.run(&["new-session", "-d", "-s", "agent", "sh"]);
    let tty = c.user.run(&["list-clients", "-F", "#{client_tty}"]);
    c.user
        .run(&["switch-client", "-c", tty.trim(), "-t", "=agent"]);
    wait_for(10, "the switch to agent", || {
        (c.client_session() == "agent").then_some(())
    });
    c.press(&["C-b", "b"]);
    wait_for(10, "prefix b to come back", || {
        (c.client_session() == "dash").then_some(())
    });

    // prefix G: the dashboard in a popup over the current window; q closes
    // it, and the client never left the user's own session.
    c.press(&["C-b", "G"]);
    c.until(20, "the dashboard in a popup", |s| s.contains("Sessions"));
    assert_eq!(c.client_session(), "dash");
    c.press(&["q"]);
    c.until(10, "q to close the popup", |s| !s.contains("Sessions"));
    assert_eq!(c.client_session(), "dash");
    // Nothing of the dashboard is left once greenroom has quit (its event
    // client's session, greenroom-events, ends with it).
    wait_for(10, "the dashboard's sessions to end", || {
        let sessions = c.user.run(&["list-sessions", "-F", "#{session_name}"]);
        (!sessions.lines().any(|l| l.starts_with("greenroom"))).then_some(())
    });

    let said = c.greenroom_tmux(&["uninstall", "--apply"]);
    assert!(said.contains("removed from"), "{said}");
    assert_eq!(
        std::fs::read_to_string(c.conf()).unwrap(),
        "set -g mouse on\n"
    );
    let keys = c.user.run(&["list-keys", "-T", "prefix"]);
    assert!(!keys.contains("greenroom"), "{keys}");
    let status = c.user.run(&["show-options", "-gv", "status-right"]);
    assert!(!status.contains("status --tmux"), "{status}");
    assert!(
        status.contains("%H:%M"),
        "the status line as it was: {status}"
    );
}

#[test]
fn the_demo_s_way_back_inside_tmux_returns_to_the_dashboard_and_keeps_the_user_s_client() {
    let _one = crate::e2e::demo::one_demo();
    let root = tempfile::tempdir().unwrap();
    let demo_root = root
        .path()
        .join(format!("greenroom-demo-keys-{}", std::process::id()));
    let c = Client::new(&format!(
        "GREENROOM_DEMO_ROOT='{}' exec '{BIN}' demo",
        demo_root.display()
    ));
    let socket = demo_root
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let _demo_server = KillOnDrop(socket);
    // The demo's last words stay on screen once it has ended.
    c.user
        .run(&["set-option", "-w", "-t", "=dash:", "remain-on-exit", "on"]);
    c.until(30, "the demo's dashboard", |s| {
        s.contains("api-1") && s.contains("Sessions")
    });
    // Enter attaches this pane to a demo session: a client of the demo's
    // own server, nested in the user's.
    c.press(&["Enter"]);
    let screen = c.until(20, "the demo session's status line", |s| {
        s.contains("returns to the dashboard")
    });
    let hint = screen
        .split("greenroom demo: ")
        .nth(1)
        .and_then(|rest| rest.split(" returns to the dashboard").next())
        .unwrap()
        .to_owned();
    // Press what the hint says, as a newcomer would.
    let keys: Vec<&str> = match hint.as_str() {
        "F12" => vec!["F12"],
        h if h.starts_with("C-b d") => vec!["C-b", "d"],
        other => panic!("an unexpected hint: {other:?}"),
    };
    c.press(&keys);
    // Its status line says the dashboard took the terminal back and reads
    // keys again.
    c.until(20, "the dashboard again", |s| {
        s.contains("Sessions")
            && s.contains("back from ")
            && !s.contains("returns to the dashboard")
    });
    assert_eq!(
        c.client_session(),
        "dash",
        "the user's own client was detached"
    );
    c.press(&["q"]);
    let screen = c.until(20, "the demo's last words", |s| {
        s.contains("greenroom demo ended") || s.contains("greenroom demo: could not remove")
    });
    assert!(
        !demo_root.exists(),
        "the demo's folder is still there: {:?}\n{screen}",
        std::fs::read_dir(&demo_root)
            .map(|d| d.flatten().map(|e| e.file_name()).collect::<Vec<_>>())
    );
}

/// A failed test must not leave the demo's tmux server behind.
struct KillOnDrop(String);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.0, "kill-server"])
            .output();
    }
}

#[test]
fn next_from_a_key_takes_the_client_to_the_session_that_waits() {
    let c = Client::new("exec sh");
    c.greenroom_tmux(&["install", "--apply"]);
    let greenroom = |args: &[&str]| {
        let out = Command::new(BIN)
            .args(["--tmux-socket", &c.user.name])
            .args(args)
            .envs(isolated_env(c.home.path()))
            .env_remove("TMUX")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    greenroom(&["spawn", "--name", "web", "--cwd", "/", "--", "sh"]);
    let doc: serde_json::Value = serde_json::from_str(&greenroom(&["ls", "--json"])).unwrap();
    let id = doc["sessions"][0]["id"].as_str().unwrap().to_owned();
    let sidecars = c.home.path().join(".local/state/greenroom/sessions");
    let out = Command::new(BIN)
        .args(["report", "awaiting_input"])
        .env("GREENROOM_SESSION_ID", &id)
        .env("GREENROOM_SIDECAR_DIR", &sidecars)
        .envs(isolated_env(c.home.path()))
        .output()
        .unwrap();
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_str(&greenroom(&["ls", "--json"])).unwrap();
    assert_eq!(doc["sessions"][0]["health"], "waiting", "{doc:#}");

    c.press(&["C-b", "g"]);
    wait_for(10, "prefix g to switch to the waiting session", || {
        (c.client_session() == "gr-web").then_some(())
    });
    let in_mode = c
        .user
        .run(&["display-message", "-p", "-t", "=dash:", "#{pane_in_mode}"]);
    assert_eq!(in_mode.trim(), "0");
    // And prefix b comes back.
    c.press(&["C-b", "b"]);
    wait_for(10, "prefix b to come back", || {
        (c.client_session() == "dash").then_some(())
    });
}
