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

/// Claude Code's own dialogs (a first-run question) fire no hook: its
/// record, written after the last hook, says it waits, and the row does,
/// in the record's words. A hook's later word wins again.
#[test]
fn a_dialog_claude_codes_record_says_blocks_it_reads_waiting() {
    let s = Setup::new();
    let pane = s.hook_window();
    let session = "0b0b0b0b-0000-4000-8000-000000000026";
    s.report(
        Some(&pane),
        &with(fixture("SessionStart__startup"), "session_id", session),
    );
    // Idle by its hook's word, never looked at: ready for the operator.
    assert_eq!(s.row(&pane).unwrap()["health"], "ready");
    claude_record_says_waiting(&s, &pane, session, "dialog open");
    let row = s.row(&pane).unwrap();
    assert_eq!(row["health"], "waiting", "{row:#}");
    assert_eq!(row["activity"]["source"], "claude-registry", "{row:#}");
    assert_eq!(
        row["activity"]["waiting_for"],
        json!({"question": "dialog open", "tool": null, "command": null})
    );
    // The operator answers the dialog and prompts: the hook speaks again.
    let prompt = with(
        fixture("agent-deck__UserPromptSubmit"),
        "session_id",
        session,
    );
    s.report(Some(&pane), &prompt);
    let row = s.row(&pane).unwrap();
    assert_eq!(row["health"], "active", "{row:#}");
    assert_eq!(row["activity"]["source"], "hook", "{row:#}");
}

/// Writes Claude Code's own record of the pane, saying it waits (the
/// captured record's fields, tests/fixtures/real/claude-sessions, with
/// the status Claude Code 2.1.328 gives a wait), newer than every hook.
fn claude_record_says_waiting(s: &Setup, pane: &str, session: &str, waiting_for: &str) {
    let info = s.tmux.run(&[
        "display-message",
        "-p",
        "-t",
        pane,
        "#{pane_pid} #{session_name}:#{window_id}",
    ]);
    let (pid, place) = info.trim().split_once(' ').unwrap();
    let dir = s.world.path("claude/sessions");
    std::fs::create_dir_all(&dir).unwrap();
    let at = chrono::Utc::now().timestamp_millis();
    let record = json!({"pid": pid.parse::<u32>().unwrap(), "sessionId": session,
        "cwd": "/home/USER/work", "startedAt": at - 5000, "version": "2.1.328",
        "kind": "interactive", "entrypoint": "cli", "tmux": format!("{place}.{pane}"),
        "status": "waiting", "updatedAt": at, "statusUpdatedAt": at,
        "waitingFor": waiting_for});
    std::fs::write(dir.join(format!("{pid}.json")), record.to_string()).unwrap();
}

/// Claude Code's record turns waiting on a question moments before the
/// question's PermissionRequest hook: the row already says the question
/// and its choices the PreToolUse hook named, not the record's "input
/// needed" (the interop suite caught that moment once).
#[test]
fn a_question_the_record_says_before_its_hook_shows_its_choices() {
    let s = Setup::new();
    let pane = s.hook_window();
    let session = "0b0b0b0b-0000-4000-8000-000000000026";
    report_all(&s, &pane, &["2.1.328__PreToolUse__ask-user-question"]);
    claude_record_says_waiting(&s, &pane, session, "input needed");
    let row = s.row(&pane).unwrap();
    assert_eq!(row["activity"]["source"], "claude-registry", "{row:#}");
    assert_eq!(
        waiting_for(&s, &pane),
        json!({"question": "Which colour shall the button be?",
               "tool": "AskUserQuestion", "command": null,
               "options": ["Red", "Blue", "Green"]})
    );
}

/// `z` (or `greenroom snooze`) on a hand-started row snoozes it like any
/// other: the row says until when and leaves the attention queue.
#[test]
fn a_hand_started_waiting_row_can_be_snoozed() {
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
    assert_eq!(s.row(&pane).unwrap()["health"], "waiting");
    let gr = crate::support::actions::Greenroom::new(&s.world, &s.tmux);
    gr.ok(&["snooze", "--", &pane]);
    let row = s.row(&pane).unwrap();
    assert!(row["snoozed_until"].is_string(), "{row:#}");
    let status = gr.ok(&["status"]);
    assert!(
        !status.contains("waiting"),
        "the queue leaves it out: {status}"
    );
}
