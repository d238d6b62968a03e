//! prefix b in a real tmux client: back to where the client was before
//! greenroom moved it, also when the agent is in another window of the
//! same session (`switch-client -l` alone knows only sessions).

use std::process::Command;

use super::tmux_keys::{Client, isolated_env};
use crate::support::wait_for;

const BIN: &str = env!("CARGO_BIN_EXE_greenroom");

/// The window and pane the real client shows (`1 %3`).
fn client_place(c: &Client) -> String {
    let out = c.user.run(&[
        "list-clients",
        "-F",
        "#{client_control_mode} #{session_name} #{window_index} #{pane_id}",
    ]);
    out.lines()
        .filter_map(|l| l.strip_prefix("0 "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn prefix_b_returns_to_the_window_and_pane_the_client_left_in_the_same_session() {
    let c = Client::new("exec sh");
    c.greenroom_tmux(&["install", "--apply"]);
    // The user's session has a second pane in its first window, where the
    // client is, so coming back must mean that pane too.
    c.user
        .run(&["split-window", "-d", "-t", "=dash:0", "sleep 600"]);
    let start = wait_for(10, "the client in dash", || {
        let p = client_place(&c);
        p.starts_with("dash 0 ").then_some(p)
    });
    // An agent in window 1 of the same session asks for permission: its
    // hook runs `greenroom report` inside its pane (a copy of sh, named
    // neither a shell nor an agent, stands for the agent).
    let host = c.home.path().join("agent-host");
    std::fs::copy("/bin/sh", &host).unwrap();
    let payload = c.home.path().join("payload.json");
    let asks = serde_json::json!({
        "hook_event_name": "Notification",
        "session_id": "7d3c0c4e-4b8e-4a43-9f6c-1f0f1f0f1f0f",
        "cwd": "/",
        "message": "Claude needs your permission to use Bash",
        "notification_type": "permission_prompt",
    });
    std::fs::write(&payload, asks.to_string()).unwrap();
    let script = format!(
        "'{BIN}' report < '{}'; while :; do sleep 60; done",
        payload.display()
    );
    let agent = c
        .user
        .run(&[
            "new-window",
            "-d",
            "-P",
            "-F",
            "#{pane_id}",
            "-t",
            "=dash:",
            host.to_str().unwrap(),
            "-c",
            &script,
        ])
        .trim()
        .to_owned();
    wait_for(20, "the agent's row to wait", || {
        let out = Command::new(BIN)
            .args(["--tmux-socket", &c.user.name, "ls", "--json"])
            .envs(isolated_env(c.home.path()))
            .env_remove("TMUX")
            .output()
            .unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
        doc["sessions"]
            .as_array()?
            .iter()
            .any(|s| s["health"] == "waiting")
            .then_some(())
    });

    c.press(&["C-b", "g"]);
    wait_for(10, "prefix g to show the agent's window", || {
        (client_place(&c) == format!("dash 1 {agent}")).then_some(())
    });
    c.press(&["C-b", "b"]);
    wait_for(
        10,
        "prefix b to come back to the pane the client left",
        || (client_place(&c) == start).then_some(()),
    );
    // Again: b goes back to the agent, as `switch-client -l` toggles.
    c.press(&["C-b", "b"]);
    wait_for(10, "prefix b again to return to the agent", || {
        (client_place(&c) == format!("dash 1 {agent}")).then_some(())
    });
    c.press(&["C-b", "b"]);
    wait_for(10, "and back once more", || {
        (client_place(&c) == start).then_some(())
    });
}
