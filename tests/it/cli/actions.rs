//! The action subcommands end to end: the real binary on a private tmux
//! server and temp folders, stdin closed (no terminal), as a script runs it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use crate::support;
use crate::support::actions as actions_support;

use std::path::Path;

use actions_support::{
    Greenroom, assert_contents, branch_exists, cat_to, git_repo, has_session, row, rows, server,
    sidecar_files, stub,
};
use greenroom::model::Status;
use greenroom::ops::shell_quote;
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use support::{TmuxServer, World, wait_for};

fn workdir(world: &World) -> std::path::PathBuf {
    let dir = world.path("work");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn spawn_kill_restore_dismiss_through_the_command_line() {
    let world = World::new();
    // No server runs yet: spawn starts it.
    let tmux = TmuxServer::new();
    let gr = Greenroom::new(&world, &tmux);
    let cwd = workdir(&world);
    let config = world.config(Some(&tmux), &[]);
    let out = gr.ok(&["spawn", "--cwd", path_str(&cwd), "--", "sleep", "600"]);
    assert!(out.starts_with("spawned agent-1 in "), "{out}");
    assert!(out.contains("tmux session gr-agent-1"), "{out}");
    assert!(has_session(&tmux, "gr-agent-1"));
    let s = &SidecarStore::new(&config.sidecar_dir).load_all().0[0];
    assert_eq!(s.command, "sleep 600");
    assert_eq!(s.cwd, cwd);

    // The current folder is the default; a relative --cwd is made absolute.
    let out = gr
        .command(&["spawn", "--name", "api-1", "--cwd", "work"])
        .current_dir(world.dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(row(&rows(&config), "api-1").cwd, cwd);
    assert_eq!(row(&rows(&config), "api-1").agent.as_deref(), Some("shell"));

    // Without --yes and without a terminal, kill refuses and changes nothing.
    let err = gr.refused(&["kill", "api-1"]);
    assert_eq!(
        err,
        "greenroom: refusing to kill api-1 without confirmation: pass --yes (stdin is not a terminal to ask on)\n"
    );
    assert!(has_session(&tmux, "gr-api-1"));
    assert_eq!(gr.ok(&["kill", "api-1", "--yes"]), "killed api-1\n");
    assert!(!has_session(&tmux, "gr-api-1"));
    assert!(has_session(&tmux, "gr-agent-1"));
    assert_eq!(row(&rows(&config), "api-1").status, Status::Killed);
    let err = gr.refused(&["kill", "api-1", "--yes"]);
    assert_eq!(
        err,
        "greenroom: api-1 is not running (killed), so there is nothing to kill; dismiss it \
         (D, or `greenroom dismiss api-1`) or restore it (r, or `greenroom restore api-1`)\n"
    );

    let out = gr.ok(&["restore", "api-1"]);
    assert_eq!(out, "restarted api-1: exec ${SHELL:-/bin/sh}\n");
    assert!(has_session(&tmux, "gr-api-1"));
    let err = gr.refused(&["restore", "api-1"]);
    assert!(err.contains("api-1 is running; only dormant"), "{err}");
    let err = gr.refused(&["dismiss", "api-1", "--yes"]);
    assert!(err.contains("api-1 is running; kill it first"), "{err}");

    gr.ok(&["kill", "-y", "api-1"]);
    let err = gr.refused(&["dismiss", "api-1"]);
    assert!(
        err.contains("refusing to dismiss api-1") && err.contains("--yes"),
        "{err}"
    );
    let out = gr.ok(&["dismiss", "api-1", "--yes"]);
    assert!(
        out.starts_with("dismissed api-1 (its record is now "),
        "{out}"
    );
    assert!(rows(&config).iter().all(|r| r.name != "api-1"));
    let err = gr.refused(&["kill", "api-1", "--yes"]);
    assert_eq!(
        err,
        "greenroom: no session matches \"api-1\" (see `greenroom ls`)\n"
    );
}

#[test]
fn dismiss_all_dormant_lists_without_yes_and_moves_with_it() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let cwd = workdir(&world);
    let store = SidecarStore::new(world.path("sessions"));
    for name in ["a-1", "a-2", "a-3"] {
        gr.sleeper(name, &cwd);
    }
    gr.ok(&["kill", "a-1", "--yes"]);
    tmux.run(&["kill-session", "-t", "=gr-a-2"]); // gone behind greenroom's back: dormant

    let out = gr.ok(&["dismiss", "--all-dormant"]);
    assert!(out.starts_with("would dismiss 2 session(s):\n"), "{out}");
    assert!(out.contains("a-1") && out.contains("killed"), "{out}");
    assert!(out.contains("a-2") && out.contains("dormant"), "{out}");
    assert!(!out.contains("a-3"), "{out}");
    assert!(
        out.ends_with("nothing was dismissed; pass --yes to dismiss these\n"),
        "{out}"
    );
    assert_eq!(store.load_all().0.len(), 3, "nothing moved");

    let out = gr.ok(&["dismiss", "--all-dormant", "--yes"]);
    assert!(
        out.contains("dismissed a-1\n") && out.contains("dismissed a-2\n"),
        "{out}"
    );
    let live: Vec<String> = store.load_all().0.into_iter().map(|s| s.name).collect();
    assert_eq!(live, ["a-3"]);
    assert_eq!(store.load_archived().0.len(), 2);
    let out = gr.ok(&["dismiss", "--all-dormant"]);
    assert_eq!(out, "nothing to dismiss: no stopped greenroom session\n");
    let out = gr.run(&["dismiss"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "an ID or --all-dormant is needed"
    );
}

#[test]
fn send_through_the_command_line_is_literal_and_exact() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let cwd = workdir(&world);
    let (one, ten) = (world.path("one.txt"), world.path("ten.txt"));
    let pwned = world.path("pwned");
    let cwd = path_str(&cwd);
    gr.ok(&["spawn", "-n", "api-10", "--cwd", cwd, "--", &cat_to(&ten)]);
    gr.ok(&["spawn", "-n", "api-1", "--cwd", cwd, "--", &cat_to(&one)]);
    let evil = format!("'\"$(touch {0})`touch {0}`; ä 🚀;", pwned.display());
    gr.ok(&["send", "api-1", &evil]);
    gr.ok(&["send", "api-1", "-n", "two", "words"]);
    gr.ok(&["send", "api-1", "first line\nsecond $(line)"]);
    assert_contents(
        &one,
        &format!("{evil}\n-n two words\nfirst line\nsecond $(line)\n"),
    );
    gr.ok(&["send", "api-10", "ten"]);
    assert_contents(&ten, "ten\n");
    assert!(!pwned.exists());

    gr.ok(&["kill", "api-1", "--yes"]);
    let err = gr.refused(&["send", "api-1", "lost"]);
    assert!(err.contains("api-1 is not running"), "{err}");
    let err = gr.refused(&["send", "api", "x"]);
    assert!(err.contains("no session matches \"api\""), "{err}");
}

#[test]
fn spawn_refusals_are_one_line_and_leave_nothing() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let cwd = workdir(&world);
    let cwd = path_str(&cwd);
    for bad in ["", "a b", "a;b", "ünï", "../x", &"x".repeat(65)] {
        let err = gr.refused(&["spawn", "--name", bad, "--cwd", cwd]);
        assert!(err.contains("session name"), "{bad:?}: {err}");
    }
    let err = gr.refused(&["spawn", "--cwd", "/nonexistent/greenroom", "--", "sleep 1"]);
    assert_eq!(
        err,
        "greenroom: folder /nonexistent/greenroom does not exist\n"
    );
    let not_a_folder = world.path("a-file");
    std::fs::write(&not_a_folder, "").unwrap();
    let err = gr.refused(&["spawn", "--cwd", path_str(&not_a_folder), "--", "sleep 1"]);
    assert_eq!(
        err,
        format!("greenroom: {} is not a folder\n", not_a_folder.display())
    );
    let err = gr.refused(&["spawn", "--cwd", cwd, "--agent", "nope"]);
    assert!(
        err.contains("known presets: aider, claude, codex, gemini, opencode, shell"),
        "{err}"
    );
    let out = gr.run(&["spawn", "--agent", "claude", "--", "sleep"]);
    assert_eq!(out.status.code(), Some(2), "--agent and a command conflict");
    gr.ok(&["spawn", "-n", "taken", "--cwd", cwd, "--", "sleep 600"]);
    let err = gr.refused(&["spawn", "-n", "taken", "--cwd", cwd, "--", "sleep 600"]);
    assert_eq!(err, "greenroom: a session named taken already exists\n");
    let repo = git_repo(&world.path("src/api"));
    let err = gr.refused(&["spawn", "--cwd", path_str(&repo), "--worktree", "a..b"]);
    assert!(err.contains("not a valid branch name"), "{err}");
    assert_eq!(sidecar_files(&world).len(), 1);

    // Without tmux installed, actions say so.
    let mut no_tmux = Greenroom::new(&world, &tmux);
    no_tmux.path = Some(path_str(&world.path("empty-bin")).to_owned());
    let err = no_tmux.refused(&["spawn", "--cwd", cwd, "--", "sleep 1"]);
    assert!(err.contains("tmux is not installed"), "{err}");
    assert_eq!(sidecar_files(&world).len(), 1);
}

#[test]
fn spawn_with_a_worktree_and_a_prompt() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let repo = git_repo(&world.path("src/api"));
    let typed = world.path("typed.txt");
    let out = gr.ok(&[
        "spawn",
        "-n",
        "wt",
        "--cwd",
        path_str(&repo),
        "--worktree",
        "feat/login",
        "--prompt",
        "fix the 'login' bug; then $(stop)",
        "--",
        &cat_to(&typed),
    ]);
    let path = world.path("src/api-feat-login");
    assert!(out.contains("new branch feat/login in worktree"), "{out}");
    assert!(path.join(".git").exists());
    assert!(branch_exists(&repo, "feat/login"));
    // A command without a prompt template gets the prompt typed in.
    assert_contents(&typed, "fix the 'login' bug; then $(stop)\n");
    let config = world.config(Some(&tmux), &[]);
    let s = &SidecarStore::new(&config.sidecar_dir).load_all().0[0];
    assert_eq!(s.cwd, path);
    assert_eq!(s.worktree.as_ref().unwrap().branch, "feat/login");
}

#[test]
fn restore_of_a_claude_session_runs_claude_resume_with_its_id() {
    let world = World::new();
    // No server yet: greenroom starts it, with the PATH it was given.
    let tmux = TmuxServer::new();
    let bin = world.path("bin");
    let argv = world.path("argv.txt");
    let record = format!("printf '%s\\n' \"$@\" > {}", shell_quote(path_str(&argv)));
    stub(&bin, "claude", &format!("{record}; exec sleep 600"));
    let mut gr = Greenroom::new(&world, &tmux);
    gr.path = Some(format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap()
    ));
    let store = SidecarStore::new(world.path("sessions"));
    let cwd = workdir(&world);
    let mut s = Sidecar::new("claude-1", &cwd, "claude", chrono::Utc::now());
    s.agent = Some("claude".into());
    s.tmux_session = Some("gr-claude-1".into());
    s.status = Status::Dormant;
    s.agent_session_id = Some("5f2b-conv:1.x_y".into());
    store.create(&s).unwrap();

    let out = gr.ok(&["restore", "claude-1"]);
    assert_eq!(out, "resumed claude-1: claude --resume '5f2b-conv:1.x_y'\n");
    assert_contents(&argv, "--resume\n5f2b-conv:1.x_y\n");
    let stored = store.read(s.id).unwrap();
    assert_eq!(stored.status, Status::Running);
    assert!(stored.restored_at.is_some());
    assert_eq!(stored.command, "claude", "the original command is kept");
}

#[test]
fn attach_outside_tmux_attaches_exactly_and_returns_on_detach() {
    let world = World::new();
    let inner = server();
    let gr = Greenroom::new(&world, &inner);
    let cwd = workdir(&world);
    for name in ["api-10", "api-1", "api-2"] {
        gr.sleeper(name, &cwd);
    }
    gr.ok(&["kill", "api-2", "--yes"]);
    let err = gr.refused(&["attach", "api-2"]);
    assert!(err.contains("api-2 is not running"), "{err}");
    let err = gr.refused(&["attach", "api-3"]);
    assert!(err.contains("no session matches"), "{err}");
    let err = gr.refused(&["attach", "api-1"]);
    assert_eq!(
        err,
        "greenroom: cannot attach to api-1: stdin is not a terminal\n"
    );

    let outer = server();
    let done = world.path("done.txt");
    gr.in_pane(&outer, "host", &["attach", "api-1"], &done);
    let clients = wait_for(10, "a client on api-1", || {
        let out = inner.run(&["list-clients", "-F", "#{client_session}"]);
        (!out.trim().is_empty()).then_some(out)
    });
    assert_eq!(clients.trim(), "gr-api-1");
    inner.run(&["detach-client", "-s", "=gr-api-1"]);
    assert_contents(&done, "0\n");
    let config = world.config(Some(&inner), &[]);
    let rows = rows(&config);
    assert!(row(&rows, "api-1").last_focused_at.is_some());
    assert!(row(&rows, "api-10").last_focused_at.is_none());
}

#[test]
fn on_a_terminal_kill_asks_and_only_yes_kills() {
    let world = World::new();
    let inner = server();
    let gr = Greenroom::new(&world, &inner);
    gr.sleeper("api-1", &workdir(&world));
    let outer = server();
    for (answer, code, alive) in [("n", "1\n", true), ("", "1\n", true), ("y", "0\n", false)] {
        let done = world.path(&format!("done-{answer}.txt"));
        let host = format!("ask{answer}");
        gr.in_pane(&outer, &host, &["kill", "api-1"], &done);
        wait_for(10, "the question", || {
            let screen = outer.run(&["capture-pane", "-p", "-t", &format!("={host}:")]);
            screen.contains("Kill api-1? [y/N]").then_some(())
        });
        outer.run(&["send-keys", "-t", &format!("={host}:"), "-l", "--", answer]);
        outer.run(&["send-keys", "-t", &format!("={host}:"), "Enter"]);
        assert_contents(&done, code);
        assert_eq!(has_session(&inner, "gr-api-1"), alive, "answer {answer:?}");
    }
}

#[test]
fn agent_orchestrator_sessions_can_be_messaged_and_killed_but_not_restored_or_dismissed() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let typed = world.path("typed.txt");
    tmux.spawn("h-ao-1", &["sh", "-c", &cat_to(&typed)]);
    let file = world.path("ao/66c66786e971-proj/sessions/ao-1");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let text = "project=proj\nstatus=working\ntmuxName=h-ao-1\n";
    std::fs::write(&file, text).unwrap();

    gr.ok(&["send", "ao-1", "hello ao"]);
    assert_contents(&typed, "hello ao\n");
    for (action, args) in [
        ("restore", &["restore", "ao-1"][..]),
        ("dismiss", &["dismiss", "ao-1", "--yes"][..]),
    ] {
        let expected = format!(
            "greenroom: ao-1 is an Agent Orchestrator session; \
             greenroom can only {action} the sessions it started\n"
        );
        assert_eq!(gr.refused(args), expected);
    }
    assert_eq!(gr.ok(&["kill", "ao-1", "--yes"]), "killed ao-1\n");
    assert!(!has_session(&tmux, "h-ao-1"));
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        text,
        "ao's file untouched"
    );
}
