//! Claude Code started by hand asks a question (AskUserQuestion): the
//! row says the question and its numbered choices, and a digit from
//! greenroom answers it.

use std::time::Duration;

use super::claude::{by_hand, tokens, type_until_shown};
use super::harness::Claude;
use super::standin::{Reply, StandIn};
use super::user;
use crate::harness::press_until_gone;
use crate::it_support::{Pane, wait_for};

const QUESTION: &str = "Which colour shall the button be?";

/// Keeps the question's real payloads under `target/interop-captures/ask/`
/// (the source of tests/fixtures/real's AskUserQuestion files).
fn keep_payloads(c: &Claude) {
    c.keep_payloads("ask");
}

#[test]
fn a_question_shows_its_choices_and_a_digit_from_greenroom_answers_it() {
    let api = StandIn::start();
    let colours = ["Red", "Blue", "Green"].map(String::from).to_vec();
    api.script([
        Reply::Ask(QUESTION.into(), colours, tokens(100, 10)),
        Reply::Text("Blue it is.".into(), tokens(100, 10)),
    ]);
    let (c, pane) = by_hand(api.clone());
    let row = || user::row(&c.tmux, &c.home(), &pane);
    let p = Pane::new(&c.tmux, "work");
    type_until_shown(&p, "Make a button.");
    p.keys(&["Enter"]);
    p.until(40, "Claude Code's question", |s| s.contains(QUESTION));
    let r = wait_for(10, "the row waiting on the question", || {
        row().filter(|r| r["health"] == "waiting" && r["activity"]["waiting_for"].is_object())
    });
    keep_payloads(&c);
    let w = &r["activity"]["waiting_for"];
    assert_eq!(w["question"], QUESTION, "{r:#}");
    assert_eq!(w["tool"], "AskUserQuestion", "{r:#}");
    assert_eq!(
        w["options"],
        serde_json::json!(["Red", "Blue", "Green"]),
        "{r:#}"
    );

    // `2` from greenroom picks Blue: the answer reaches the stand-in. The
    // dialog is told by a choice not taken ("Green"): once answered, Claude
    // Code's summary keeps the question's words on screen ("Which colour
    // … → Blue"), so they are no sign the dialog is still open.
    press_until_gone(&p, 20, "Green", Duration::from_secs(3), || {
        user::ok(&c.tmux, &c.home(), &["send", &pane, "--key", "2"]);
    });
    p.until(30, "Claude's reply after the answer", |s| {
        s.contains("Blue it is.")
    });
    // The answer Claude Code took is Blue, in its own transcript.
    let transcript = c.payloads()[0]["transcript_path"]
        .as_str()
        .unwrap()
        .to_owned();
    // Claude Code's own record of the answer: `answers` in the result.
    let answers = wait_for(10, "the question's result in the transcript", || {
        let text = std::fs::read_to_string(&transcript).unwrap_or_default();
        text.lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .find_map(|v| v["toolUseResult"].get("answers").cloned())
    });
    assert_eq!(answers, serde_json::json!({ QUESTION: "Blue" }));
    let r = wait_for(10, "the row no longer waiting", || {
        row().filter(|r| r["health"] != "waiting")
    });
    assert!(r["activity"]["waiting_for"].is_null(), "{r:#}");
}
