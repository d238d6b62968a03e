//! Stuck is silence from the agent, not from the screen: a session whose
//! agent said it works (a hook's Active report) and has said nothing since
//! is stuck after `stuck_after_seconds`, however its pane moves; its why
//! line names the silence and the last thing the agent said.

use crate::support;

use super::health::{ago, inputs, now, report, t, tmux};
use chrono::{Duration, Utc};
use greenroom::catalog::Catalog;
use greenroom::health::{Report, effective_activity, health};
use greenroom::model::{Activity, Health, Session, Status};
use greenroom::sources::sidecar::{Sidecar, SidecarStore, ToolCall};
use greenroom::sources::transcript::TranscriptUsage;
use greenroom::tmux::Tmux;
use support::{Pane, TmuxServer, World};

/// A pane that redraws every fifth of a second, as Claude Code's spinner
/// and timer do while a turn runs (also while its API call hangs).
const SPINNER: &str = "while :; do date +%s%N; sleep 0.2; done";

/// A record of session `name`, its agent's last report `state` made
/// `minutes` ago, with the tool call it held; its pane runs [`SPINNER`].
fn spinning(world: &World, tmux: &TmuxServer, name: &str, state: Activity, minutes: i64) {
    let store = SidecarStore::new(world.path("sessions"));
    let cwd = world.path("work");
    std::fs::create_dir_all(&cwd).unwrap();
    let said = Utc::now() - Duration::minutes(minutes);
    let mut s = Sidecar::new(name, &cwd, "claude", said);
    s.tmux_session = Some(format!("gr-{name}"));
    s.activity = Some(state);
    s.activity_since = Some(said);
    s.activity_reported_at = Some(said);
    s.last_activity_at = Some(said);
    s.activity_tool = Some(ToolCall {
        tool: Some("Bash".into()),
        command: Some("npm test".into()),
        ..Default::default()
    });
    store.create(&s).unwrap();
    tmux.spawn(&format!("gr-{name}"), &["sh", "-c", SPINNER]);
}

/// The rows as `greenroom ls` builds them: the files, one tmux poll.
pub(super) fn rows_of(world: &World, tmux: &TmuxServer) -> Vec<Session> {
    let config = world.config(Some(tmux), &[]);
    let mut catalog = Catalog::load(&config, false);
    catalog.set_tmux(Tmux::new(config.tmux_socket.clone()).poll());
    catalog.rows(Utc::now())
}

pub(super) fn row<'a>(rows: &'a [Session], name: &str) -> &'a Session {
    rows.iter().find(|r| r.name == name).unwrap()
}

#[test]
fn an_agent_silent_since_its_active_report_is_stuck_while_its_pane_moves() {
    let world = World::new();
    let tmux = TmuxServer::new();
    spinning(&world, &tmux, "hung", Activity::Active, 15);
    spinning(&world, &tmux, "done", Activity::Idle, 15);
    // Both panes moving now.
    for name in ["gr-hung", "gr-done"] {
        Pane::new(&tmux, name).until(10, "the pane moving", |t| t.lines().count() > 2);
    }
    let rows = rows_of(&world, &tmux);
    let hung = row(&rows, "hung");
    assert_eq!(hung.health, Health::Stuck, "{hung:#?}");
    assert_eq!(
        hung.why.at(Utc::now()),
        "no word from the agent for 15m; last: Bash `npm test`: stuck after 10m"
    );
    // Said it was done, and its pane moves (the operator types): active,
    // as tmux shows it; nothing is expected of it, so never stuck.
    let done = row(&rows, "done");
    assert_eq!(done.health, Health::Active, "{done:#?}");
    tmux.kill();
}

/// Claude Code's own record of the conversation (`sessions/<pid>.json`),
/// written by this test's process (alive, with a parent), as Claude Code
/// writes it: `busy` or `idle` since `at`.
pub(super) fn record(world: &World, session_id: &str, status: &str, at: chrono::DateTime<Utc>) {
    let pid = std::process::id();
    let dir = world.path("claude/sessions");
    std::fs::create_dir_all(&dir).unwrap();
    let ms = at.timestamp_millis();
    let text = format!(
        r#"{{"pid":{pid},"sessionId":"{session_id}","cwd":"{cwd}","status":"{status}","updatedAt":{ms},"statusUpdatedAt":{ms},"version":"2.1.328"}}"#,
        cwd = world.path("work").display(),
    );
    std::fs::write(dir.join(format!("{pid}.json")), text).unwrap();
}

/// A record of session `name` whose agent (conversation `name`) said
/// Active `minutes` ago; its pane printed once since, then froze.
fn frozen(world: &World, tmux: &TmuxServer, name: &str, minutes: i64) {
    let store = SidecarStore::new(world.path("sessions"));
    let cwd = world.path("work");
    std::fs::create_dir_all(&cwd).unwrap();
    let said = Utc::now() - Duration::minutes(minutes);
    let mut s = Sidecar::new(name, &cwd, "claude", said);
    s.tmux_session = Some(format!("gr-{name}"));
    s.agent_session_id = Some(name.into());
    s.activity = Some(Activity::Active);
    s.activity_since = Some(said);
    s.activity_reported_at = Some(said);
    store.create(&s).unwrap();
    tmux.spawn(
        &format!("gr-{name}"),
        &["sh", "-c", "echo working; sleep 600"],
    );
}

/// Claude Code keeps a record of its own that turns idle on an interrupt
/// (Esc fires no hook): with it, a still screen after an Active report is
/// no longer taken for an interrupt. Active 15 minutes ago and still since
/// is stuck; the record turning idle is the interrupt, read at once. An
/// agent with no such record keeps the screen rule.
#[test]
fn with_claude_codes_record_a_still_screen_is_stuck_and_its_idle_the_interrupt() {
    let world = World::new();
    let tmux = TmuxServer::new();
    frozen(&world, &tmux, "frozen", 15);
    frozen(&world, &tmux, "unheard", 15);
    record(&world, "frozen", "busy", Utc::now() - Duration::minutes(15));
    // The screens moved after the reports, then stopped: the agent with no
    // record of its own reads idle by the screen rule (its only sign).
    let rows = support::wait_for(15, "the screen rule's idle", || {
        let rows = rows_of(&world, &tmux);
        (row(&rows, "unheard").health == Health::Idle).then_some(rows)
    });
    let frozen = row(&rows, "frozen");
    assert_eq!(frozen.health, Health::Stuck, "{frozen:#?}");
    assert_eq!(
        frozen.why.at(Utc::now()),
        "no word from the agent for 15m; last: the hook reported Active: stuck after 10m"
    );
    // Esc: Claude Code's record turns idle, no hook fires.
    record(&world, "frozen", "idle", Utc::now());
    let rows = rows_of(&world, &tmux);
    let frozen = row(&rows, "frozen");
    // Its own word that the turn ended, never looked at: ready.
    assert_eq!(frozen.health, Health::Ready, "{frozen:#?}");
    assert_eq!(
        frozen.activity.source,
        greenroom::model::ActivitySource::ClaudeRegistry
    );
    tmux.kill();
}

/// Issue 26 §4: an agent whose interrupt is heard otherwise (Claude Code's
/// record turns idle on Esc) is active by its word until it speaks again,
/// whatever its screen does; after `stuck_after` of silence it is stuck.
#[test]
fn an_agent_heard_on_interrupt_works_until_it_says_otherwise() {
    let active = Activity::Active;
    let run = Status::Running;
    let heard = |secs| Report {
        hears_interrupt: true,
        ..report(&active, secs)
    };
    // Reported 20 s ago, the screen moved until 6 s ago, then stopped: not
    // an interrupt (that would be heard), still the turn.
    let v = effective_activity(Some(heard(20)), Some(&tmux(6)), now(), &t());
    assert_eq!(v.state, Activity::Active);
    assert!(v.reported);
    // Reported 15 minutes ago, the screen still since 14: past the report's
    // TTL it stands as the last word (the screen says nothing), and with no
    // word for 15 minutes the agent is stuck.
    for pane in [tmux(840), tmux(1)] {
        let v = effective_activity(Some(heard(900)), Some(&pane), now(), &t());
        assert_eq!(v.state, Activity::Active, "{pane:?}");
        assert!(!v.reported);
        assert_eq!(v.detail.as_deref(), Some("why"), "the agent's own word");
        let h = health(inputs(&run, &v.state, ago(900)), now(), &t());
        assert_eq!(h, Health::Stuck);
    }
    // Its other words are as before: an expired waiting report gives way
    // to the screen moving after it.
    let waiting = Activity::AwaitingInput;
    let r = Report {
        hears_interrupt: true,
        ..report(&waiting, 600)
    };
    let v = effective_activity(Some(r), Some(&tmux(20)), now(), &t());
    assert_eq!(v.state, Activity::Active);
}

/// The agent's last answer in its transcript is a word from it (a Claude
/// Code known only by its registry record says nothing else in a long turn).
#[test]
fn the_last_answer_is_the_newest_answers_own_time() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.jsonl");
    std::fs::write(&path, "").unwrap();
    let read = || {
        let mut t = TranscriptUsage::new(&path);
        t.refresh().unwrap();
        t.last_answer_at()
    };
    assert_eq!(read(), None);
    let answer = |id: &str, time: &str| {
        serde_json::json!({
            "type": "assistant", "requestId": id, "timestamp": time,
            "message": {"id": id, "model": "claude-sonnet-4-5", "role": "assistant",
                        "usage": {"input_tokens": 10, "output_tokens": 1}}
        })
        .to_string()
            + "\n"
    };
    let text = answer("m1", "2026-11-29T12:05:00Z") + &answer("m2", "2026-11-29T12:09:30Z");
    std::fs::write(&path, text).unwrap();
    let want = chrono::DateTime::parse_from_rfc3339("2026-11-29T12:09:30Z").unwrap();
    assert_eq!(read(), Some(want.to_utc()));
}
