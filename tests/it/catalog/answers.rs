//! A permission prompt refused in the agent's own pane ("No", Esc): Claude
//! Code fires no hook then, but its own record (`sessions/<pid>.json`)
//! turns idle, and the row with it at once. Greenroom's own rows and
//! hand-started ones read the agent's last word through the same rule.

use chrono::{Duration, Utc};
use greenroom::model::{Activity, ActivitySource, Health};
use greenroom::sources::sidecar::{Sidecar, SidecarStore, ToolCall};

use super::stuck::{record, row, rows_of};
use crate::support::{TmuxServer, World};

/// A session `name` (conversation `name`) whose hook said, 10 s ago, that
/// it waits on a Bash call.
fn asking(world: &World, tmux: &TmuxServer, name: &str) {
    let store = SidecarStore::new(world.path("sessions"));
    let cwd = world.path("work");
    std::fs::create_dir_all(&cwd).unwrap();
    let asked = Utc::now() - Duration::seconds(10);
    let mut s = Sidecar::new(name, &cwd, "claude", asked);
    s.tmux_session = Some(format!("gr-{name}"));
    s.agent_session_id = Some(name.into());
    s.activity = Some(Activity::AwaitingInput);
    s.activity_since = Some(asked);
    s.activity_reported_at = Some(asked);
    s.activity_tool = Some(ToolCall {
        tool: Some("Bash".into()),
        command: Some("touch x".into()),
        ..Default::default()
    });
    store.create(&s).unwrap();
    tmux.spawn(&format!("gr-{name}"), &["sleep", "600"]);
}

#[test]
fn a_prompt_refused_in_the_pane_is_idle_by_claude_codes_own_record() {
    let world = World::new();
    let tmux = TmuxServer::new();
    asking(&world, &tmux, "asked");
    // Its record idle from before the prompt, then waiting with it: the
    // hook's wait stands, with what it asks.
    for (status, ago) in [("idle", 60), ("waiting", 9)] {
        record(&world, "asked", status, Utc::now() - Duration::seconds(ago));
        let rows = rows_of(&world, &tmux);
        let r = row(&rows, "asked");
        assert_eq!(r.health, Health::Waiting, "{status}: {r:#?}");
        let w = r.waiting_for.as_ref().unwrap();
        assert_eq!(w.command.as_deref(), Some("touch x"));
    }
    // Refused: no hook fires, the record turns idle: the agent's own word
    // that its turn ended, and nobody looked at it since (ready).
    record(&world, "asked", "idle", Utc::now());
    let rows = rows_of(&world, &tmux);
    let r = row(&rows, "asked");
    assert_eq!(r.health, Health::Ready, "{r:#?}");
    assert_eq!(r.activity.source, ActivitySource::ClaudeRegistry);
    assert_eq!(r.waiting_for, None);
    tmux.kill();
}
