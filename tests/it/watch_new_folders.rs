//! Folders created and written at once (`mkdir -p`, then an atomic write,
//! many at the same moment): whatever a folder holds when it is first
//! watched must be read, for every source, since no event will come for it.

use crate::support;

use std::path::Path;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use chrono::Utc;
use greenroom::engine::{Change, Engine};
use greenroom::model::{Session, Source};
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use serde_json::json;
use support::World;

const BURST: usize = 40;

struct Live {
    engine: Engine,
    rx: Receiver<Change>,
}

impl Live {
    fn start(config: &greenroom::config::Config) -> Self {
        let (tx, rx) = channel();
        let engine = Engine::start(config, false, move |p| {
            let _ = tx.send(p);
        })
        .unwrap();
        Live { engine, rx }
    }

    fn until(&mut self, what: &str, check: impl Fn(&[Session]) -> bool) -> Vec<Session> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let rows = self.engine.rows(Utc::now());
            if check(&rows) {
                return rows;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(
                !left.is_zero(),
                "timed out waiting for {what}; rows: {rows:#?}"
            );
            if let Ok(first) = self.rx.recv_timeout(left.min(Duration::from_millis(200))) {
                let mut batch = vec![first];
                batch.extend(self.rx.try_iter());
                self.engine.apply_changes(batch);
            }
        }
    }
}

fn write_atomically(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let tmp = path.with_file_name(format!(
        "{}.tmp.{}",
        path.file_name().unwrap().to_string_lossy(),
        std::process::id()
    ));
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

fn state(id: &str) -> String {
    format!(
        "---\nsession_id: {id}\nstatus: in_progress\ncurrent_phase: 1\nphases:\n  - id: 1\n    status: in_progress\n---\n"
    )
}

/// Runs `make(i)` for every i on its own thread, all at once.
fn burst(make: impl Fn(usize) + Sync) {
    std::thread::scope(|scope| {
        for i in 0..BURST {
            let make = &make;
            scope.spawn(move || make(i));
        }
    });
}

#[test]
fn a_burst_of_new_maestro_state_folders_all_show() {
    let world = World::new();
    let store = SidecarStore::new(world.path("sessions"));
    for i in 0..BURST {
        let ws = world.path(&format!("ws{i}"));
        std::fs::create_dir_all(&ws).unwrap();
        store
            .create(&Sidecar::new(&format!("s{i}"), &ws, "sh", Utc::now()))
            .unwrap();
    }
    let named = world.path("named");
    let mut live = Live::start(&world.config(None, &[&named]));
    live.until("every session", |r| r.len() == BURST);
    burst(|i| {
        let file = world.path(&format!("ws{i}/docs/maestro/state/active-session.md"));
        write_atomically(&file, &state(&format!("m{i}")));
    });
    write_atomically(
        &named.join("docs/maestro/state/active-session.md"),
        &state("named"),
    );
    live.until("every orchestration", |rows| {
        rows.iter().filter(|r| r.orchestration.is_some()).count() == BURST + 1
    });
}

#[test]
fn a_burst_of_new_agent_orchestrator_projects_all_show() {
    let world = World::new();
    let mut live = Live::start(&world.config(None, &[]));
    std::fs::create_dir_all(world.path("ao")).unwrap();
    burst(|i| {
        let file = world.path(&format!("ao/0123456789ab-p{i}/sessions/p{i}-1"));
        write_atomically(
            &file,
            &format!("project=p{i}\nstatus=working\nbranch=b{i}\nworktree=/tmp/w\n"),
        );
    });
    live.until("every AO session", |rows| {
        rows.iter()
            .filter(|r| r.source == Source::AgentOrchestrator)
            .count()
            == BURST
    });
}

#[test]
fn a_burst_of_new_hook_state_folders_all_show() {
    let world = World::new();
    let store = SidecarStore::new(world.path("sessions"));
    for i in 0..BURST {
        let mut s = Sidecar::new(&format!("s{i}"), &world.path("w"), "gemini", Utc::now());
        s.agent_session_id = Some(format!("conv-{i}"));
        store.create(&s).unwrap();
    }
    std::fs::create_dir_all(world.path("maestro-hooks")).unwrap();
    let mut live = Live::start(&world.config(None, &[]));
    live.until("every session", |r| r.len() == BURST);
    burst(|i| {
        let file = world.path(&format!("maestro-hooks/conv-{i}/active-agent"));
        write_atomically(&file, "coder");
    });
    live.until("every active agent", |rows| {
        rows.iter()
            .filter(|r| r.active_agent.as_deref() == Some("coder"))
            .count()
            == BURST
    });
}

#[test]
fn transcripts_in_folders_that_appear_later_are_read() {
    let world = World::new();
    let store = SidecarStore::new(world.path("sessions"));
    for i in 0..BURST {
        let mut s = Sidecar::new(&format!("s{i}"), &world.path("w"), "claude", Utc::now());
        s.transcript_path = Some(world.path(&format!("claude/projects/p{i}/t.jsonl")));
        store.create(&s).unwrap();
    }
    let mut live = Live::start(&world.config(None, &[]));
    live.until("every session", |r| r.len() == BURST);
    burst(|i| {
        let line = json!({"type": "assistant", "requestId": "r", "message": {"id": "m",
            "model": "claude-sonnet-4-5", "usage": {"input_tokens": 100 + i, "output_tokens": 7}}});
        write_atomically(
            &world.path(&format!("claude/projects/p{i}/t.jsonl")),
            &format!("{line}\n"),
        );
    });
    live.until("every session's usage", |rows| {
        rows.iter()
            .filter(|r| r.usage.as_ref().is_some_and(|u| u.output == 7))
            .count()
            == BURST
    });
}

/// The inotify watches a process holds, from the kernel's own account.
fn inotify_watches(pid: &str) -> usize {
    let Ok(entries) = std::fs::read_dir(format!("/proc/{pid}/fdinfo")) else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .map(|text| {
            text.lines()
                .filter(|l| l.starts_with("inotify wd:"))
                .count()
        })
        .sum()
}

/// A symlink to a big tree inside the hooks folder costs no watches below
/// it (a link to /usr once cost 11,316 inotify watches): the dashboard's
/// own count, as the kernel tells it.
#[test]
fn a_symlink_in_the_hooks_folder_is_not_followed() {
    let world = World::new();
    let tmux = support::TmuxServer::new();
    let hooks = world.path("hooks");
    let big = world.path("big");
    for i in 0..100 {
        std::fs::create_dir_all(big.join(format!("d{i}/e"))).unwrap();
    }
    std::fs::create_dir_all(hooks.join("real")).unwrap();
    std::os::unix::fs::symlink(&big, hooks.join("link")).unwrap();
    let command = world.greenroom_line(&tmux.name);
    tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "dash",
        "-x",
        "120",
        "-y",
        "30",
        "-e",
        &format!("HOME={}", world.dir.path().display()),
        "-e",
        &format!("MAESTRO_HOOKS_DIR={}", hooks.display()),
        &command,
    ]);
    let pid = tmux.run(&["display-message", "-p", "-t", "=dash:", "#{pane_pid}"]);
    let pid = pid.trim();
    let dash = support::Pane::new(&tmux, "dash");
    dash.until(15, "the dashboard", |s| s.contains("greenroom"));
    // A session created now shows only once the watches are armed.
    let store = SidecarStore::new(world.path("sessions"));
    store
        .create(&Sidecar::new("probe", &world.path("w"), "sh", Utc::now()))
        .unwrap();
    dash.until(15, "the probe session", |s| s.contains("probe"));
    let watches = inotify_watches(pid);
    assert!(watches > 0, "the dashboard watches folders");
    assert!(
        watches < 30,
        "{watches} inotify watches: the link was followed"
    );
}
