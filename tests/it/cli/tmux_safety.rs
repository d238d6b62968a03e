//! Values from outside that greenroom hands to tmux, where tmux would read
//! more than a value: folder and session names it format-expands (`#(cmd)`,
//! `#{...}`), and targets it reads as ids (`$0`) or command separators
//! (`work;`). The real binary on a private tmux server.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use crate::support;
use crate::support::actions as actions_support;

use std::path::PathBuf;

use actions_support::{
    Greenroom, assert_contents, has_session, pane_path, path_str, pwd_to, server,
};
use greenroom::model::Status;
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use support::{TmuxServer, World};

#[test]
fn spawn_and_restore_start_in_exactly_a_folder_named_like_a_format() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let pwned = world.path("pwned");
    let folders: Vec<PathBuf> = vec![
        world.path(&format!("#(touch {})", path_str(&pwned))),
        world.path("#{pane_id}x"),
        world.path("a##b#"),
    ];
    for (n, dir) in folders.iter().enumerate() {
        std::fs::create_dir_all(dir).unwrap();
        let name = format!("odd-{n}");
        let out = world.path(&format!("pwd-{n}.txt"));
        let command = pwd_to(&out);
        gr.ok(&["spawn", "-n", &name, "--cwd", path_str(dir), "--", &command]);
        let expected = format!("{}\n", dir.display());
        assert_contents(&out, &expected);
        assert_eq!(
            pane_path(&tmux, &format!("gr-{name}")),
            dir.display().to_string()
        );

        // Restore starts it again in the same folder.
        std::fs::remove_file(&out).unwrap();
        gr.ok(&["kill", &name, "--yes"]);
        let restored = gr.ok(&["restore", &name]);
        assert!(
            restored.starts_with(&format!("restarted {name}: ")),
            "{restored}"
        );
        assert_contents(&out, &expected);
        assert_eq!(
            pane_path(&tmux, &format!("gr-{name}")),
            dir.display().to_string()
        );
    }
    // tmux runs `#(...)` jobs on its own time: give one a last chance to show.
    tmux.run(&["list-sessions"]);
    assert!(!pwned.exists(), "a folder name was run as a command");
}

#[test]
fn a_recorded_tmux_session_that_tmux_would_expand_is_refused() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let pwned = world.path("pwned");
    let cwd = world.path("work");
    std::fs::create_dir_all(&cwd).unwrap();
    let store = SidecarStore::new(world.path("sessions"));
    let hostile = format!("x#(touch {})", path_str(&pwned));
    let mut s = Sidecar::new("evil", &cwd, "sleep 600", chrono::Utc::now());
    s.tmux_session = Some(hostile.clone());
    s.status = Status::Dormant;
    store.create(&s).unwrap();

    let err = gr.refused(&["restore", "evil"]);
    assert!(
        err.starts_with("greenroom: cannot restore evil: tmux session name \"x#(touch "),
        "{err}"
    );
    assert!(err.contains("is refused: it holds '#'"), "{err}");
    let sessions = tmux.run(&["list-sessions", "-F", "#{session_name}"]);
    assert_eq!(sessions.trim(), "keep", "no session was started");

    // The row has no tmux session, and says why.
    let json: serde_json::Value = serde_json::from_str(&gr.ok(&["ls", "--json"])).unwrap();
    let row = &json["sessions"][0];
    assert_eq!(row["tmux_session"], serde_json::Value::Null);
    let problems = row["problems"].to_string();
    assert!(problems.contains("is refused"), "{problems}");

    // An Agent Orchestrator file naming such a session cannot reach tmux either.
    let file = world.path("ao/66c66786e971-proj/sessions/ao-1");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(
        &file,
        format!("project=proj\nstatus=working\ntmuxName={hostile}\n"),
    )
    .unwrap();
    for args in [&["kill", "ao-1", "--yes"][..], &["send", "ao-1", "hi"][..]] {
        let err = gr.refused(args);
        assert_eq!(
            err, "greenroom: ao-1 has no tmux session greenroom can act on\n",
            "{args:?}"
        );
    }
    tmux.run(&["list-sessions"]);
    assert!(!pwned.exists(), "a recorded name was run as a command");
    assert!(has_session(&tmux, "keep"));
}

/// An Agent Orchestrator session file naming tmux session `tmux_name`.
fn ao_session(world: &World, id: &str, tmux_name: &str) {
    let file = world.path(&format!("ao/66c66786e971-proj/sessions/{id}"));
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(
        &file,
        format!("project=proj\nstatus=working\ntmuxName={tmux_name}\n"),
    )
    .unwrap();
}

fn session_names(tmux: &TmuxServer) -> Vec<String> {
    let mut names: Vec<String> = tmux
        .run(&["list-sessions", "-F", "#{session_name}"])
        .lines()
        .map(str::to_owned)
        .collect();
    names.sort();
    names
}

#[test]
fn names_tmux_would_read_as_ids_or_separators_target_exactly_that_session() {
    let world = World::new();
    // `keep` is session id $0; another session is *named* `$0`.
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let typed = world.path("typed.txt");
    tmux.spawn("$0", &["sh", "-c", &actions_support::cat_to(&typed)]);
    tmux.spawn("work", &["sleep", "600"]);
    // `\;` at the end is how argv names a session `work;` for tmux.
    tmux.spawn("work\\;", &["sleep", "600"]);
    assert_eq!(session_names(&tmux), ["$0", "keep", "work", "work;"]);
    ao_session(&world, "ao-1", "$0");
    ao_session(&world, "ao-2", "work;");

    gr.ok(&["send", "ao-1", "to the session named $0"]);
    assert_contents(&typed, "to the session named $0\n");
    assert_eq!(gr.ok(&["kill", "ao-1", "--yes"]), "killed ao-1\n");
    assert_eq!(session_names(&tmux), ["keep", "work", "work;"]);
    assert_eq!(gr.ok(&["kill", "ao-2", "--yes"]), "killed ao-2\n");
    assert_eq!(session_names(&tmux), ["keep", "work"]);

    // Gone now: the names no longer reach anything, though `$0` is an id.
    for id in ["ao-1", "ao-2"] {
        let err = gr.refused(&["kill", id, "--yes"]);
        assert!(err.contains(&format!("{id} is not running")), "{err}");
    }
    let t = greenroom::tmux::Tmux::new(greenroom::config::TmuxSocket::Name(tmux.name.clone()));
    assert!(!t.has_session("$0").unwrap());
    assert!(!t.has_session("work;").unwrap());
    assert!(t.has_session("work").unwrap());
    assert!(matches!(
        t.kill_session("$0"),
        Err(greenroom::tmux::TmuxError::NoSession(n)) if n == "$0"
    ));
    assert_eq!(session_names(&tmux), ["keep", "work"]);
}

/// A tmux session name read from a file is a session's name, whatever it
/// holds: one written like a pane (`:%0`) never stands for that pane, so
/// kill, send and capture cannot reach a pane greenroom did not adopt.
/// Only an adopted row's `TmuxTarget::Pane` names a pane.
#[test]
fn a_session_name_written_like_a_pane_never_reaches_that_pane() {
    let tmux = server();
    let pane = tmux
        .run(&["display-message", "-p", "-t", "=keep:", "#{pane_id}"])
        .trim_end()
        .to_owned();
    let t = greenroom::tmux::Tmux::new(greenroom::config::TmuxSocket::Name(tmux.name.clone()));
    let as_name = format!(":{pane}");
    assert!(t.capture_text(&as_name).is_err());
    assert!(t.send_literal(&as_name, "x").is_err());
    assert!(t.kill_session(&as_name).is_err());
    assert!(has_session(&tmux, "keep"), "the pane was reached by a name");
    // The pane itself, typed, is reached.
    let id = greenroom::tmux::PaneId::parse(&pane).unwrap();
    assert!(
        t.capture_text(greenroom::tmux::TmuxTarget::Pane(id))
            .is_ok()
    );
}
