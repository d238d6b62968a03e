//! The real OpenCode 1.18.33 with greenroom's plugin, installed by
//! `greenroom hooks install --agent opencode` into its private
//! `$XDG_CONFIG_HOME/opencode/plugins/`: started by hand in a plain window
//! and by `greenroom spawn --agent opencode`, its own events make the row
//! active (reported by the plugin, not guessed from tmux), waiting with the
//! bash command, and idle; the permission answered from greenroom ends the
//! wait. The session id on the row is OpenCode's own.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;

use super::harness::Opencode;
use super::standin::{Reply, StandIn, Usage};
use super::user;
use crate::harness::{press_until_gone, until_row};
use crate::it_support::Pane;

/// `greenroom hooks install --agent opencode` as the user runs it (their
/// HOME and XDG_CONFIG_HOME, OpenCode's); the plugin file it wrote.
fn install_plugin(c: &Opencode) -> PathBuf {
    let out = user::ok(
        &c.tmux,
        &c.home(),
        &["hooks", "install", "--agent", "opencode"],
    );
    let plugin = c.config_dir().join("plugins/greenroom.js");
    assert!(
        out.contains(&plugin.display().to_string()),
        "{out}\nnot into {}",
        plugin.display()
    );
    assert!(plugin.is_file());
    plugin
}

/// A row the plugin's report made: its activity's source is the hook.
fn reported(r: &Value, state: &str) -> bool {
    r["activity"]["state"] == state && r["activity"]["source"] == "hook"
}

/// Waits for the user's row of `pane_id` (default record folder) to pass
/// `check`; on timeout shows the rows and the pane.
fn until_adopted(
    c: &Opencode,
    pane: &Pane<'_>,
    pane_id: &str,
    what: &str,
    check: impl Fn(&Value) -> bool,
) -> Value {
    until_row(
        45,
        what,
        || user::row(&c.tmux, &c.home(), pane_id).filter(|r| check(r)),
        || {
            let rows = user::rows(&c.tmux, &c.home());
            format!("rows: {rows:#?}\npane:\n{}", pane.text())
        },
    )
}

/// Presses a key through greenroom until OpenCode's prompt goes.
fn answer(pane: &Pane<'_>, send: impl Fn()) {
    press_until_gone(pane, 30, "Permission required", Duration::ZERO, send);
}

#[test]
fn an_opencode_with_the_plugin_started_by_hand_reports_its_own_states() {
    const COMMAND: &str = "touch greenroom-plugin-by-hand";
    let api = StandIn::start();
    api.script([
        Reply::Slow(
            Duration::from_secs(6),
            "stand-in reply: thought it over".into(),
            Usage::default(),
        ),
        Reply::Shell(COMMAND.into(), Usage::default()),
        Reply::Slow(
            Duration::from_secs(6),
            "stand-in reply: made it".into(),
            Usage {
                prompt: 900,
                cached: 100,
                completion: 30,
                reasoning: 4,
            },
        ),
    ]);
    let c = Opencode::prepare(api.clone());
    install_plugin(&c);
    user::plain_session(&c.tmux, &c.home(), &c.work());
    let pane_id = user::first_pane(&c.tmux);
    let pane = Pane::new(&c.tmux, "work");
    user::type_line(&pane, &c.launcher().to_string_lossy());
    Opencode::until_ready(&pane);

    Opencode::prompt(&pane, "think it over");
    let row = until_adopted(&c, &pane, &pane_id, "busy reported: active", |r| {
        reported(r, "active")
    });
    assert_eq!(row["name"], "opencode@work", "{row:#}");
    assert_eq!(row["adopted"]["hooks"], true, "{row:#}");
    let id = row["agent_session_id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(id.starts_with("ses_"), "{row:#}");
    super::until_answered(&api, &pane, 1, "thought it over");
    until_adopted(&c, &pane, &pane_id, "idle reported", |r| {
        reported(r, "idle")
    });

    Opencode::prompt(&pane, "make the file");
    Opencode::until_permission(&pane, COMMAND);
    let row = until_adopted(&c, &pane, &pane_id, "the row waiting", |r| {
        r["health"] == "waiting"
    });
    let w = &row["activity"]["waiting_for"];
    assert_eq!(w["command"], COMMAND, "{row:#}");
    assert_eq!(w["tool"], "bash", "{row:#}");
    answer(&pane, || {
        user::ok(&c.tmux, &c.home(), &["send", &pane_id, "--key", "y"]);
    });
    until_adopted(&c, &pane, &pane_id, "replied: active again", |r| {
        reported(r, "active") && r["health"] != "waiting"
    });
    super::until_answered(&api, &pane, 3, "made it");
    assert!(c.work().join("greenroom-plugin-by-hand").exists());
    let row = until_adopted(&c, &pane, &pane_id, "idle again", |r| reported(r, "idle"));
    assert_eq!(row["agent_session_id"], id.as_str());
    let sessions = c.sessions();
    assert_eq!(sessions.len(), 1, "{sessions:#?}");
    assert_eq!(sessions[0]["id"], id.as_str(), "OpenCode's own id");

    // Started by hand, its id from the plugin: its usage is OpenCode's own.
    let t = c.export(&id)["info"]["tokens"].clone();
    let n = |v: &Value| v.as_u64().unwrap_or(u64::MAX);
    assert!(n(&t["input"]) > 0, "{t:#}");
    let row = until_adopted(&c, &pane, &pane_id, "OpenCode's own totals", |r| {
        let u = &r["usage"];
        n(&u["input"]) == n(&t["input"])
            && n(&u["output"]) == n(&t["output"]) + n(&t["reasoning"])
            && n(&u["cache_read"]) == n(&t["cache"]["read"])
    });
    assert_eq!(row["usage"]["reasoning"], t["reasoning"], "{row:#}");
}

#[test]
fn a_spawned_opencode_with_the_plugin_reports_waiting_active_idle() {
    const SESSION: &str = "ocp";
    const COMMAND: &str = "touch greenroom-plugin-spawned";
    let api = StandIn::start();
    api.script([
        Reply::Shell(COMMAND.into(), Usage::default()),
        Reply::Slow(
            Duration::from_secs(6),
            "stand-in reply: spawned and done".into(),
            Usage::default(),
        ),
    ]);
    let c = Opencode::prepare(api.clone());
    install_plugin(&c);
    let pane = c.spawn(SESSION, "Make the file, please.");
    Opencode::until_permission(&pane, COMMAND);
    let row = c.until_row(&pane, SESSION, "the row waiting", |r| {
        r["health"] == "waiting"
    });
    let w = &row["activity"]["waiting_for"];
    assert_eq!(w["command"], COMMAND, "{row:#}");
    assert_eq!(w["tool"], "bash", "{row:#}");
    answer(&pane, || {
        c.run(&["send", SESSION, "--key", "Enter"]);
    });
    let row = c.until_row(&pane, SESSION, "replied: active again", |r| {
        reported(r, "active") && r["health"] != "waiting"
    });
    let id = row["agent_session_id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(id.starts_with("ses_"), "{row:#}");
    super::until_answered(&api, &pane, 2, "spawned and done");
    assert!(c.work().join("greenroom-plugin-spawned").exists());
    c.until_row(&pane, SESSION, "idle reported", |r| {
        reported(r, "idle") && r["agent_session_id"] == id.as_str()
    });
}
