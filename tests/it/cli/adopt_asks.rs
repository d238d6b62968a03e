//! What a hand-started agent waits for, through `greenroom report` in its
//! pane and the catalog: the tool and command of a permission prompt, and
//! the question and choices of an AskUserQuestion, as greenroom's own rows
//! say them. The payloads are Claude Code 2.1.328's own, recorded by the
//! interop suite.

use serde_json::{Value, json};

use super::adopt::{Setup, fixture, with};

/// The fixtures in the order Claude Code sent them, as one conversation.
fn report_all(s: &Setup, pane: &str, names: &[&str]) {
    let session = "0b0b0b0b-0000-4000-8000-000000000026";
    for name in names {
        s.report(Some(pane), &with(fixture(name), "session_id", session));
    }
}

fn waiting_for(s: &Setup, pane: &str) -> Value {
    let row = s.row(pane).expect("an adopted row");
    assert_eq!(row["health"], "waiting", "{row:#}");
    row["activity"]["waiting_for"].clone()
}

#[test]
fn a_hand_started_permission_prompt_names_the_tool_and_command() {
    let s = Setup::new();
    let pane = s.hook_window();
    report_all(
        &s,
        &pane,
        &[
            "2.1.328__PermissionRequest__bash",
            "2.1.328__Notification__bash",
        ],
    );
    assert_eq!(
        waiting_for(&s, &pane),
        json!({"question": "Claude needs your permission",
               "tool": "Bash", "command": "touch allowed-by-key"})
    );
}

#[test]
fn a_hand_started_question_shows_its_numbered_choices() {
    let s = Setup::new();
    let pane = s.hook_window();
    report_all(
        &s,
        &pane,
        &[
            "2.1.328__PreToolUse__ask-user-question",
            "2.1.328__PermissionRequest__ask-user-question",
        ],
    );
    assert_eq!(
        waiting_for(&s, &pane),
        json!({"question": "Which colour shall the button be?",
               "tool": "AskUserQuestion", "command": null,
               "options": ["Red", "Blue", "Green"]})
    );
}
