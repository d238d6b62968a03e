//! Which row a Maestro orchestration belongs to: the session that ran it,
//! also once Maestro archived it; none once that session is dismissed; its
//! own row only in a workspace the operator named.

use crate::support;

use std::path::Path;
use std::sync::mpsc::channel;

use chrono::{Duration, Utc};
use greenroom::catalog::Catalog;
use greenroom::engine::Engine;
use greenroom::model::{Health, Source};
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use support::World;

fn state(id: &str, status: &str, updated: &str) -> String {
    format!(
        "---\nsession_id: {id}\nstatus: {status}\nupdated: \"{updated}\"\ncurrent_phase: 1\n\
         phases:\n  - id: 1\n    status: {status}\n---\n"
    )
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Dismissing a session whose folder holds Maestro state takes the
/// orchestration with it: no `maestro` row nothing can remove, no stuck alert.
#[test]
fn dismiss_takes_the_orchestration_with_it() {
    let world = World::new();
    let ws = world.path("ws");
    let day_ago = (Utc::now() - Duration::days(1)).to_rfc3339();
    write(
        &ws.join("docs/maestro/state/active-session.md"),
        &state("stale", "in_progress", &day_ago),
    );
    let store = SidecarStore::new(world.path("sessions"));
    let mut s = Sidecar::new("gone", &ws, "sh", Utc::now());
    s.tmux_session = Some("gr-gone".into());
    store.create(&s).unwrap();
    let (tx, _rx) = channel();
    let mut engine = Engine::start(&world.config(None, &[]), false, move |p| {
        let _ = tx.send(p);
    })
    .unwrap();
    engine.poll_tmux();
    let rows = engine.rows(Utc::now());
    assert_eq!(rows.len(), 1, "{rows:#?}");
    assert_eq!(rows[0].source, Source::Greenroom);
    assert!(rows[0].orchestration.is_some());

    let to = greenroom::ops::dismiss(engine.tmux(), engine.store(), &rows[0]).unwrap();
    engine.apply_changes(vec![store.path_for(s.id), to]);
    let rows = engine.rows(Utc::now());
    assert!(rows.is_empty(), "nothing left behind: {rows:#?}");
    // `ls` and a fresh start agree; `--all` shows it with its session.
    assert!(
        Catalog::load(&world.config(None, &[]), false)
            .rows(Utc::now())
            .is_empty()
    );
    let all = Catalog::load(&world.config(None, &[]), true).rows(Utc::now());
    assert_eq!(all.len(), 1, "{all:#?}");
    assert!(all[0].archived && all[0].orchestration.is_some());
}

/// A workspace the operator named keeps its orchestration on a row of its own.
#[test]
fn a_named_workspace_without_a_session_is_its_own_row() {
    let world = World::new();
    let ws = world.path("ws");
    write(
        &ws.join("docs/maestro/state/active-session.md"),
        &state("alone", "in_progress", &Utc::now().to_rfc3339()),
    );
    let rows = Catalog::load(&world.config(None, &[&ws]), false).rows(Utc::now());
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].source, Source::Maestro);
}

/// After Maestro archives an orchestration, the session that ran it shows
/// it done; a new active file replaces it; an archive older than the
/// session is not its work.
#[test]
fn a_session_shows_the_orchestration_it_finished_until_a_new_one_starts() {
    let world = World::new();
    let ws = world.path("ws");
    let state_dir = ws.join("docs/maestro/state");
    let store = SidecarStore::new(world.path("sessions"));
    let mut s = Sidecar::new("m", &ws, "gemini", Utc::now() - Duration::hours(1));
    s.activity = Some(greenroom::model::Activity::Idle);
    s.activity_reported_at = Some(Utc::now());
    store.create(&s).unwrap();
    let old = (Utc::now() - Duration::days(2)).to_rfc3339();
    write(
        &state_dir.join("archive/older.md"),
        &state("older", "completed", &old),
    );
    // Written when it says: the clock's coarse file times could otherwise
    // tie with the next file's, and the name would decide which is newest.
    std::fs::File::options()
        .write(true)
        .open(state_dir.join("archive/older.md"))
        .unwrap()
        .set_modified((Utc::now() - Duration::days(2)).into())
        .unwrap();
    let row = |world: &World| {
        let rows = Catalog::load(&world.config(None, &[]), false).rows(Utc::now());
        assert_eq!(rows.len(), 1, "{rows:#?}");
        rows.into_iter().next().unwrap()
    };
    assert!(
        row(&world).orchestration.is_none(),
        "older than the session"
    );

    let now = Utc::now().to_rfc3339();
    write(
        &state_dir.join("archive/done.md"),
        &state("done", "completed", &now),
    );
    let r = row(&world);
    let o = r.orchestration.as_ref().unwrap();
    assert_eq!((o.session_id.as_deref(), o.archived), (Some("done"), true));
    // Done, and never looked at: ready for the operator.
    assert_eq!(r.health, Health::Ready);

    write(
        &state_dir.join("active-session.md"),
        &state("next", "in_progress", &now),
    );
    let r = row(&world);
    assert_eq!(r.orchestration.unwrap().session_id.as_deref(), Some("next"));
    assert_eq!(r.health, Health::Active);
}

/// `MAESTRO_WORKSPACE_PATH` in a session's environment is where Maestro's
/// server keeps its state, whatever the session's folder.
#[test]
fn maestro_workspace_path_in_the_sessions_environment_is_honoured() {
    let world = World::new();
    let elsewhere = world.path("repo");
    write(
        &elsewhere.join("docs/maestro/state/active-session.md"),
        &state("there", "in_progress", &Utc::now().to_rfc3339()),
    );
    let store = SidecarStore::new(world.path("sessions"));
    let mut s = Sidecar::new("m", &world.path("repo/sub"), "gemini", Utc::now());
    s.env.insert(
        "MAESTRO_WORKSPACE_PATH".into(),
        elsewhere.display().to_string(),
    );
    store.create(&s).unwrap();
    let rows = Catalog::load(&world.config(None, &[]), false).rows(Utc::now());
    assert_eq!(rows.len(), 1);
    let o = rows[0].orchestration.as_ref().unwrap();
    assert_eq!(o.session_id.as_deref(), Some("there"));
}

struct Env(Vec<(&'static str, String)>);

impl greenroom::config::Env for Env {
    fn var(&self, key: &str) -> Option<String> {
        self.0
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.clone())
    }
}

/// Maestro 1.4.0 keeps hook state in `/tmp/maestro-hooks`, later releases in
/// `<tmpdir>/maestro-hooks-<uid>`: both are read unless MAESTRO_HOOKS_DIR
/// (or the config) names one folder.
#[test]
fn both_default_hook_folders_are_read_when_none_is_named() {
    let world = World::new();
    let overrides = greenroom::config::Overrides {
        config: Some(world.path("config.toml")),
        ..Default::default()
    };
    let unset = greenroom::config::Config::load(&overrides, &Env(vec![])).unwrap();
    assert_eq!(
        unset.maestro_hooks_legacy.as_deref(),
        Some(Path::new("/tmp/maestro-hooks"))
    );
    let named = Env(vec![("MAESTRO_HOOKS_DIR", "/x/hooks".into())]);
    let set = greenroom::config::Config::load(&overrides, &named).unwrap();
    assert_eq!(set.maestro_hooks_legacy, None);

    // An agent recorded in the 1.4.0 folder shows, live.
    let legacy = world.path("legacy-hooks");
    let store = SidecarStore::new(world.path("sessions"));
    let mut s = Sidecar::new("m", &world.path("w"), "gemini", Utc::now());
    s.agent_session_id = Some("conv-9".into());
    store.create(&s).unwrap();
    let mut config = world.config(None, &[]);
    config.maestro_hooks_legacy = Some(legacy.clone());
    let (tx, rx) = channel();
    let mut engine = Engine::start(&config, false, move |p| {
        let _ = tx.send(p);
    })
    .unwrap();
    write(&legacy.join("conv-9/active-agent"), "tester\n");
    support::wait_for(10, "the agent from the 1.4.0 folder", || {
        let batch: Vec<_> = rx.try_iter().collect();
        engine.apply_changes(batch);
        let rows = engine.rows(Utc::now());
        (rows[0].active_agent.as_deref() == Some("tester")).then_some(())
    });
}
