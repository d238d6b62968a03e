//! The dashboard from anywhere: prefix G opens it in a popup over the
//! user's window, Enter on an adopted agent switches the user's own client
//! to that agent's pane, and the popup closes. Driven through a real tmux
//! client (attached in a pane of a second private server) and read back
//! from that client's screen.

use super::claude::by_hand;
use super::standin::StandIn;
use super::user;
use crate::it_support::{TmuxServer, wait_for};

#[test]
fn the_popup_opens_attaches_to_an_adopted_agent_and_closes() {
    let (c, pane) = by_hand(StandIn::start());
    let home = c.home();
    wait_for(60, "the adopted row", || user::row(&c.tmux, &home, &pane));
    // The user sits in another session of the same server.
    user::named_session(&c.tmux, "desk", &home, &c.work());
    let out = user::greenroom(&c.tmux, &home)
        .args(["tmux", "install", "--apply", "--file"])
        .arg(home.join(".tmux.conf"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");

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
        &c.tmux.name,
        "attach-session",
        "-t",
        "=desk",
    ]);
    // The user's client, not the dashboard's control-mode event client.
    let client = || {
        c.tmux
            .run(&[
                "list-clients",
                "-F",
                "#{client_control_mode} #{client_session} #{pane_id}",
            ])
            .lines()
            .filter_map(|l| l.strip_prefix("0 "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    wait_for(10, "the user's client", || {
        client().starts_with("desk").then_some(())
    });
    let screen = || driver.run(&["capture-pane", "-p", "-t", "=client:"]);
    let press = |keys: &[&str]| {
        let mut args = vec!["send-keys", "-t", "=client:"];
        args.extend_from_slice(keys);
        driver.run(&args);
    };

    press(&["C-b", "G"]);
    let until = |what: &str, ok: &dyn Fn(&str) -> bool| {
        let mut last = String::new();
        let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            wait_for(30, what, || {
                last = screen();
                ok(&last).then_some(())
            })
        }));
        assert!(
            found.is_ok(),
            "timed out waiting for {what}; the client:\n{last}"
        );
    };
    until("the dashboard in a popup", &|s| s.contains("claude@work"));
    assert!(client().starts_with("desk "), "{}", client());

    press(&["Enter"]);
    wait_for(10, "the client on the agent's pane", || {
        (client() == format!("work {pane}")).then_some(())
    });
    until("the popup closed over Claude Code", &|s| {
        !s.contains("claude@work") && s.contains("for shortcuts")
    });
    let sessions = c.tmux.run(&["list-sessions", "-F", "#{session_name}"]);
    assert!(
        sessions.contains("desk"),
        "the user's session stays: {sessions}"
    );
}
