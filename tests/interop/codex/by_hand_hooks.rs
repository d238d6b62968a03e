//! A Codex started by hand in a plain window, with greenroom's hooks: its
//! row is `codex@work`, reported by the hooks (active during a turn, idle
//! after Stop), with the rollout's session id and totals; then its
//! approval question is waiting (PermissionRequest) and `y` pressed in the
//! dashboard, a real one in tmux, approves it: the command runs.

use std::time::Duration;

use serde_json::Value;

use super::harness::Codex;
use super::standin::{Reply, StandIn, Usage};
use super::{hooked, user};
use crate::harness::press_until_gone;
use crate::it_support::{Pane, TmuxServer};

const QUESTION: &str = "Would you like to run the following command?";
const COMMAND: &str = "touch approved-from-the-dashboard";

fn usage(input: u64, cached: u64, output: u64, reasoning: u64) -> Usage {
    Usage {
        input,
        cached,
        output,
        reasoning,
    }
}

/// The row of `pane` once it satisfies `check`; on timeout the rows and
/// the screen.
fn until_row(
    c: &Codex,
    pane: &str,
    screen: &Pane<'_>,
    what: &str,
    check: impl Fn(&Value) -> bool,
) -> Value {
    crate::harness::until_row(
        30,
        what,
        || user::row(&c.tmux, &c.home(), pane).filter(|r| check(r)),
        || {
            let rows = user::rows(&c.tmux, &c.home());
            format!("rows: {rows:#?}\npane:\n{}", screen.text())
        },
    )
}

fn reported(r: &Value, state: &str) -> bool {
    r["activity"]["state"] == state && r["activity"]["reported"] == true
}

/// The dashboard as the operator runs it from another terminal (the same
/// HOME, the user's tmux server), in session `dash` of `terminal`.
fn dashboard<'a>(c: &Codex, terminal: &'a TmuxServer) -> Pane<'a> {
    let home = c.home();
    let e = |k: &str, v: std::path::PathBuf| format!("{k}={}", v.display());
    let out = terminal
        .cmd()
        .env_remove("TMUX")
        .args(["new-session", "-d", "-s", "dash", "-x", "160", "-y", "40"])
        .args(["-e", &e("HOME", home.clone())])
        .args(["-e", &e("XDG_STATE_HOME", home.join(".local/state"))])
        .args(["-e", &e("XDG_CONFIG_HOME", home.join(".config"))])
        .arg(env!("CARGO_BIN_EXE_greenroom"))
        .args(["--tmux-socket", &c.tmux.name, "--ao-dir"])
        .arg(home.join("ao"))
        .arg("--claude-dir")
        .arg(home.join(".claude"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    Pane::new(terminal, "dash")
}

#[test]
fn a_codex_by_hand_with_hooks_reports_and_is_approved_from_the_dashboard() {
    let api = StandIn::start();
    api.script([
        Reply::Slow(
            Duration::from_secs(4),
            "stand-in reply after a while".into(),
            usage(9_000, 1_000, 300, 120),
        ),
        Reply::Shell(COMMAND.into(), usage(10_000, 8_000, 40, 0)),
        Reply::Text(
            "stand-in reply: the file is there".into(),
            usage(10_500, 9_000, 25, 0),
        ),
    ]);
    let c = Codex::prepare(api.clone());
    hooked::install(&c);
    user::plain_session(&c.tmux, &c.home(), &c.work());
    let pane_id = user::first_pane(&c.tmux);
    let pane = Pane::new(&c.tmux, "work");
    user::type_line(&pane, &c.launcher().to_string_lossy());
    Codex::until_ready(&pane);

    // A turn under way: UserPromptSubmit says active.
    Codex::prompt(&pane, "Take your time.");
    let r = until_row(&c, &pane_id, &pane, "the turn reported active", |r| {
        reported(r, "active")
    });
    assert_eq!(r["name"], "codex@work", "{r:#}");
    assert_eq!(hooked::adopted_agents(&c), ["codex"], "{r:#}");
    assert_eq!(r["source"], "tmux", "{r:#}");
    assert_eq!(r["adopted"]["hooks"], true, "{r:#}");
    assert!(
        !pane.text().contains("stand-in reply after a while"),
        "the turn still under way"
    );
    // Its end: Stop says idle.
    super::until_answered(&api, &pane, 1, "stand-in reply after a while");
    let r = until_row(&c, &pane_id, &pane, "idle after Stop", |r| {
        reported(r, "idle")
    });
    let total = hooked::rollouts_total(&c, &r, "Take your time.");
    let r = until_row(&c, &pane_id, &pane, "the rollout's totals", |r| {
        r["usage"]["output"] == total["output_tokens"]
    });
    hooked::usage_is_the_rollouts(&r, &total);
    assert_eq!(total["input_tokens"], 9_000);

    // The approval: waiting on the command, answered from the dashboard.
    let terminal = TmuxServer::new();
    let dash = dashboard(&c, &terminal);
    Codex::prompt(&pane, "Make the file.");
    pane.until(60, "Codex's approval question", |s| {
        s.contains(QUESTION) && s.contains(COMMAND)
    });
    let r = until_row(&c, &pane_id, &pane, "waiting on the command", |r| {
        r["health"] == "waiting" && r["activity"]["reported"] == true
    });
    assert!(
        r["activity"]["waiting_for"]["command"]
            .as_str()
            .is_some_and(|cmd| cmd.contains(COMMAND)),
        "{r:#}"
    );
    dash.until(30, "the dashboard showing the row waiting", |s| {
        s.contains("codex@work") && s.contains("1 waiting") && s.contains(COMMAND)
    });
    assert!(!c.work().join("approved-from-the-dashboard").exists());
    press_until_answered(&pane, &dash);
    super::until_answered(&api, &pane, 3, "the file is there");
    assert!(c.work().join("approved-from-the-dashboard").exists());
    until_row(&c, &pane_id, &pane, "idle after the approved turn", |r| {
        reported(r, "idle")
    });
}

/// Presses `y` in the dashboard until Codex's question goes, five
/// seconds for each press to land.
fn press_until_answered(pane: &Pane<'_>, dash: &Pane<'_>) {
    press_until_gone(pane, 30, QUESTION, Duration::from_secs(5), || {
        dash.keys(&["y"]);
    });
}
