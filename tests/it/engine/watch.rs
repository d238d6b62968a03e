//! The real watcher on real temp folders: every kind of change to every
//! source reaches the catalog, one file at a time.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use crate::support;

use std::path::Path;
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use chrono::Utc;
use greenroom::engine::{Change, Engine};
use greenroom::model::{Session, Source};
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use support::World;
use support::live::Live;

const STATE: &str = "---\nsession_id: s1\nstatus: in_progress\ncurrent_phase: 1\ntotal_phases: 2\nphases:\n  - id: 1\n    status: in_progress\n  - id: 2\n    status: pending\n---\n";

fn names(rows: &[Session]) -> Vec<String> {
    let mut n: Vec<String> = rows.iter().map(|r| r.name.clone()).collect();
    n.sort();
    n
}

fn write_atomically(path: &Path, text: &str) {
    let tmp = path.with_file_name(format!(
        ".{}.tmp",
        path.file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

#[test]
fn sidecars_created_modified_replaced_and_deleted_are_all_seen() {
    let world = World::new();
    let mut live = Live::start(&world.config(None, &[]));
    let store = SidecarStore::new(world.path("sessions"));
    live.until("an empty catalog", |r| r.is_empty());

    let s = Sidecar::new("first", &world.path("w"), "sh", Utc::now());
    store.create(&s).unwrap();
    live.until("create", |r| names(r) == ["first"]);

    // A plain in-place write (not atomic), as a careless tool would do.
    let mut edited = s.clone();
    edited.name = "renamed".into();
    std::fs::write(
        store.path_for(s.id),
        serde_json::to_string(&edited).unwrap(),
    )
    .unwrap();
    live.until("modify", |r| names(r) == ["renamed"]);

    // An atomic rename over the file, as greenroom and hooks do.
    edited.name = "replaced".into();
    write_atomically(
        &store.path_for(s.id),
        &serde_json::to_string(&edited).unwrap(),
    );
    live.until("rename over", |r| names(r) == ["replaced"]);

    std::fs::remove_file(store.path_for(s.id)).unwrap();
    live.until("delete", |r| r.is_empty());
}

#[test]
fn a_sidecar_folder_deleted_and_recreated_is_followed() {
    let world = World::new();
    let mut live = Live::start(&world.config(None, &[]));
    let store = SidecarStore::new(world.path("sessions"));
    store
        .create(&Sidecar::new("a", &world.path("w"), "sh", Utc::now()))
        .unwrap();
    live.until("a", |r| names(r) == ["a"]);
    std::fs::remove_dir_all(store.dir()).unwrap();
    live.until("the folder gone", |r| r.is_empty());
    store
        .create(&Sidecar::new("b", &world.path("w"), "sh", Utc::now()))
        .unwrap();
    live.until("b in the new folder", |r| names(r) == ["b"]);
}

#[test]
fn maestro_state_that_appears_later_and_is_recreated_is_picked_up() {
    let world = World::new();
    let ws = world.path("project");
    std::fs::create_dir_all(&ws).unwrap();
    let store = SidecarStore::new(world.path("sessions"));
    store
        .create(&Sidecar::new("agent", &ws, "claude", Utc::now()))
        .unwrap();
    let mut live = Live::start(&world.config(None, &[]));
    live.until("the session", |r| {
        r.len() == 1 && r[0].orchestration.is_none()
    });

    // docs/maestro/state does not exist yet: it appears, then its file.
    let state = ws.join("docs/maestro/state");
    std::fs::create_dir_all(&state).unwrap();
    write_atomically(&state.join("active-session.md"), STATE);
    live.until("the orchestration", |r| {
        r.len() == 1
            && r[0]
                .orchestration
                .as_ref()
                .is_some_and(|o| o.session_id.as_deref() == Some("s1"))
    });

    write_atomically(
        &state.join("active-session.md"),
        &STATE.replace("current_phase: 1", "current_phase: 2"),
    );
    live.until("the phase to advance", |r| {
        r[0].orchestration
            .as_ref()
            .and_then(|o| o.current_phase.clone())
            == Some(greenroom::model::PhaseId::Number(2))
    });

    // The whole docs folder deleted, then recreated with new content.
    std::fs::remove_dir_all(ws.join("docs")).unwrap();
    live.until("the orchestration to go", |r| r[0].orchestration.is_none());
    std::fs::create_dir_all(&state).unwrap();
    std::fs::write(state.join("active-session.md"), STATE.replace("s1", "s2")).unwrap();
    live.until("the recreated orchestration", |r| {
        r[0].orchestration
            .as_ref()
            .is_some_and(|o| o.session_id.as_deref() == Some("s2"))
    });
}

#[test]
fn a_new_sessions_maestro_folder_is_watched_as_it_appears() {
    let world = World::new();
    let mut live = Live::start(&world.config(None, &[]));
    let ws = world.path("later");
    let state = ws.join("docs/maestro/state");
    std::fs::create_dir_all(&state).unwrap();
    std::fs::write(state.join("active-session.md"), STATE).unwrap();
    let store = SidecarStore::new(world.path("sessions"));
    store
        .create(&Sidecar::new("late", &ws, "claude", Utc::now()))
        .unwrap();
    live.until("the session with its state", |r| {
        r.len() == 1 && r[0].orchestration.is_some()
    });
    write_atomically(
        &state.join("active-session.md"),
        &STATE.replace("in_progress", "completed"),
    );
    live.until("a change in the new folder", |r| {
        r[0].orchestration
            .as_ref()
            .and_then(|o| o.status.clone())
            .as_deref()
            == Some("completed")
    });
}

#[test]
fn a_state_dir_that_does_not_exist_yet_is_picked_up() {
    let world = World::new();
    let ws = world.path("deep/nested/ws");
    let mut live = Live::start(&world.config(None, &[&ws]));
    live.until("nothing", |r| r.is_empty());
    let state = ws.join("docs/maestro/state");
    std::fs::create_dir_all(&state).unwrap();
    std::fs::write(state.join("active-session.md"), STATE).unwrap();
    live.until("a maestro row", |r| {
        r.len() == 1 && r[0].source == Source::Maestro
    });
}

#[test]
fn a_burst_of_a_thousand_sidecars_ends_in_the_right_state() {
    let world = World::new();
    let mut live = Live::start(&world.config(None, &[]));
    let store = SidecarStore::new(world.path("sessions"));
    let cwd = world.path("w");
    let mut ids = Vec::new();
    for i in 0..1000 {
        let s = Sidecar::new(&format!("s{i}"), &cwd, "sh", Utc::now());
        ids.push(s.id);
        store.create(&s).unwrap();
    }
    live.until("1000 rows", |r| r.len() == 1000);
    for id in &ids[..100] {
        std::fs::remove_file(store.path_for(*id)).unwrap();
    }
    live.until("900 rows", |r| r.len() == 900);
    assert!(live.engine.problems().is_empty());
}

#[test]
fn agent_orchestrator_sessions_and_maestro_hook_state_are_followed() {
    let world = World::new();
    let ws = world.path("p");
    std::fs::create_dir_all(ws.join("docs/maestro/state")).unwrap();
    std::fs::write(ws.join("docs/maestro/state/active-session.md"), STATE).unwrap();
    let store = SidecarStore::new(world.path("sessions"));
    let mut s = Sidecar::new("m", &ws, "gemini", Utc::now());
    s.agent_session_id = Some("conv-1".into());
    store.create(&s).unwrap();
    let mut live = Live::start(&world.config(None, &[]));
    live.until("one row", |r| r.len() == 1);

    let hook = world.path("maestro-hooks/conv-1");
    std::fs::create_dir_all(&hook).unwrap();
    std::fs::write(hook.join("active-agent"), "coder\n").unwrap();
    live.until("the active agent", |r| {
        r[0].active_agent.as_deref() == Some("coder")
    });

    let sessions = world.path("ao/projects/app/sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    std::fs::write(
        sessions.join("app-1.json"),
        r#"{"project":"app","agent":"claude-code","tmuxName":"abc-app-1","status":"working"}"#,
    )
    .unwrap();
    live.until("the AO session", |r| {
        r.iter()
            .any(|s| s.source == Source::AgentOrchestrator && s.name == "app-1")
    });
    std::fs::remove_file(sessions.join("app-1.json")).unwrap();
    live.until("the AO session to go", |r| r.len() == 1);
}

#[test]
fn changes_between_loading_and_watching_are_caught_up() {
    let world = World::new();
    let store = SidecarStore::new(world.path("sessions"));
    let gone = Sidecar::new("gone", &world.path("w"), "sh", Utc::now());
    store.create(&gone).unwrap();
    let (tx, _rx) = channel();
    let mut engine = Engine::load(&world.config(None, &[]), false, move |p| {
        let _ = tx.send(p);
    })
    .unwrap();
    assert_eq!(names(&engine.rows(Utc::now())), ["gone"]);
    // While the first frame is drawn: one session deleted, one created.
    std::fs::remove_file(store.path_for(gone.id)).unwrap();
    store
        .create(&Sidecar::new("new", &world.path("w"), "sh", Utc::now()))
        .unwrap();
    assert!(engine.watch(), "arming the watches catches up");
    assert_eq!(names(&engine.rows(Utc::now())), ["new"]);
}

/// Feeds events to the engine at one clock (`now`), swapping what each
/// batch gives into `held`, until `check` holds; returns what each batch
/// gave: "all" rows, "changed" rows alone, or "none".
fn feed_until(
    live: &mut Live,
    held: &mut Vec<Session>,
    now: chrono::DateTime<Utc>,
    what: &str,
    check: impl Fn(&[Session]) -> bool,
) -> Vec<&'static str> {
    use greenroom::engine::NewRows;
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut kinds = Vec::new();
    while !check(held) {
        let left = deadline.saturating_duration_since(Instant::now());
        assert!(!left.is_zero(), "timed out waiting for {what}: {kinds:?}");
        let Ok(first) = live.rx.recv_timeout(left) else {
            continue;
        };
        let mut batch = vec![first];
        batch.extend(live.rx.try_iter());
        match live.engine.apply_changes_rows(batch, now) {
            Some(NewRows::All(rows)) => {
                kinds.push("all");
                *held = rows;
            }
            Some(NewRows::Changed(rows)) => {
                kinds.push("changed");
                for r in rows {
                    let slot = held.iter_mut().find(|h| h.id == r.id).unwrap();
                    *slot = r;
                }
            }
            None => kinds.push("none"),
        }
    }
    kinds
}

/// The rows held equal a full build's, in any order.
fn assert_held_is_full(live: &Live, held: &[Session], now: chrono::DateTime<Utc>) {
    let mut full = live.engine.rows(now);
    let mut held = held.to_vec();
    held.sort_by(|x, y| x.id.cmp(&y.id));
    full.sort_by(|x, y| x.id.cmp(&y.id));
    assert_eq!(held, full);
}

/// A sidecar rewritten by its writer (an atomic rename) comes back as its
/// row alone, and swapping it into the rows held gives what a full build
/// gives; a change that reaches other rows (another tmux session) gives
/// every row.
#[test]
fn a_rewritten_sidecar_comes_back_as_its_row_alone() {
    let world = World::new();
    let mut live = Live::start(&world.config(None, &[]));
    let store = SidecarStore::new(world.path("sessions"));
    let a = Sidecar::new("a", &world.path("w"), "sh", Utc::now());
    let b = Sidecar::new("b", &world.path("w"), "sh", Utc::now());
    store.create(&a).unwrap();
    store.create(&b).unwrap();
    live.until("both", |r| names(r) == ["a", "b"]);
    let now = Utc::now();
    let mut held = live.engine.rows(now);
    let named = |name: &'static str| move |r: &[Session]| r.iter().any(|r| r.name == name);

    let wait = Duration::from_secs(5);
    store
        .update(a.id, wait, |s| {
            s.name = "renamed".into();
            true
        })
        .unwrap();
    let kinds = feed_until(&mut live, &mut held, now, "renamed", named("renamed"));
    assert_eq!(kinds.last(), Some(&"changed"), "{kinds:?}");
    assert_held_is_full(&live, &held, now);

    store
        .update(b.id, wait, |s| {
            s.name = "moved".into();
            s.tmux_session = Some("elsewhere".into());
            true
        })
        .unwrap();
    let kinds = feed_until(&mut live, &mut held, now, "moved", named("moved"));
    assert_eq!(kinds.last(), Some(&"all"), "{kinds:?}");
}

/// A running orchestration that moves on (Maestro's writer renames its
/// active file into place) comes back as the rows of the sessions that show
/// it, equal to a full build. One that starts, finishes, or shows in a row
/// of its own (a --state-dir no session claims) gives every row.
#[test]
fn a_running_orchestration_that_moves_on_comes_back_as_its_sessions_rows() {
    let world = World::new();
    let (claimed, other, own) = (
        world.path("claimed"),
        world.path("other"),
        world.path("own"),
    );
    let state_of = |ws: &Path| ws.join("docs/maestro/state");
    for ws in [&claimed, &other, &own] {
        std::fs::create_dir_all(state_of(ws)).unwrap();
    }
    std::fs::write(state_of(&claimed).join("active-session.md"), STATE).unwrap();
    let own_state = STATE.replace("s1", "own-1");
    std::fs::write(state_of(&own).join("active-session.md"), &own_state).unwrap();
    let store = SidecarStore::new(world.path("sessions"));
    for (name, ws) in [("a", &claimed), ("b", &other)] {
        store
            .create(&Sidecar::new(name, ws, "sh", Utc::now()))
            .unwrap();
    }
    let mut live = Live::start(&world.config(None, &[&own]));
    live.until("both sessions and the orchestration of its own", |r| {
        r.len() == 3
    });
    let now = Utc::now();
    let mut held = live.engine.rows(now);
    let phase_of = |r: &[Session], session: &str| {
        r.iter()
            .filter_map(|r| r.orchestration.as_ref())
            .find(|o| o.session_id.as_deref() == Some(session))
            .and_then(|o| o.current_phase.clone())
    };
    let two = Some(greenroom::model::PhaseId::Number(2));

    // Written again as it was: read again, nothing new.
    let active = state_of(&claimed).join("active-session.md");
    write_atomically(&active, STATE);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let path = live.rx.recv_timeout(left).expect("the rewrite's event");
        let read = path == Change::Path(active.clone());
        assert!(live.engine.apply_changes_rows(vec![path], now).is_none());
        if read {
            break;
        }
    }
    // Then moved on.
    write_atomically(
        &state_of(&claimed).join("active-session.md"),
        &STATE.replace("current_phase: 1", "current_phase: 2"),
    );
    let kinds = feed_until(&mut live, &mut held, now, "phase 2 in a's row", |r| {
        phase_of(r, "s1") == two
    });
    assert_eq!(kinds.last(), Some(&"changed"), "{kinds:?}");
    assert_held_is_full(&live, &held, now);

    write_atomically(
        &state_of(&own).join("active-session.md"),
        &own_state.replace("current_phase: 1", "current_phase: 2"),
    );
    let kinds = feed_until(&mut live, &mut held, now, "phase 2 in its own row", |r| {
        phase_of(r, "own-1") == two
    });
    assert_eq!(kinds.last(), Some(&"all"), "{kinds:?}");

    // b's folder starts one: which rows show what changes.
    std::fs::write(
        state_of(&other).join("active-session.md"),
        STATE.replace("s1", "b-1"),
    )
    .unwrap();
    let kinds = feed_until(&mut live, &mut held, now, "b's orchestration", |r| {
        phase_of(r, "b-1").is_some()
    });
    assert_eq!(kinds.last(), Some(&"all"), "{kinds:?}");
    assert_held_is_full(&live, &held, now);

    // a's finishes: archived, it still shows in a's row, as finished.
    let archive = state_of(&claimed).join("archive");
    std::fs::create_dir_all(&archive).unwrap();
    let done = STATE
        .replace("current_phase: 1", "current_phase: 2")
        .replace("status: in_progress\ncurrent", "status: completed\ncurrent");
    std::fs::write(archive.join("s1.md"), done).unwrap();
    std::fs::remove_file(state_of(&claimed).join("active-session.md")).unwrap();
    let kinds = feed_until(
        &mut live,
        &mut held,
        now,
        "a's orchestration finished",
        |r| {
            r.iter().any(|r| {
                r.name == "a"
                    && r.orchestration
                        .as_ref()
                        .is_some_and(|o| o.status.as_deref() == Some("completed"))
            })
        },
    );
    assert_eq!(kinds.last(), Some(&"all"), "{kinds:?}");
    assert_held_is_full(&live, &held, now);
}
