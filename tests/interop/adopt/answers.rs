//! Claude Code started by hand, with greenroom's hooks, its permission
//! prompt answered: refused (the "No" digit, Esc) in its own pane or from
//! greenroom, its row is idle within seconds, as `claude agents --json`
//! says (Claude Code fires no hook on a refusal); allowed, it works on.
//! Typed into a shell, and as the pane's own program.
//!
//! Claude Code 2.1.328's dialog has no `y`/`n` keys: its choices are
//! numbered ("1. Yes" … "4. No"), Enter takes the highlighted one and Esc
//! cancels.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::claude::{by_hand, claude_agents, tokens, type_until_shown};
use super::harness::Claude;
use super::standin::{Reply, StandIn};
use super::user;
use crate::it_support::{Pane, wait_for};

const DIALOG: &str = "Do you want to proceed?";

/// Claude Code's replies: one Bash call for each command, the last one's
/// turn ending with a text once it ran.
fn script(api: &StandIn, commands: &[&str]) {
    let mut replies: Vec<Reply> = commands
        .iter()
        .map(|c| Reply::Bash((*c).to_owned(), tokens(100, 10)))
        .collect();
    replies.push(Reply::Text("Touched it.".into(), tokens(100, 10)));
    api.script(replies);
}

/// Waits for the dialog and for the row to wait on it, naming the tool and
/// the command.
fn until_asked(p: &Pane<'_>, row: &impl Fn() -> Option<Value>, command: &str) -> Value {
    p.until(40, "the permission dialog", |s| s.contains(DIALOG));
    let r = wait_for(10, &format!("the row waiting on {command}"), || {
        row().filter(|r| {
            r["health"] == "waiting" && r["activity"]["waiting_for"]["command"] == command
        })
    });
    assert_eq!(r["activity"]["waiting_for"]["tool"], "Bash", "{r:#}");
    r
}

/// Types a prompt that makes Claude Code ask for `command`; waits as
/// [`until_asked`].
fn ask(p: &Pane<'_>, row: &impl Fn() -> Option<Value>, command: &str) -> Value {
    type_until_shown(p, &format!("Run {command}."));
    p.keys(&["Enter"]);
    until_asked(p, row, command)
}

/// Answers the dialog with `press` until it goes (a key that lands while
/// the dialog is still being drawn is lost); returns what the press that
/// answered it said: the first that found the session waiting (on a busy
/// machine the dialog can outlast a press that answered it, and a press
/// after that finds the session no longer waiting).
fn answer(p: &Pane<'_>, press: impl Fn() -> String) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut said: Option<String> = None;
    let mut last = String::new();
    while p.text().contains(DIALOG) {
        assert!(
            Instant::now() < deadline,
            "the dialog stayed:\n{}",
            p.text()
        );
        last = press();
        if said.is_none() && last.contains("it was waiting") {
            said = Some(last.clone());
        }
        let pressed = Instant::now();
        while pressed.elapsed() < Duration::from_secs(5) && p.text().contains(DIALOG) {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    said.unwrap_or(last)
}

/// Who decided a refusal: in the pane, no hook fires and Claude Code's own
/// record says idle; from greenroom, greenroom records its answer too
/// (whichever is newer speaks).
const IN_THE_PANE: &[&str] = &["claude-registry"];
const FROM_GREENROOM: &[&str] = &["answer", "claude-registry"];

/// After a refusal: the row idle within a few seconds, asking nothing, as
/// Claude Code itself says, its word from `sources`; the refused command
/// never ran. Refused in the pane, greenroom saw no look: the turn's end
/// is ready for the operator (or idle, `seen_soon`, when greenroom's last
/// look came moments before); answered from greenroom, the answer was the
/// look.
fn idle_after_refusal(
    c: &Claude,
    row: &impl Fn() -> Option<Value>,
    command: &str,
    sources: &[&str],
    seen_soon: bool,
) -> Value {
    let refused = Instant::now();
    // A turn that ends within 5 s of a look was seen ending (the look
    // lasts): after an answer from greenroom, a refusal in the pane soon
    // after may read idle, however fast the machine.
    let healths: &[&str] = if sources.contains(&"answer") {
        &["idle"]
    } else if seen_soon {
        &["ready", "idle"]
    } else {
        &["ready"]
    };
    let r = wait_for(
        5,
        &format!("the row {healths:?} after refusing {command}"),
        || row().filter(|r| healths.iter().any(|h| r["health"] == *h)),
    );
    eprintln!(
        "{command}: idle {:.1} s after the refusal: {:#}",
        refused.elapsed().as_secs_f64(),
        r["activity"]
    );
    assert_eq!(r["activity"]["state"], "idle", "{r:#}");
    assert!(r["activity"]["waiting_for"].is_null(), "{r:#}");
    let source = r["activity"]["source"].as_str().unwrap_or_default();
    assert!(sources.contains(&source), "{r:#}");
    assert_eq!(claude_agents(c)["status"], "idle");
    let file = command.trim_start_matches("touch ");
    assert!(!c.work().join(file).exists(), "{command} ran");
    r
}

/// `greenroom send ID --key KEY` on the user's server: its output.
fn send(c: &Claude, id: &str, key: &str) -> String {
    let said = user::ok(&c.tmux, &c.home(), &["send", id, "--key", key]);
    eprintln!("greenroom send {id} --key {key}: {}", said.trim());
    assert!(said.starts_with("sent "), "{said}");
    said
}

/// The digit of the dialog's "No" choice, as the screen shows it (the
/// choices depend on the call: "3. No" or "4. No").
fn no_digit(p: &Pane<'_>) -> String {
    let text = p.text();
    text.lines()
        .map(|l| l.trim_start_matches([' ', '❯']).trim())
        .find_map(|l| l.strip_suffix(". No"))
        .unwrap_or_else(|| panic!("no \"No\" choice:\n{text}"))
        .to_owned()
}

/// After an allowing answer: the command runs and the turn goes on to its
/// end, the row idle after Claude's Stop hook.
fn ran_and_ended(c: &Claude, p: &Pane<'_>, row: &impl Fn() -> Option<Value>, command: &str) {
    let file = command.trim_start_matches("touch ");
    wait_for(20, &format!("{command} to run"), || {
        c.work().join(file).exists().then_some(())
    });
    p.until(30, "the follow-up", |s| s.contains("Touched it."));
    let r = wait_for(10, "the row idle after the turn", || {
        // Ready when the turn ended over 5 s after a look (or none).
        row().filter(|r| {
            (r["health"] == "idle" || r["health"] == "ready") && r["activity"]["reported"] == true
        })
    });
    assert!(r["activity"]["waiting_for"].is_null(), "{r:#}");
}

#[test]
fn typed_into_a_shell_refused_with_the_no_digit_or_esc_is_idle_at_once() {
    let api = StandIn::start();
    let commands = [
        "touch by-no",
        "touch by-no-sent",
        "touch by-esc",
        "touch by-enter",
    ];
    script(&api, &commands);
    let (c, pane) = by_hand(api);
    let row = || user::row(&c.tmux, &c.home(), &pane);
    let p = Pane::new(&c.tmux, "work");

    // The "No" digit in its own pane.
    ask(&p, &row, commands[0]);
    let no = no_digit(&p);
    answer(&p, || {
        p.keys(&[&no]);
        String::new()
    });
    idle_after_refusal(&c, &row, commands[0], IN_THE_PANE, false);

    // The "No" digit from greenroom: it says what the answer led to.
    ask(&p, &row, commands[1]);
    let no = no_digit(&p);
    let said = answer(&p, || send(&c, &pane, &no));
    assert!(said.contains("now idle"), "{said}");
    idle_after_refusal(&c, &row, commands[1], FROM_GREENROOM, false);

    // Esc in its own pane.
    ask(&p, &row, commands[2]);
    answer(&p, || {
        p.keys(&["Escape"]);
        String::new()
    });
    // Refused in the pane moments after greenroom's answer was a look.
    idle_after_refusal(&c, &row, commands[2], IN_THE_PANE, true);

    // Enter takes the highlighted "1. Yes": the command runs, the turn
    // goes on.
    ask(&p, &row, commands[3]);
    answer(&p, || {
        p.keys(&["Enter"]);
        String::new()
    });
    ran_and_ended(&c, &p, &row, commands[3]);
}

/// Claude Code as the pane's own program, started by a command line tmux
/// hands to a shell.
#[test]
fn as_the_panes_own_program_it_waits_saying_what_for_and_answers_from_greenroom_land() {
    let api = StandIn::start();
    let commands = ["touch by-escape", "touch by-1"];
    script(&api, &commands);
    let c = Claude::prepare(api);
    // `tmux new-session -d -s work "claude 'Run …'; exec sh"`, the pane
    // kept once Claude Code ends: tmux runs the line with a shell, which
    // keeps the terminal while Claude Code works (the pane names the shell).
    let line = format!(
        "'{}' 'Run {}.'; exec sh",
        c.dir.path().join("run-claude").display(),
        commands[0]
    );
    user::session_of(&c.tmux, "work", &c.home(), &c.work(), &[&line]);
    let pane = user::first_pane(&c.tmux);
    let row = || user::row(&c.tmux, &c.home(), &pane);
    let p = Pane::new(&c.tmux, "work");

    // Waiting, saying for what, as its hooks' record says.
    let r = until_asked(&p, &row, commands[0]);
    assert_eq!(r["adopted"]["hooks"], true, "{r:#}");
    // Claude Code's own record may say it waits moments before the
    // PermissionRequest hook does (the row then names the record, with the
    // command its PreToolUse hook named): the hook's word follows.
    let r = wait_for(10, "the hook's word on the wait", || {
        row().filter(|r| r["activity"]["source"] == "hook")
    });
    assert_eq!(r["health"], "waiting", "{r:#}");
    assert_eq!(
        r["activity"]["waiting_for"]["command"], commands[0],
        "{r:#}"
    );

    // Escape from greenroom refuses: idle, as greenroom says.
    let said = answer(&p, || send(&c, &pane, "escape"));
    assert!(said.contains("now idle"), "{said}");
    idle_after_refusal(&c, &row, commands[0], FROM_GREENROOM, false);

    // `1` ("Yes") from greenroom allows: it works on.
    ask(&p, &row, commands[1]);
    let said = answer(&p, || send(&c, &pane, "1"));
    assert!(said.contains("now active"), "{said}");
    ran_and_ended(&c, &p, &row, commands[1]);
}
