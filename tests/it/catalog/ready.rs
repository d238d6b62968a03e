//! Ready, as the catalog builds it from greenroom's own records and tmux:
//! an Idle its agent reported after the operator last looked is ready; an
//! idle tmux infers from a still pane is not; a look after it (greenroom's
//! record) makes it idle; `ready_is_attention =
//! false` turns the rule off. A real tmux server on a private socket.

use chrono::{DateTime, Duration, Utc};
use greenroom::model::{Activity, Health};
use greenroom::sources::sidecar::{Sidecar, SidecarStore};

use super::stuck::{row, rows_of};
use crate::support::{TmuxServer, World};

/// A session `name` in a tmux session of its own; its agent said Idle at
/// `idle_at` (no report at all with `None`), and the operator last looked
/// at `looked`.
fn session(
    world: &World,
    tmux: &TmuxServer,
    name: &str,
    idle_at: Option<DateTime<Utc>>,
    looked: Option<DateTime<Utc>>,
) {
    let store = SidecarStore::new(world.path("sessions"));
    let cwd = world.path("work");
    std::fs::create_dir_all(&cwd).unwrap();
    let mut s = Sidecar::new(name, &cwd, "claude", Utc::now() - Duration::hours(1));
    s.tmux_session = Some(format!("gr-{name}"));
    if let Some(at) = idle_at {
        s.activity = Some(Activity::Idle);
        s.activity_since = Some(at);
        s.activity_reported_at = Some(at);
    }
    s.last_focused_at = looked;
    store.create(&s).unwrap();
    tmux.spawn(&format!("gr-{name}"), &["sleep", "600"]);
}

#[test]
fn an_idle_its_agent_reported_after_the_last_look_is_ready() {
    let world = World::new();
    // Pane output counts as active for a second only, so the session
    // with no report reads idle from tmux at once.
    std::fs::write(world.path("config.toml"), "active_window_seconds = 1\n").unwrap();
    let tmux = TmuxServer::new();
    let now = Utc::now();
    let min = |m: i64| Some(now - Duration::minutes(m));
    session(&world, &tmux, "unseen", min(3), min(10));
    session(&world, &tmux, "never-looked", min(3), None);
    session(&world, &tmux, "seen", min(3), min(1));
    session(&world, &tmux, "inferred", None, None);
    let rows = crate::support::wait_for(10, "tmux's idle for the silent one", || {
        let rows = rows_of(&world, &tmux);
        (row(&rows, "inferred").health != Health::Active).then_some(rows)
    });
    let health = |name: &str| row(&rows, name).health;
    assert_eq!(health("unseen"), Health::Ready);
    assert_eq!(health("never-looked"), Health::Ready);
    assert_eq!(health("seen"), Health::Idle);
    assert_eq!(health("inferred"), Health::Idle);
    assert_eq!(
        row(&rows, "unseen").why.at(now),
        "finished its turn 3m ago; you have not looked since: ready"
    );
    tmux.kill();
}

#[test]
fn ready_is_attention_false_leaves_it_idle() {
    let world = World::new();
    std::fs::write(world.path("config.toml"), "ready_is_attention = false\n").unwrap();
    let tmux = TmuxServer::new();
    session(
        &world,
        &tmux,
        "unseen",
        Some(Utc::now() - Duration::minutes(3)),
        None,
    );
    let rows = rows_of(&world, &tmux);
    assert_eq!(row(&rows, "unseen").health, Health::Idle);
    tmux.kill();
}

/// Ready needs the operator, as errored, waiting and stuck do.
#[test]
fn the_operator_is_needed_for_errored_waiting_stuck_and_ready_only() {
    let needed: Vec<Health> = Health::ALL
        .iter()
        .copied()
        .filter(|h| h.needs_operator())
        .collect();
    let want = [
        Health::Errored,
        Health::Waiting,
        Health::Stuck,
        Health::Ready,
    ];
    assert_eq!(needed, want);
    let quiet: Vec<Health> = Health::ALL
        .iter()
        .copied()
        .filter(|h| h.is_quiet())
        .collect();
    assert_eq!(
        quiet,
        [
            Health::Dormant,
            Health::Killed,
            Health::Exited,
            Health::Done
        ]
    );
}
