//! A Codex greenroom spawned from its default preset (`codex` on the
//! PATH), no hooks, `notify = ["<greenroom>", "report"]` in its
//! config.toml: the end of a turn reads idle, reported, with the thread id
//! as the session id. Killed and restored, it runs `codex resume <id>` and
//! the conversation goes on: the next request carries the earlier prompt,
//! and the row keeps its session id.

use std::process::Command;

use super::harness::Codex;
use super::hooked;
use super::standin::{Reply, StandIn, Usage};
use crate::it_support::Pane;

const SESSION: &str = "cxn";
const FIRST: &str = "Remember the word pelican.";

/// greenroom with the private `codex` first on the PATH, as a user who
/// installed it has it; tmux servers greenroom starts inherit it.
fn greenroom(c: &Codex) -> Command {
    let mut cmd = c.greenroom();
    let path = format!(
        "{}:{}",
        c.launcher().parent().unwrap().display(),
        std::env::var("PATH").unwrap()
    );
    cmd.env("PATH", path);
    cmd
}

fn run(c: &Codex, args: &[&str]) -> String {
    let out = greenroom(c).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "greenroom {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn reported_idle(r: &serde_json::Value) -> bool {
    r["activity"]["state"] == "idle" && r["activity"]["reported"] == true
}

#[test]
fn codexs_notify_ends_the_turn_and_restore_resumes_the_thread() {
    let api = StandIn::start();
    api.script([
        // Slow: the side thread Codex asks for the title (its own
        // notice, its own thread id) ends first.
        Reply::Slow(
            std::time::Duration::from_secs(3),
            "stand-in reply: noted".into(),
            Usage::default(),
        ),
        Reply::Text("stand-in reply: it was pelican".into(), Usage::default()),
    ]);
    let c = Codex::prepare(api.clone());
    // greenroom's own presets: `codex`, resumed with `codex resume <id>`.
    std::fs::write(c.dir.path().join("config.toml"), "").unwrap();
    let config = c.codex_home().join("config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    let notify = format!(
        "notify = [{:?}, \"report\"]\n",
        env!("CARGO_BIN_EXE_greenroom")
    );
    std::fs::write(&config, format!("{notify}{text}")).unwrap();
    assert!(!c.codex_home().join("hooks.json").exists(), "no hooks");

    let work = c.work();
    run(
        &c,
        &[
            "spawn",
            "-n",
            SESSION,
            "--agent",
            "codex",
            "--cwd",
            work.to_str().unwrap(),
        ],
    );
    let pane = Pane::new(&c.tmux, &format!("gr-{SESSION}"));
    Codex::until_ready(&pane);
    Codex::prompt(&pane, FIRST);
    // The title's notice neither ends the turn nor names the session.
    let asked = std::time::Instant::now();
    while !pane.text().contains("stand-in reply: noted") {
        assert!(asked.elapsed().as_secs() < 60, "{}", pane.text());
        let r = c.rows().into_iter().find(|r| r["name"] == SESSION);
        assert!(
            !r.as_ref().is_some_and(reported_idle),
            "idle while the turn is under way: {r:#?}"
        );
        assert!(api.turns() <= 1, "{}", pane.text());
    }
    super::until_answered(&api, &pane, 1, "stand-in reply: noted");
    let (_, id) = hooked::rollout_of(&c, FIRST);
    let r = c.until_row(&pane, SESSION, "idle from Codex's notice", reported_idle);
    assert_eq!(
        r["agent_session_id"],
        id,
        "{r:#}\nrollouts: {:#?}",
        hooked::all_rollouts(&c)
    );
    assert_eq!(hooked::recorded_agent(&c, &r), "codex", "{r:#}");
    let log = std::fs::read_to_string(c.dir.path().join("greenroom.log")).unwrap_or_default();
    assert!(!log.contains("unknown STATE"), "{log}");

    run(&c, &["kill", SESSION, "--yes"]);
    let said = run(&c, &["restore", SESSION]);
    let id = id.as_str().unwrap();
    assert_eq!(said, format!("resumed {SESSION}: codex resume '{id}'\n"));
    pane.until(60, "the resumed conversation", |s| {
        s.contains("stand-in reply: noted") && s.contains("? for shortcuts")
    });
    Codex::prompt(&pane, "Which word was it?");
    super::until_answered(&api, &pane, 2, "it was pelican");
    let bodies = api.turn_bodies();
    let input = bodies.last().unwrap()["input"].to_string();
    assert!(input.contains(FIRST), "the earlier turn is not in: {input}");
    assert!(input.contains("stand-in reply: noted"), "{input}");
    let r = c.until_row(&pane, SESSION, "idle after the resumed turn", |r| {
        reported_idle(r) && r["agent_session_id"] == id
    });
    assert_eq!(hooked::recorded_agent(&c, &r), "codex", "{r:#}");
}
