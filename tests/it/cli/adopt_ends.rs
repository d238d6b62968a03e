//! How an agent greenroom did not start ends, as a greenroom that watches
//! it sees it: its pane closing under it (died, shown until dismissed),
//! killed from greenroom (killed), and what a greenroom started later
//! cannot vouch for.

use chrono::Utc;
use greenroom::engine::Engine;
use greenroom::model::{Health, Session, Status};

use super::adopt::{Setup, fixture};

fn row(engine: &Engine, pane: &str) -> Option<Session> {
    engine.rows(Utc::now()).into_iter().find(|r| r.id == pane)
}

fn watching(s: &Setup) -> Engine {
    let config = s.world.config(Some(&s.tmux), &[]);
    let mut engine = Engine::load(&config, false, |_| {}).unwrap();
    engine.recover();
    engine.poll_tmux();
    engine
}

fn record_of(s: &Setup) -> std::path::PathBuf {
    let dir = s.world.path("sessions/adopted");
    std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .expect("the pane's record")
}

#[test]
fn an_agent_whose_pane_closes_under_a_watching_greenroom_stays_as_died() {
    let s = Setup::new();
    let pane = s.hook_window();
    s.report(Some(&pane), &fixture("SessionStart__startup"));
    let mut engine = watching(&s);
    let live = row(&engine, &pane).expect("the live agent");
    assert_eq!(live.status, Status::Running);

    // Killed outside greenroom with its pane (the agent was the pane's
    // own program): no SessionEnd, no pane.
    s.tmux.run(&["kill-pane", "-t", &pane]);
    engine.poll_tmux();
    let died = row(&engine, &pane).expect("the died agent's row stays");
    assert_eq!(died.status, Status::Exited);
    assert_eq!(died.health, Health::Errored);
    assert_eq!(
        died.activity.detail.as_deref(),
        Some("died without ending its session (killed or crashed): its pane closed")
    );
    assert_eq!(died.name, "claude@work", "named as while it lived");
    assert!(died.can_dismiss());

    // A greenroom started now never saw the pane: it cannot tell the
    // record was the pane's, and start-up clears it.
    let later = watching(&s);
    assert!(row(&later, &pane).is_none());
}

#[test]
fn an_agent_killed_from_greenroom_reads_killed_not_died() {
    let s = Setup::new();
    let pane = s.hook_window();
    s.report(Some(&pane), &fixture("SessionStart__startup"));
    let mut engine = watching(&s);
    assert!(row(&engine, &pane).is_some());
    let record = record_of(&s);

    s.greenroom().ok(&["kill", &pane, "--yes"]);
    engine.apply_changes(vec![record]);
    engine.poll_tmux();
    let killed = row(&engine, &pane).expect("the killed agent's row stays");
    assert_eq!(killed.status, Status::Killed);
    assert_eq!(killed.health, Health::Killed);
    assert_eq!(
        killed.activity.detail.as_deref(),
        Some("killed from greenroom")
    );
}

/// The poll saw the pane at its shell; then a hook speaks from inside it:
/// an agent started there since (the poll has not seen it yet), not a
/// death.
#[test]
fn a_hook_heard_after_the_poll_saw_the_shell_is_a_live_agent() {
    let s = Setup::new();
    let pane = s.window(&["sh"]);
    let mut engine = watching(&s);
    assert!(row(&engine, &pane).is_none(), "a shell is no agent");
    let (report, done) = s.report_line(Some(&pane), &fixture("SessionStart__startup"));
    s.tmux.run(&["send-keys", "-t", &pane, &report, "Enter"]);
    s.report_done(&done);
    engine.apply_changes(vec![record_of(&s)]);
    let r = row(&engine, &pane).expect("the agent's row");
    assert_eq!(r.status, Status::Running, "{r:#?}");
    // Idle by its hook's word, never looked at: ready for the operator.
    assert_eq!(r.health, Health::Ready);

    // Then the poll sees the pane at its shell again (nothing ran there
    // in between): its agent has gone without a word.
    s.tmux.run(&["send-keys", "-t", &pane, "true", "Enter"]);
    let fresh = watching(&s);
    let r = row(&fresh, &pane).expect("the died agent's row");
    assert_eq!(r.health, Health::Errored, "{r:#?}");
}

/// `/clear`, or the agent started again in the same pane: a new
/// conversation replaces what the record says, and the earlier
/// conversation's transcript is kept, so its spend still counts.
#[test]
fn a_new_conversation_in_the_pane_keeps_the_earlier_transcript() {
    let s = Setup::new();
    let pane = s.hook_window();
    let start = fixture("SessionStart__startup");
    let first = start["transcript_path"].as_str().unwrap().to_owned();
    s.report(Some(&pane), &start);
    let mut again = super::adopt::with(start, "session_id", "0b0b0b0b-0000-4000-8000-00000000000c");
    again["transcript_path"] = serde_json::Value::String("/tmp/second.jsonl".into());
    again["source"] = serde_json::Value::String("clear".into());
    s.report(Some(&pane), &again);
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(record_of(&s)).unwrap()).unwrap();
    assert_eq!(record["transcript_path"], "/tmp/second.jsonl");
    assert_eq!(record["earlier_transcripts"], serde_json::json!([first]));
}
