//! The user's side: a plain tmux session, started as a person would (a
//! shell, then the agent's command typed in), in a sandboxed HOME where
//! greenroom keeps its records at their default place.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::it_support::{Pane, TmuxServer, wait_for};

/// A plain session `work` (a shell in `cwd`) on `tmux`, whose panes see
/// only the sandboxed HOME; nothing of greenroom's in its environment.
pub fn plain_session(tmux: &TmuxServer, home: &Path, cwd: &Path) {
    named_session(tmux, "work", home, cwd);
}

/// [`plain_session`] under another name.
pub fn named_session(tmux: &TmuxServer, name: &str, home: &Path, cwd: &Path) {
    session_of(tmux, name, home, cwd, &["sh"]);
}

/// A session `name` whose pane's own program is `program` (no shell
/// typed into), with the same sandboxed environment.
pub fn session_of(tmux: &TmuxServer, name: &str, home: &Path, cwd: &Path, program: &[&str]) {
    let e = |k: &str, v: PathBuf| format!("{k}={}", v.display());
    let out = tmux
        .cmd()
        .env_remove("GREENROOM_SESSION_ID")
        .env_remove("GREENROOM_SIDECAR_DIR")
        .env_remove("GREENROOM_CONFIG")
        .env_remove("TMUX")
        .args(["new-session", "-d", "-s", name, "-x", "200", "-y", "50"])
        .arg("-c")
        .arg(cwd)
        .args(["-e", &e("HOME", home.to_path_buf())])
        .args(["-e", &e("XDG_STATE_HOME", home.join(".local/state"))])
        .args(["-e", &e("XDG_CONFIG_HOME", home.join(".config"))])
        .args(program)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
}

/// Types a command line into a pane and presses Enter, as a person would.
pub fn type_line(pane: &Pane<'_>, line: &str) {
    pane.keys(&["-l", line]);
    pane.keys(&["Enter"]);
}

/// The pane id of `work`'s first window.
pub fn first_pane(tmux: &TmuxServer) -> String {
    tmux.run(&["display-message", "-p", "-t", "=work:0", "#{pane_id}"])
        .trim()
        .to_owned()
}

/// greenroom as the user runs it from another terminal: the sandboxed
/// HOME, the user's tmux server, no flag for the record folder.
pub fn greenroom(tmux: &TmuxServer, home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_greenroom"));
    c.env("HOME", home)
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env_remove("TMUX")
        .env_remove("GREENROOM_SIDECAR_DIR")
        .env_remove("GREENROOM_CONFIG")
        .args(["--tmux-socket", &tmux.name, "--ao-dir"])
        .arg(home.join("ao"))
        .arg("--claude-dir")
        .arg(home.join(".claude"));
    c
}

/// Runs greenroom and expects success; returns stdout.
pub fn ok(tmux: &TmuxServer, home: &Path, args: &[&str]) -> String {
    let out = greenroom(tmux, home).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "greenroom {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `greenroom ls --json` on the user's server and default record folder.
pub fn rows(tmux: &TmuxServer, home: &Path) -> Vec<Value> {
    let v: Value = serde_json::from_str(&ok(tmux, home, &["ls", "--json"])).unwrap();
    v["sessions"].as_array().unwrap().clone()
}

pub fn row(tmux: &TmuxServer, home: &Path, pane: &str) -> Option<Value> {
    rows(tmux, home).into_iter().find(|r| r["id"] == pane)
}

/// Waits for the `n`th payload of hook `event` in a capture file (one JSON
/// object a line, appended by a second hook beside greenroom's), then
/// gives greenroom's row one second to show `state`.
pub fn within_a_second_of(
    payloads: impl Fn() -> Vec<Value>,
    event: &str,
    n: usize,
    row: impl Fn() -> Option<Value>,
    state: &str,
) -> Value {
    wait_for(60, &format!("the agent's {event} hook"), || {
        (payloads()
            .iter()
            .filter(|p| p["hook_event_name"] == event)
            .count()
            >= n)
            .then_some(())
    });
    let fired = Instant::now();
    loop {
        let r = row();
        if let Some(r) = &r
            && r["activity"]["state"] == state
        {
            return r.clone();
        }
        assert!(
            fired.elapsed() < Duration::from_secs(1),
            "{event}: the row did not show {state} within a second: {r:#?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
