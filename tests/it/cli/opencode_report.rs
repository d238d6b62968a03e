//! `greenroom report` fed OpenCode's events (what greenroom's OpenCode
//! plugin passes on): busy is active, a permission prompt waits with its
//! tool and command, a reply works again (or stops, rejected), idle is
//! idle; the session id is OpenCode's, the agent OpenCode. The events are
//! built from OpenCode 1.18's own shapes (tests/fixtures/opencode/README.md).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use greenroom::model::Activity;
use serde_json::{Value, json};

use super::adopt::Setup;
use super::report::Session;

const EVENTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/opencode");
const SESSION: &str = "ses_1f3c9a8e2ffeQ7xWmB4kLpZ0aD";
const COMMAND: &str = "rm -rf build/* && npm run build";

pub(super) fn event(name: &str) -> Value {
    let path = format!("{EVENTS}/{name}.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap()
}

fn report(s: &Session, event: &Value) {
    s.report(&[], event.to_string().as_bytes());
}

#[test]
fn opencode_s_events_read_as_what_its_session_does() {
    let s = Session::new();
    let steps: [(&str, Activity, Option<&str>); 5] = [
        ("session.status__busy", Activity::Active, None),
        (
            "permission.asked__bash",
            Activity::AwaitingInput,
            Some("permission to use bash"),
        ),
        ("permission.replied__once", Activity::Active, None),
        ("session.status__idle", Activity::Idle, None),
        ("session.idle", Activity::Idle, None),
    ];
    for (name, activity, detail) in steps {
        report(&s, &event(name));
        let sc = s.sidecar();
        assert_eq!(sc.activity, Some(activity), "{name}");
        assert_eq!(sc.activity_detail.as_deref(), detail, "{name}");
        assert_eq!(sc.agent_session_id.as_deref(), Some(SESSION), "{name}");
        let call = sc.activity_tool;
        if name.starts_with("permission.asked") {
            let call = call.expect("the call OpenCode holds");
            assert_eq!(call.tool.as_deref(), Some("bash"));
            assert_eq!(call.command.as_deref(), Some(COMMAND));
        } else {
            assert_eq!(call, None, "{name}");
        }
    }
    // An edit asks with its file (never its diff); a rejection ends the turn.
    report(&s, &event("session.status__busy"));
    report(&s, &event("permission.asked__edit"));
    let call = s.sidecar().activity_tool.unwrap();
    assert_eq!(call.tool.as_deref(), Some("edit"));
    assert_eq!(
        call.command.as_deref(),
        Some("/home/dev/code/shop/src/cart.ts")
    );
    report(&s, &event("permission.replied__reject"));
    assert_eq!(s.sidecar().activity, Some(Activity::Idle));
    // A retry is still work, and says why.
    report(&s, &event("session.status__retry"));
    let sc = s.sidecar();
    assert_eq!(sc.activity, Some(Activity::Active));
    assert_eq!(
        sc.activity_detail.as_deref(),
        Some("retrying: Provider is overloaded")
    );
}

/// What the plugin adds: the folder OpenCode runs in, and whether the
/// session is a subagent's, whose id is not the one to resume.
#[test]
fn the_folder_and_a_new_session_are_recorded_and_a_subagent_s_id_is_not() {
    let s = Session::new();
    let mut busy = event("session.status__busy");
    busy["directory"] = json!("/home/dev/code/shop");
    report(&s, &busy);
    let sc = s.sidecar();
    assert_eq!(
        sc.current_cwd.as_deref(),
        Some("/home/dev/code/shop".as_ref())
    );
    assert_eq!(sc.agent_session_id.as_deref(), Some(SESSION));

    let mut asked = event("permission.asked__bash");
    asked["properties"]["sessionID"] = json!("ses_1f3c9a8e5a01Tt6uVw2xYz3AbC");
    asked["subagent"] = json!(true);
    report(&s, &asked);
    let sc = s.sidecar();
    assert_eq!(sc.activity, Some(Activity::AwaitingInput));
    assert_eq!(sc.agent_session_id.as_deref(), Some(SESSION));

    // `/new` in OpenCode: another session, which restore must resume.
    let mut created = event("session.created");
    let next = "ses_1f3c9a9b0000Zz9yXw8vUt7sRq";
    created["properties"]["sessionID"] = json!(next);
    created["properties"]["info"]["id"] = json!(next);
    report(&s, &created);
    assert_eq!(s.sidecar().agent_session_id.as_deref(), Some(next));
    report(&s, &event("session.created__subagent"));
    assert_eq!(s.sidecar().agent_session_id.as_deref(), Some(next));
}

/// Every field is untrusted: a wrong type, a control character or a huge
/// text never makes a bad record, and never an error the agent sees.
#[test]
fn bad_fields_are_refused_or_bounded() {
    let s = Session::new();
    let mut asked = event("permission.asked__bash");
    asked["properties"]["permission"] = json!(format!("ba\u{1b}[2Jsh{}", "x".repeat(5000)));
    asked["properties"]["metadata"]["command"] = json!(7);
    asked["properties"]["patterns"] = json!(["ls\n-la", 3, "/etc"]);
    asked["properties"]["sessionID"] = json!("ses_\u{7}bell");
    asked["directory"] = json!("relative/dir");
    report(&s, &asked);
    let sc = s.sidecar();
    assert_eq!(sc.activity, Some(Activity::AwaitingInput));
    assert_eq!(sc.agent_session_id, None);
    assert_eq!(sc.current_cwd, None);
    let call = sc.activity_tool.unwrap();
    let tool = call.tool.unwrap();
    assert!(
        tool.starts_with("ba [2Jshxxx") && tool.chars().count() <= 201,
        "{tool}"
    );
    assert_eq!(call.command.as_deref(), Some("ls -la /etc"));
    assert!(sc.activity_detail.unwrap().chars().count() <= 201);

    let before = s.raw();
    for odd in [
        json!({"type": "session.status", "properties": "busy"}),
        json!({"type": "session.status", "properties": {"status": {"type": 1}}}),
        json!({"type": "permission.replied", "properties": {"reply": "maybe"}}),
        json!({"type": "message.part.updated", "properties": {"sessionID": SESSION}}),
    ] {
        report(&s, &odd);
        assert_eq!(s.raw(), before, "{odd}");
    }
}

#[test]
fn a_hand_started_opencode_is_an_opencode_row_waiting_with_its_command() {
    let s = Setup::new();
    let pane = s.hook_window();
    s.report(Some(&pane), &event("session.status__busy"));
    let row = s.row(&pane).expect("an adopted row");
    assert_eq!(row["name"], "opencode@work", "{row:#}");
    assert_eq!(row["agent_session_id"], SESSION);
    assert_eq!(row["activity"]["state"], "active");

    s.report(Some(&pane), &event("permission.asked__bash"));
    let row = s.row(&pane).unwrap();
    assert_eq!(row["health"], "waiting", "{row:#}");
    assert_eq!(
        row["activity"]["waiting_for"],
        json!({"question": "permission to use bash", "tool": "bash", "command": COMMAND})
    );
    s.report(Some(&pane), &event("permission.replied__once"));
    assert_eq!(s.row(&pane).unwrap()["activity"]["state"], "active");
    s.report(Some(&pane), &event("session.idle"));
    let row = s.row(&pane).unwrap();
    assert_eq!(row["activity"]["state"], "idle");
    assert_eq!(row["name"], "opencode@work");
}

#[test]
fn opencode_s_question_waits_with_its_choices_and_its_error_is_in_its_words() {
    let s = Setup::new();
    let pane = s.hook_window();
    s.report(Some(&pane), &event("session.status__busy"));
    s.report(Some(&pane), &event("question.asked"));
    let row = s.row(&pane).unwrap();
    assert_eq!(row["health"], "waiting", "{row:#}");
    // The first question (OpenCode shows one at a time), its choices in order.
    let w = &row["activity"]["waiting_for"];
    assert_eq!(
        w["question"], "Which database should the shop use?",
        "{row:#}"
    );
    assert_eq!(w["tool"], "question", "{row:#}");
    assert_eq!(w["options"], json!(["PostgreSQL", "SQLite"]), "{row:#}");
    s.report(Some(&pane), &event("question.replied"));
    let row = s.row(&pane).unwrap();
    assert_eq!(row["activity"]["state"], "active", "{row:#}");
    assert!(row["activity"]["waiting_for"].is_null(), "{row:#}");
    // Dismissed: the tool fails and the turn ends.
    s.report(Some(&pane), &event("question.asked"));
    s.report(Some(&pane), &event("question.rejected"));
    assert_eq!(s.row(&pane).unwrap()["activity"]["state"], "idle");

    s.report(Some(&pane), &event("session.status__busy"));
    s.report(Some(&pane), &event("session.error"));
    let row = s.row(&pane).unwrap();
    assert_eq!(row["activity"]["state"], "error", "{row:#}");
    assert_eq!(
        row["activity"]["detail"], "Incorrect API key provided",
        "{row:#}"
    );
    // The operator's own interruption is no error.
    s.report(Some(&pane), &event("session.status__busy"));
    s.report(Some(&pane), &event("session.error__aborted"));
    assert_eq!(s.row(&pane).unwrap()["activity"]["state"], "idle");
}
