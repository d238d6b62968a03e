//! `greenroom report` from Codex CLI: its hook payloads (Claude Code's
//! shape, with Codex's `turn_id` and its rollout as `transcript_path`) and
//! its `notify` program, which gets its JSON as the last argument with
//! nothing on stdin. The payloads are the real Codex CLI 0.169.0's, and
//! for the events a run without a model cannot reach, derived from Codex's
//! own source (tests/fixtures/real/codex-hook-payloads/README.md).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Stdio;

use greenroom::model::Activity;
use serde_json::{Value, json};

use super::adopt::Setup;
use super::report::Session;

const PAYLOADS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/real/codex-hook-payloads"
);
const SESSION: &str = "019ad7c4-8f21-7b30-9e44-5c1d2a3b4f60";

fn text(name: &str) -> String {
    let path = std::fs::read_dir(PAYLOADS)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().contains(name))
        .unwrap_or_else(|| panic!("no fixture {name}"));
    std::fs::read_to_string(path).unwrap().trim().to_owned()
}

fn fixture(name: &str) -> Value {
    serde_json::from_str(&text(name)).unwrap()
}

/// Codex's notify: `greenroom report '<json>'`, stdin /dev/null.
fn notify(s: &Session, arg: &str) {
    let mut c = s.command(&[arg]);
    c.stdin(Stdio::null());
    let out = c.output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
}

#[test]
fn codex_s_events_read_as_what_its_session_does() {
    let s = Session::new();
    let steps: [(&str, Activity, Option<&str>); 6] = [
        ("schema__SessionStart__startup", Activity::Idle, None),
        ("schema__UserPromptSubmit", Activity::Active, None),
        ("PreToolUse__Bash", Activity::Active, None),
        (
            "PermissionRequest__Bash",
            Activity::AwaitingInput,
            Some("permission to use Bash"),
        ),
        ("PostToolUse__Bash", Activity::Active, None),
        ("schema__Stop", Activity::Idle, None),
    ];
    for (name, activity, detail) in steps {
        s.report(&[], text(name).as_bytes());
        let sc = s.sidecar();
        assert_eq!(sc.activity, Some(activity), "{name}");
        assert_eq!(sc.activity_detail.as_deref(), detail, "{name}");
        assert_eq!(sc.agent_session_id.as_deref(), Some(SESSION), "{name}");
        assert_eq!(
            sc.current_cwd.as_deref(),
            Some("/home/dev/code/shop".as_ref())
        );
        if name.starts_with("PermissionRequest") {
            let call = sc.activity_tool.expect("the call Codex holds");
            assert_eq!(call.tool.as_deref(), Some("Bash"));
            assert_eq!(
                call.command.as_deref(),
                Some("rm -rf target/debug/incremental")
            );
        }
    }
    assert_eq!(s.sidecar().activity_tool, None, "Stop ends the turn");
}

#[test]
fn codex_s_notify_argument_ends_the_turn_with_its_thread_id() {
    let s = Session::new();
    s.report(&[], text("schema__UserPromptSubmit").as_bytes());
    let turn = text("legacy-notify__agent-turn-complete");
    notify(&s, &turn);
    let sc = s.sidecar();
    assert_eq!(sc.activity, Some(Activity::Idle));
    assert_eq!(
        sc.current_cwd.as_deref(),
        Some("/Users/example/project".as_ref())
    );
    // The hooks' session id came first and stays.
    assert_eq!(sc.agent_session_id.as_deref(), Some(SESSION));

    // Without hooks, the notice alone names the session.
    let bare = Session::new();
    notify(&bare, &turn);
    let sc = bare.sidecar();
    assert_eq!(sc.activity, Some(Activity::Idle));
    assert_eq!(
        sc.agent_session_id.as_deref(),
        Some("b5f6c1c2-1111-2222-3333-444455556666")
    );
    let log = std::fs::read_to_string(bare.log()).unwrap_or_default();
    assert!(!log.contains("unknown STATE"), "{log}");
}

#[test]
fn anything_but_a_turn_complete_notice_is_an_unknown_state() {
    let s = Session::new();
    let before = s.raw();
    // Near the most Linux passes in one argument (the cap itself is
    // checked in-process: a longer argument cannot be passed at all).
    let huge = format!(
        r#"{{"type":"agent-turn-begun","thread-id":"t","pad":"{}"}}"#,
        "x".repeat(120 * 1024)
    );
    let other = json!({"type": "agent-turn-started", "thread-id": "t"}).to_string();
    let no_id = json!({"type": "agent-turn-complete", "turn-id": "1"}).to_string();
    let bad_id = json!({"type": "agent-turn-complete", "thread-id": "a\u{1b}[2Jb"}).to_string();
    for arg in [huge.as_str(), &other, &no_id, &bad_id, "{not json", "[1]"] {
        notify(&s, arg);
        assert_eq!(s.raw(), before, "{}", &arg[..arg.len().min(60)]);
    }
    let log = std::fs::read_to_string(s.log()).unwrap();
    assert_eq!(log.matches("unknown STATE").count(), 6, "{log}");
    assert!(log.len() < 10 * 1024, "the log gets the start only");
}

#[test]
fn a_hand_started_codex_is_a_codex_row_waiting_with_its_command() {
    let s = Setup::new();
    let pane = s.hook_window();
    s.report(Some(&pane), &fixture("schema__SessionStart__startup"));
    let row = s.row(&pane).expect("an adopted row");
    assert_eq!(row["name"], "codex@work", "{row:#}");
    assert_eq!(row["agent_session_id"], SESSION);
    assert_eq!(row["activity"]["state"], "idle");

    s.report(Some(&pane), &fixture("PermissionRequest__Bash"));
    let row = s.row(&pane).unwrap();
    assert_eq!(row["health"], "waiting", "{row:#}");
    assert_eq!(
        row["activity"]["waiting_for"],
        json!({"question": "permission to use Bash", "tool": "Bash",
               "command": "rm -rf target/debug/incremental"})
    );
    s.report(Some(&pane), &fixture("schema__Stop"));
    assert_eq!(s.row(&pane).unwrap()["activity"]["state"], "idle");
}

/// Without a rollout (`transcript_path: null`) Codex's SessionStart is
/// still Codex's; and its notify, run inside the pane, makes a Codex row.
#[test]
fn a_codex_without_rollout_or_hooks_is_still_codex() {
    let s = Setup::new();
    let pane = s.hook_window();
    s.report(Some(&pane), &fixture("schema__SessionStart__no-rollout"));
    assert_eq!(s.row(&pane).unwrap()["name"], "codex@work");

    let notified = s.hook_window();
    let turn = text("legacy-notify__agent-turn-complete");
    let (line, done) = s.report_line_with(Some(&notified), &[&turn], None);
    s.run_in(&notified, &line);
    s.report_done(&done);
    let row = s.row(&notified).expect("a row from the notice");
    assert_eq!(row["name"], "codex@work", "{row:#}");
    assert_eq!(
        row["agent_session_id"],
        "b5f6c1c2-1111-2222-3333-444455556666"
    );
    assert_eq!(row["activity"]["state"], "idle");
}

/// The real Codex CLI 0.169.0's own payloads and notify argument, from one
/// `codex exec` turn against a stand-in model: one conversation, one id.
#[test]
fn the_real_codex_s_turn_reads_active_then_idle_with_its_thread_id() {
    const REAL: &str = "01a236a8-587f-7d31-b018-fbd79dfb1902";
    let s = Session::new();
    s.report(&[], text("real-codex-0.169.0__SessionStart").as_bytes());
    assert_eq!(s.sidecar().activity, Some(Activity::Idle));
    s.report(&[], text("real-codex-0.169.0__UserPromptSubmit").as_bytes());
    assert_eq!(s.sidecar().activity, Some(Activity::Active));
    s.report(&[], text("real-codex-0.169.0__Stop").as_bytes());
    assert_eq!(s.sidecar().activity, Some(Activity::Idle));
    s.report(&[], text("real-codex-0.169.0__UserPromptSubmit").as_bytes());
    notify(&s, &text("real-codex-0.169.0__notify"));
    let sc = s.sidecar();
    assert_eq!(
        sc.activity,
        Some(Activity::Idle),
        "the notice ends the turn"
    );
    assert_eq!(sc.agent_session_id.as_deref(), Some(REAL));
    assert_eq!(sc.current_cwd.as_deref(), Some("/tmp/cx/work".as_ref()));
    // Codex ends (its SessionEnd, from another run of the same build).
    let end = text("real-codex-0.169.0__SessionEnd")
        .replace("01a236ac-ebd6-7730-b244-3c927dc86765", REAL);
    s.report(&[], end.as_bytes());
    let sc = s.sidecar();
    assert_eq!(sc.status, greenroom::model::Status::Exited);
    assert_eq!(
        sc.activity_detail.as_deref(),
        Some("agent session ended (other)")
    );

    let hand = Setup::new();
    let pane = hand.hook_window();
    hand.report(Some(&pane), &fixture("real-codex-0.169.0__SessionStart"));
    let row = hand.row(&pane).unwrap();
    assert_eq!(row["name"], "codex@work", "{row:#}");
    assert_eq!(row["agent_session_id"], REAL);
}
