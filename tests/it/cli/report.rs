//! `greenroom report` as agents run it: the real binary, a payload on stdin,
//! the session found through the environment, the sidecar read back.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use chrono::Utc;
use greenroom::hook::report::{Change, classify, parse_state_arg};
use greenroom::model::{Activity, Status};
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use serde_json::{Value, json};

const PAYLOADS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/real/claude-hook-payloads"
);

pub(crate) struct Session {
    pub(crate) dir: tempfile::TempDir,
    pub(crate) store: SidecarStore,
    pub(crate) id: uuid::Uuid,
}

impl Session {
    pub(crate) fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let store = SidecarStore::new(dir.path().join("sessions"));
        let s = Sidecar::new("agent-1", Path::new("/work/a"), "claude", Utc::now());
        store.create(&s).unwrap();
        Session {
            id: s.id,
            dir,
            store,
        }
    }

    pub(crate) fn sidecar(&self) -> Sidecar {
        self.store.read(self.id).unwrap()
    }

    pub(crate) fn raw(&self) -> Vec<u8> {
        std::fs::read(self.store.path_for(self.id)).unwrap()
    }

    pub(crate) fn log(&self) -> PathBuf {
        self.dir.path().join("greenroom.log")
    }

    pub(crate) fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_greenroom"));
        c.arg("report")
            .args(args)
            .env_clear()
            .env("GREENROOM_SESSION_ID", self.id.to_string())
            .env("GREENROOM_SIDECAR_DIR", self.store.dir())
            .env("GREENROOM_LOG", self.log())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        c
    }

    pub(crate) fn report_with(&self, mut c: Command, payload: &[u8]) -> Output {
        let mut child = c.spawn().unwrap();
        let mut stdin = child.stdin.take().unwrap();
        // A reader that gives up early (huge payload) closes the pipe: fine.
        let _ = stdin.write_all(payload);
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "exit {:?}", out.status);
        assert!(
            out.stdout.is_empty(),
            "stdout: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert!(
            out.stderr.is_empty(),
            "stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    pub(crate) fn report(&self, args: &[&str], payload: &[u8]) -> Output {
        self.report_with(self.command(args), payload)
    }
}

fn fixture(name: &str) -> Vec<u8> {
    let path = std::fs::read_dir(PAYLOADS)
        .unwrap_or_else(|e| panic!("{PAYLOADS}: {e}"))
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().contains(name))
        .unwrap_or_else(|| panic!("no fixture {name}"));
    std::fs::read(path).unwrap()
}

#[test]
fn every_real_payload_updates_the_sidecar_field_by_field() {
    struct Want {
        fixture: &'static str,
        activity: Activity,
        detail: Option<&'static str>,
        status: Status,
        agent_session_id: &'static str,
        transcript: Option<&'static str>,
        cwd: &'static str,
    }
    let wants = [
        Want {
            fixture: "StopFailure__rate_limit",
            activity: Activity::Error,
            detail: Some("429 too many requests for account user@example.com (rate_limit)"),
            status: Status::Running,
            agent_session_id: "sess-1",
            transcript: None,
            cwd: "/home/you/projects/my-project",
        },
        Want {
            fixture: "agent-deck__Stop__",
            activity: Activity::Idle,
            detail: None,
            status: Status::Running,
            agent_session_id: "8f3c2a1e-0000-4000-8000-000000000001",
            transcript: Some("/nowhere/projects/x/8f3c2a1e.jsonl"),
            cwd: "/tmp/w",
        },
        Want {
            fixture: "UserPromptSubmit",
            activity: Activity::Active,
            detail: None,
            status: Status::Running,
            agent_session_id: "8f3c2a1e-0000-4000-8000-000000000001",
            transcript: Some("/nowhere/projects/x/8f3c2a1e.jsonl"),
            cwd: "/tmp/w",
        },
        Want {
            fixture: "PostToolUse__Bash",
            activity: Activity::Active,
            detail: None,
            status: Status::Running,
            agent_session_id: "8b7fcd89-94d5-4cb5-8ee2-da8805b15c80",
            transcript: Some(
                "/Users/alice/.claude/projects/-Users-alice-code-scratch/8b7fcd89-94d5-4cb5-8ee2-da8805b15c80.jsonl",
            ),
            cwd: "/Users/alice/code/scratch",
        },
        Want {
            fixture: "PreToolUse__Bash",
            activity: Activity::Active,
            detail: None,
            status: Status::Running,
            agent_session_id: "8b7fcd89-94d5-4cb5-8ee2-da8805b15c80",
            transcript: Some(
                "/Users/alice/.claude/projects/-Users-alice-code-scratch/8b7fcd89-94d5-4cb5-8ee2-da8805b15c80.jsonl",
            ),
            cwd: "/Users/alice/code/scratch",
        },
        Want {
            fixture: "SessionEnd__other",
            activity: Activity::Idle,
            detail: Some("agent session ended (other)"),
            status: Status::Exited,
            agent_session_id: "8b7fcd89-94d5-4cb5-8ee2-da8805b15c80",
            transcript: Some(
                "/Users/alice/.claude/projects/-Users-alice-code-scratch/8b7fcd89-94d5-4cb5-8ee2-da8805b15c80.jsonl",
            ),
            cwd: "/Users/alice/code/scratch",
        },
        Want {
            fixture: "SessionStart__startup",
            activity: Activity::Idle,
            detail: None,
            status: Status::Running,
            agent_session_id: "8b7fcd89-94d5-4cb5-8ee2-da8805b15c80",
            transcript: Some(
                "/Users/alice/.claude/projects/-Users-alice-code-scratch/8b7fcd89-94d5-4cb5-8ee2-da8805b15c80.jsonl",
            ),
            cwd: "/Users/alice/code/scratch",
        },
        Want {
            // Claude Code 2.1.328 after an HTTP 400 (greenroom's interop suite).
            fixture: "StopFailure__api-error-400",
            activity: Activity::Error,
            detail: Some("API Error: 400 greenroom stand-in refuses this request"),
            status: Status::Running,
            agent_session_id: "9c9bbdd2-9084-4ba9-96f4-f0b27cd8f6c9",
            transcript: Some(
                "/tmp/.tmp9qDSSk/home/.claude/projects/-tmp--tmp9qDSSk-work/9c9bbdd2-9084-4ba9-96f4-f0b27cd8f6c9.jsonl",
            ),
            cwd: "/tmp/.tmp9qDSSk/work",
        },
        Want {
            fixture: "StopFailure__rate-limit-429",
            activity: Activity::Error,
            detail: Some(
                "API Error: Request rejected (429) · greenroom stand-in: slow down (rate_limit)",
            ),
            status: Status::Running,
            agent_session_id: "4cd7fffe-6d09-480d-95f7-2e5b3f1de36e",
            transcript: Some(
                "/tmp/.tmp8XCqhi/home/.claude/projects/-tmp--tmp8XCqhi-work/4cd7fffe-6d09-480d-95f7-2e5b3f1de36e.jsonl",
            ),
            cwd: "/tmp/.tmp8XCqhi/work",
        },
        Want {
            fixture: "Notification__permission_prompt",
            activity: Activity::AwaitingInput,
            detail: Some("Claude needs your permission to use Bash"),
            status: Status::Running,
            agent_session_id: "8d0c5a3e-1b2f-4c6d-9e7a-0f1b2c3d4e5f",
            transcript: Some(
                "/Users/alice/.claude/projects/-Users-alice-code-acme-api/8d0c5a3e-1b2f-4c6d-9e7a-0f1b2c3d4e5f.jsonl",
            ),
            cwd: "/Users/alice/code/acme-api",
        },
        Want {
            fixture: "2.1.328__PermissionRequest__bash-permission",
            activity: Activity::AwaitingInput,
            detail: Some("permission to use Bash"),
            status: Status::Running,
            agent_session_id: "701ee70e-b18c-4583-9498-3ea3e4fd7108",
            transcript: Some(
                "/home/USER/.claude/projects/-home-USER-work/701ee70e-b18c-4583-9498-3ea3e4fd7108.jsonl",
            ),
            cwd: "/home/USER/work",
        },
        Want {
            fixture: "2.1.328__Notification__bash-permission",
            activity: Activity::AwaitingInput,
            detail: Some("Claude needs your permission"),
            status: Status::Running,
            agent_session_id: "701ee70e-b18c-4583-9498-3ea3e4fd7108",
            transcript: Some(
                "/home/USER/.claude/projects/-home-USER-work/701ee70e-b18c-4583-9498-3ea3e4fd7108.jsonl",
            ),
            cwd: "/home/USER/work",
        },
        Want {
            // Claude Code 2.1.328 started by hand, the stand-in asking a
            // question (AskUserQuestion; greenroom's interop suite).
            fixture: "2.1.328__PreToolUse__ask-user-question",
            activity: Activity::Active,
            detail: None,
            status: Status::Running,
            agent_session_id: "071f77f5-db29-4045-a3fc-81f8c3857bc2",
            transcript: Some(
                "/home/USER/.claude/projects/-home-USER-work/071f77f5-db29-4045-a3fc-81f8c3857bc2.jsonl",
            ),
            cwd: "/home/USER/work",
        },
        Want {
            fixture: "2.1.328__PermissionRequest__ask-user-question",
            activity: Activity::AwaitingInput,
            detail: Some("permission to use AskUserQuestion"),
            status: Status::Running,
            agent_session_id: "071f77f5-db29-4045-a3fc-81f8c3857bc2",
            transcript: Some(
                "/home/USER/.claude/projects/-home-USER-work/071f77f5-db29-4045-a3fc-81f8c3857bc2.jsonl",
            ),
            cwd: "/home/USER/work",
        },
    ];
    assert_eq!(
        std::fs::read_dir(PAYLOADS)
            .unwrap_or_else(|e| panic!("{PAYLOADS}: {e}"))
            .count(),
        wants.len(),
        "a new fixture needs a row here"
    );
    for w in wants {
        let session = Session::new();
        let before = session.sidecar();
        let start = Utc::now();
        session.report(&[], &fixture(w.fixture));
        let s = session.sidecar();
        let f = w.fixture;
        assert_eq!(s.activity, Some(w.activity), "{f}");
        assert_eq!(s.activity_detail.as_deref(), w.detail, "{f}");
        assert_eq!(s.status, w.status, "{f}");
        assert_eq!(
            s.agent_session_id.as_deref(),
            Some(w.agent_session_id),
            "{f}"
        );
        assert_eq!(
            s.transcript_path.as_deref(),
            w.transcript.map(Path::new),
            "{f}"
        );
        assert_eq!(s.current_cwd.as_deref(), Some(Path::new(w.cwd)), "{f}");
        let reported = s.activity_reported_at.unwrap();
        assert!(reported >= start && reported <= Utc::now(), "{f}");
        assert_eq!(
            s.activity_since,
            Some(reported),
            "{f}: a new state starts its clock"
        );
        // Nothing else moved.
        assert_eq!(
            (s.name.as_str(), &s.cwd, &s.command),
            (before.name.as_str(), &before.cwd, &before.command)
        );
        assert_eq!(s.extra, before.extra);
    }
}

#[test]
fn the_first_agent_session_id_wins_and_since_moves_only_on_change() {
    let session = Session::new();
    session.report(
        &[],
        br#"{"hook_event_name":"PreToolUse","session_id":"first"}"#,
    );
    let first = session.sidecar();
    session.report(
        &[],
        br#"{"hook_event_name":"PostToolUse","session_id":"second"}"#,
    );
    let second = session.sidecar();
    assert_eq!(second.agent_session_id.as_deref(), Some("first"));
    assert_eq!(
        second.activity_since, first.activity_since,
        "same state keeps its clock"
    );
    assert!(second.activity_reported_at > first.activity_reported_at);
    session.report(&[], br#"{"hook_event_name":"Stop","session_id":"first"}"#);
    let third = session.sidecar();
    assert_eq!(third.activity, Some(Activity::Idle));
    assert!(third.activity_since > second.activity_since);
}

#[test]
fn a_state_on_the_command_line_wins() {
    let session = Session::new();
    session.report(
        &["awaiting_input"],
        br#"{"hook_event_name":"PreToolUse","session_id":"x"}"#,
    );
    let s = session.sidecar();
    assert_eq!(s.activity, Some(Activity::AwaitingInput));
    assert_eq!(s.agent_session_id.as_deref(), Some("x"));
    // With no payload at all, the STATE alone is enough.
    session.report(&["Error"], b"");
    assert_eq!(session.sidecar().activity, Some(Activity::Error));
}

#[test]
fn an_unknown_event_records_ids_but_no_activity() {
    let session = Session::new();
    session.report(
        &[],
        br#"{"hook_event_name":"SomethingNew","session_id":"abc","cwd":"/w/x"}"#,
    );
    let s = session.sidecar();
    assert_eq!(s.activity, None);
    assert_eq!(s.activity_reported_at, None);
    assert_eq!(s.agent_session_id.as_deref(), Some("abc"));
    assert_eq!(s.current_cwd.as_deref(), Some(Path::new("/w/x")));
}

#[test]
fn bad_payloads_exit_zero_silently_and_change_nothing() {
    let huge = format!(
        r#"{{"hook_event_name":"Stop","pad":"{}"}}"#,
        "x".repeat(1_100_000)
    );
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", b"".to_vec()),
        ("whitespace", b"  \n".to_vec()),
        ("not json", b"hello".to_vec()),
        (
            "truncated",
            br#"{"hook_event_name":"Stop","session"#.to_vec(),
        ),
        ("array", b"[1,2]".to_vec()),
        ("binary", vec![0, 159, 146, 150, 0xff]),
        ("huge", huge.into_bytes()),
        (
            "wrong types",
            br#"{"hook_event_name":5,"session_id":["x"],"cwd":{"a":1}}"#.to_vec(),
        ),
        ("deep", "[".repeat(100_000).into_bytes()),
    ];
    for (name, payload) in cases {
        let session = Session::new();
        let before = session.raw();
        session.report(&[], &payload);
        assert_eq!(session.raw(), before, "{name}: sidecar changed");
    }
    // A relative cwd or path is not trusted either.
    let session = Session::new();
    let before = session.raw();
    session.report(
        &[],
        br#"{"hook_event_name":"Nope","cwd":"rel/x","transcript_path":"t.jsonl"}"#,
    );
    assert_eq!(session.raw(), before);
}

#[test]
fn a_missing_environment_or_sidecar_exits_zero_and_logs() {
    let session = Session::new();
    let before = session.raw();
    let payload = br#"{"hook_event_name":"Stop"}"#;
    let mut no_id = session.command(&[]);
    no_id.env_remove("GREENROOM_SESSION_ID");
    session.report_with(no_id, payload);
    let mut no_dir = session.command(&[]);
    no_dir.env_remove("GREENROOM_SIDECAR_DIR");
    session.report_with(no_dir, payload);
    let mut bad_id = session.command(&[]);
    bad_id.env("GREENROOM_SESSION_ID", "not-a-uuid");
    session.report_with(bad_id, payload);
    let mut other = session.command(&[]);
    other.env("GREENROOM_SESSION_ID", uuid::Uuid::new_v4().to_string());
    session.report_with(other, payload);
    session.report(&["sideways"], payload);
    assert_eq!(session.raw(), before);
    let log = std::fs::read_to_string(session.log()).unwrap();
    assert!(log.contains("no session"), "{log}");
    assert!(log.contains("unknown STATE"), "{log}");

    // An unreadable sidecar stays as it was.
    std::fs::write(session.store.path_for(session.id), b"{broken").unwrap();
    session.report(&[], payload);
    assert_eq!(
        std::fs::read(session.store.path_for(session.id)).unwrap(),
        b"{broken"
    );
}

#[test]
fn events_of_agents_greenroom_did_not_start_log_nothing() {
    let session = Session::new();
    let before = session.raw();
    for event in ["SessionStart", "PreToolUse", "Stop", "SessionEnd"] {
        let mut unmanaged = session.command(&[]);
        unmanaged.env_remove("GREENROOM_SESSION_ID");
        let payload = json!({"hook_event_name": event, "session_id": "not-ours"});
        session.report_with(unmanaged, payload.to_string().as_bytes());
    }
    assert_eq!(session.raw(), before);
    let log = std::fs::read_to_string(session.log()).unwrap_or_default();
    assert_eq!(
        log, "",
        "an unmanaged session's events are not worth a line"
    );
}

#[test]
fn racing_reports_and_focus_updates_lose_nothing() {
    const PROCESSES: usize = 16;
    const REPORTS: usize = 200;
    const FOCUS_UPDATES: usize = 300;
    let session = Arc::new(Session::new());
    let done = Arc::new(AtomicBool::new(false));
    let reader = {
        let (session, done) = (session.clone(), done.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                let raw = session.raw();
                let text = String::from_utf8(raw).unwrap();
                Sidecar::parse(&text).unwrap_or_else(|e| panic!("torn: {e}: {text}"));
            }
        })
    };
    let focus = {
        let session = session.clone();
        std::thread::spawn(move || {
            for _ in 0..FOCUS_UPDATES {
                session
                    .store
                    .update(session.id, Duration::from_secs(30), |s| {
                        let n: usize = s.metadata.get("focus").map_or(0, |v| v.parse().unwrap());
                        s.metadata.insert("focus".into(), (n + 1).to_string());
                        s.last_focused_at = Some(Utc::now());
                        true
                    })
                    .unwrap();
            }
        })
    };
    // Each "process" is a hook runner firing its reports one after another.
    let runners: Vec<_> = (0..PROCESSES)
        .map(|p| {
            let session = session.clone();
            std::thread::spawn(move || {
                for r in 0..REPORTS {
                    let event = if r % 2 == 0 { "PreToolUse" } else { "PostToolUse" };
                    let payload = json!({"hook_event_name": event, "session_id": format!("agent-{p}"), "cwd": format!("/w/{p}")});
                    session.report(&[], payload.to_string().as_bytes());
                }
            })
        })
        .collect();
    for r in runners {
        r.join().unwrap();
    }
    focus.join().unwrap();
    done.store(true, Ordering::Relaxed);
    reader.join().unwrap();
    let s = session.sidecar();
    assert_eq!(
        s.metadata["focus"],
        FOCUS_UPDATES.to_string(),
        "a focus update was lost"
    );
    assert!(s.last_focused_at.is_some());
    assert_eq!(s.activity, Some(Activity::Active));
    assert!(
        s.agent_session_id
            .as_deref()
            .is_some_and(|id| id.starts_with("agent-"))
    );
    assert!(s.current_cwd.is_some());
    // A report whose lock stayed busy is handed to a copy of the process
    // that waits longer; every report that failed says so in the log.
    let count = |what: &str| {
        let log = std::fs::read_to_string(session.log()).unwrap_or_default();
        log.lines().filter(|l| l.contains(what)).count()
    };
    crate::support::wait_for(120, "deferred reports to land", || {
        (count("deferred report recorded") + count("report ignored") >= count("report deferred"))
            .then_some(())
    });
    let log = std::fs::read_to_string(session.log()).unwrap_or_default();
    let dropped = count("report ignored");
    assert_eq!(
        dropped,
        0,
        "{dropped} of {} reports dropped:\n{log}",
        PROCESSES * REPORTS
    );
}

#[test]
fn event_table_for_claude_and_gemini() {
    let c = |v: Value| classify(&v);
    let act = |a: Activity| Change::Activity(a, None);
    for e in [
        "UserPromptSubmit",
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "SubagentStart",
        "SubagentStop",
        "PreCompact",
        "BeforeAgent",
        "BeforeModel",
        "AfterModel",
        "BeforeTool",
        "AfterTool",
        "PreCompress",
    ] {
        assert_eq!(
            c(json!({"hook_event_name": e})),
            act(Activity::Active),
            "{e}"
        );
    }
    for e in ["SessionStart", "AfterAgent", "Stop"] {
        assert_eq!(c(json!({"hook_event_name": e})), act(Activity::Idle), "{e}");
    }
    assert_eq!(
        c(
            json!({"hook_event_name": "Stop", "background_tasks": [{"id": "b1", "status": "running"}]})
        ),
        act(Activity::Active)
    );
    assert_eq!(
        c(
            json!({"hook_event_name": "Stop", "background_tasks": [{"id": "b1", "status": "completed"}]})
        ),
        act(Activity::Idle)
    );
    let note = |t: Option<&str>, m: &str| {
        let mut v = json!({"hook_event_name": "Notification", "message": m});
        if let Some(t) = t {
            v["notification_type"] = json!(t);
        }
        c(v)
    };
    let waiting = |m: &str| Change::Activity(Activity::AwaitingInput, Some(m.into()));
    assert_eq!(note(Some("permission_prompt"), "p"), waiting("p"));
    assert_eq!(note(Some("elicitation_dialog"), "q"), waiting("q"));
    // Claude Code 2.1.328's notification for its own blocking dialogs.
    assert_eq!(note(Some("agent_needs_input"), "d"), waiting("d"));
    assert_eq!(note(Some("ToolPermission"), "g"), waiting("g"));
    assert_eq!(note(Some("idle_prompt"), "x"), act(Activity::Idle));
    assert_eq!(note(Some("auth_success"), "x"), Change::Nothing);
    assert_eq!(
        note(None, "Claude needs your permission to use Bash"),
        waiting("Claude needs your permission to use Bash")
    );
    assert_eq!(
        note(None, "Claude is waiting for your input"),
        waiting("Claude is waiting for your input")
    );
    assert_eq!(note(None, "Build finished"), Change::Nothing);
    assert_eq!(
        c(json!({"hook_event_name": "PermissionRequest", "tool_name": "Bash"})),
        Change::Activity(
            Activity::AwaitingInput,
            Some("permission to use Bash".into())
        )
    );
    assert_eq!(
        c(json!({"hook_event_name": "StopFailure", "error": "rate_limit"})),
        Change::Activity(Activity::Error, Some("rate_limit".into()))
    );
    // Claude Code 2.1.328 on an HTTP 400: the kind is "unknown", the words
    // are in last_assistant_message (tests/fixtures/real/...claude-code-2.1.328...).
    assert_eq!(
        c(json!({"hook_event_name": "StopFailure", "error": "unknown",
                 "last_assistant_message": "API Error: 400 bad request"})),
        Change::Activity(Activity::Error, Some("API Error: 400 bad request".into()))
    );
    assert_eq!(
        c(json!({"hook_event_name": "StopFailure", "error": "unknown"})),
        Change::Activity(Activity::Error, Some("unknown".into()))
    );
    assert_eq!(
        c(json!({"hook_event_name": "SessionEnd"})),
        Change::Ended(None)
    );
    assert_eq!(c(json!({"hook_event_name": "Whatever"})), Change::Nothing);
    assert_eq!(c(json!({})), Change::Nothing);
}

#[test]
fn state_arguments_are_forgiving() {
    assert_eq!(
        parse_state_arg("AwaitingInput"),
        Some(Change::Activity(Activity::AwaitingInput, None))
    );
    assert_eq!(
        parse_state_arg("awaiting_input"),
        Some(Change::Activity(Activity::AwaitingInput, None))
    );
    assert_eq!(
        parse_state_arg("IDLE"),
        Some(Change::Activity(Activity::Idle, None))
    );
    assert_eq!(parse_state_arg("exited"), Some(Change::Ended(None)));
    assert_eq!(parse_state_arg("sideways"), None);
}

/// Gemini CLI 0.61.0's own payloads (captured from the real CLI, shortened).
#[test]
fn gemini_clear_keeps_the_session_and_learns_the_new_conversation() {
    let session = Session::new();
    let start = |id: &str, source: &str| {
        format!(
            r#"{{"session_id":"{id}","transcript_path":"/h/.gemini/tmp/p/chats/session-2026-12-01T09-55-{}.jsonl","cwd":"/w","hook_event_name":"SessionStart","source":"{source}"}}"#,
            &id[..8]
        )
    };
    let first = "3b6ddb42-8c51-4baf-a8de-c153b6805576";
    let second = "b69bd2df-6e2d-4b45-9948-1ccc4cb4cac9";
    session.report(&[], start(first, "startup").as_bytes());
    assert_eq!(session.sidecar().agent_session_id.as_deref(), Some(first));
    let end =
        format!(r#"{{"session_id":"{first}","hook_event_name":"SessionEnd","reason":"clear"}}"#);
    session.report(&[], end.as_bytes());
    assert_eq!(
        session.sidecar().status,
        Status::Running,
        "/clear is no exit"
    );
    session.report(&[], start(second, "clear").as_bytes());
    let s = session.sidecar();
    assert_eq!(s.agent_session_id.as_deref(), Some(second));
    assert!(
        s.transcript_path
            .unwrap()
            .ends_with("chats/session-2026-12-01T09-55-b69bd2df.jsonl")
    );
    let ask = br#"{"session_id":"b69bd2df-6e2d-4b45-9948-1ccc4cb4cac9","hook_event_name":"Notification","notification_type":"ToolPermission","message":"Tool Confirm Shell Command requires execution","details":{"type":"exec","title":"Confirm Shell Command","command":"touch tool-was-here","rootCommand":"touch"}}"#;
    session.report(&[], ask);
    let s = session.sidecar();
    assert_eq!(s.activity, Some(Activity::AwaitingInput));
    assert_eq!(s.activity_detail.as_deref(), Some("touch tool-was-here"));
    let exit =
        format!(r#"{{"session_id":"{second}","hook_event_name":"SessionEnd","reason":"exit"}}"#);
    session.report(&[], exit.as_bytes());
    assert_eq!(session.sidecar().status, Status::Exited);
}

/// Claude Code's `/clear` (2.1.328: SessionStart with source "clear", a new
/// session id and transcript): the record keeps the transcript it left, so
/// the session's spend keeps that conversation's; going back to it
/// (`/resume`) leaves each transcript named once.
#[test]
fn clear_keeps_the_earlier_transcript_once() {
    let session = Session::new();
    let start = |id: &str, source: &str| {
        format!(
            r#"{{"session_id":"{id}","transcript_path":"/h/.claude/projects/-w/{id}.jsonl","cwd":"/w","hook_event_name":"SessionStart","source":"{source}"}}"#
        )
    };
    session.report(&[], start("aaaa", "startup").as_bytes());
    session.report(&[], start("aaaa", "startup").as_bytes());
    assert!(session.sidecar().earlier_transcripts.is_empty());
    session.report(&[], start("bbbb", "clear").as_bytes());
    let s = session.sidecar();
    assert_eq!(s.agent_session_id.as_deref(), Some("bbbb"));
    assert_eq!(
        s.earlier_transcripts,
        [PathBuf::from("/h/.claude/projects/-w/aaaa.jsonl")]
    );
    session.report(&[], start("aaaa", "resume").as_bytes());
    let s = session.sidecar();
    assert_eq!(
        s.transcript_path.as_deref(),
        Some(Path::new("/h/.claude/projects/-w/aaaa.jsonl"))
    );
    assert_eq!(
        s.earlier_transcripts,
        [PathBuf::from("/h/.claude/projects/-w/bbbb.jsonl")]
    );
}
