//! The actions through `greenroom::ops`, against a real tmux server on a
//! private socket and real files in temp folders.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use crate::support;
use crate::support::actions as actions_support;

use std::path::{Path, PathBuf};

use actions_support::{
    assert_contents, branch_exists, git_repo, has_session, row, rows, server, sidecar_files, stub,
};
use greenroom::config::Config;
use greenroom::model::Status;
use greenroom::ops::{self, Launch, OpsError, SpawnRequest};
use greenroom::sources::sidecar::SidecarStore;
use greenroom::tmux::Tmux;
use support::World;

mod live;
mod restore;
mod send;

fn tmux_of(config: &Config) -> Tmux {
    Tmux::new(config.tmux_socket.clone())
}

fn request(name: Option<&str>, cwd: &Path, launch: Launch) -> SpawnRequest {
    SpawnRequest {
        name: name.map(str::to_owned),
        cwd: cwd.to_path_buf(),
        launch,
        worktree: None,
        prompt: None,
    }
}

fn sleeper(name: &str, cwd: &Path) -> SpawnRequest {
    request(Some(name), cwd, Launch::Command("sleep 600".into()))
}

fn shell_quote_path(p: &Path) -> String {
    ops::shell_quote(&p.to_string_lossy())
}

fn workdir(world: &World) -> PathBuf {
    let dir = world.path("work");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn spawn_records_the_session_and_starts_it_with_greenrooms_environment() {
    let world = World::new();
    let tmux = server();
    let config = world.config(Some(&tmux), &[]);
    let cwd = workdir(&world);
    let out = world.path("env.txt");
    let command = format!(
        "echo \"$GREENROOM_SESSION_ID $GREENROOM_SIDECAR_DIR $PWD\" > {}; sleep 600",
        ops::shell_quote(&out.to_string_lossy())
    );
    let spawned = ops::spawn(
        &tmux_of(&config),
        &config,
        &request(Some("api-1"), &cwd, Launch::Command(command.clone())),
    )
    .unwrap();
    let s = &spawned.sidecar;
    assert_eq!(spawned.warning, None);
    assert_eq!(s.name, "api-1");
    assert_eq!(s.tmux_session.as_deref(), Some("gr-api-1"));
    assert_eq!(s.command, command);
    assert_eq!(s.agent, None);
    assert_eq!(s.cwd, cwd);
    let stored = SidecarStore::new(&config.sidecar_dir).read(s.id).unwrap();
    assert_eq!(stored.status, Status::Running);
    assert!(stored.created_at.is_some());
    assert!(has_session(&tmux, "gr-api-1"));
    let expected = format!(
        "{} {} {}\n",
        s.id,
        config.sidecar_dir.display(),
        cwd.display()
    );
    assert_contents(&out, &expected);
    assert_eq!(row(&rows(&config), "api-1").status, Status::Running);
}

#[test]
fn default_names_skip_live_dismissed_and_tmux_names_and_presets_are_used() {
    let world = World::new();
    let tmux = server();
    let mut config = world.config(Some(&tmux), &[]);
    // Spawn refuses a preset whose program is not there: give claude one.
    let claude_stub = stub(&world.path("bin"), "claude", "exec sleep 600");
    config.agents.get_mut("claude").unwrap().launch = claude_stub.display().to_string();
    let t = tmux_of(&config);
    let cwd = workdir(&world);
    let store = SidecarStore::new(&config.sidecar_dir);
    // agent-1 is dismissed, gr-agent-2 is someone else's tmux session.
    let first = ops::spawn(&t, &config, &sleeper("agent-1", &cwd)).unwrap();
    ops::kill(&t, &store, row(&rows(&config), "agent-1")).unwrap();
    ops::dismiss(&t, &store, row(&rows(&config), "agent-1")).unwrap();
    assert!(store.read(first.sidecar.id).is_err());
    tmux.spawn("gr-agent-2", &["sleep", "600"]);
    assert_eq!(ops::default_name(&t, &store, "agent").unwrap(), "agent-3");

    let spawned = ops::spawn(&t, &config, &request(None, &cwd, Launch::Default)).unwrap();
    assert_eq!(spawned.sidecar.name, "agent-3");
    assert_eq!(spawned.sidecar.agent.as_deref(), Some("shell"));
    assert_eq!(spawned.sidecar.command, config.agents["shell"].launch);
    let claude = ops::spawn(
        &t,
        &config,
        &request(None, &cwd, Launch::Preset("claude".into())),
    )
    .unwrap();
    assert_eq!(claude.sidecar.name, "agent-4");
    assert_eq!(claude.sidecar.agent.as_deref(), Some("claude"));
    assert_eq!(claude.sidecar.command, claude_stub.display().to_string());
}

#[test]
fn spawn_refuses_bad_names_taken_names_missing_folders_and_unknown_presets() {
    let world = World::new();
    let tmux = server();
    let config = world.config(Some(&tmux), &[]);
    let t = tmux_of(&config);
    let cwd = workdir(&world);
    let long = "a".repeat(65);
    for bad in ["", long.as_str(), "a b", "a;b", "ünï", "../x", "x:y", "a.b"] {
        let err = ops::spawn(&t, &config, &sleeper(bad, &cwd)).unwrap_err();
        assert!(matches!(err, OpsError::InvalidName(_)), "{bad:?}: {err}");
        assert!(err.to_string().contains("session name"), "{err}");
    }
    assert!(ops::spawn(&t, &config, &sleeper(&"a".repeat(64), &cwd)).is_ok());
    assert!(
        sidecar_files(&world).len() == 1,
        "only the valid name was written"
    );

    ops::spawn(&t, &config, &sleeper("api-1", &cwd)).unwrap();
    let err = ops::spawn(&t, &config, &sleeper("api-1", &cwd)).unwrap_err();
    assert!(matches!(err, OpsError::NameTaken(_)), "{err}");
    tmux.spawn("gr-theirs", &["sleep", "600"]);
    let err = ops::spawn(&t, &config, &sleeper("theirs", &cwd)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "tmux session gr-theirs already exists; choose another name"
    );
    let gone = world.path("nowhere");
    let err = ops::spawn(&t, &config, &sleeper("x", &gone)).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("folder {} does not exist", gone.display())
    );
    let err = ops::spawn(
        &t,
        &config,
        &request(Some("x"), &cwd, Launch::Preset("nope".into())),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown agent preset \"nope\"; known presets: aider, claude, codex, gemini, opencode, shell"
    );
    let err = ops::spawn(
        &t,
        &config,
        &request(Some("x"), &cwd, Launch::Command(" ".into())),
    )
    .unwrap_err();
    assert!(matches!(err, OpsError::NoCommand), "{err}");
    assert_eq!(sidecar_files(&world).len(), 2, "refusals write nothing");
    assert!(!has_session(&tmux, "gr-x"));
}

#[test]
fn a_failing_tmux_leaves_no_sidecar_and_no_worktree_behind() {
    let world = World::new();
    let tmux = server();
    let config = world.config(Some(&tmux), &[]);
    let cwd = workdir(&world);
    let socket = config.tmux_socket.clone();

    let broken = Tmux::with_program(socket.clone(), "/bin/false");
    assert!(ops::spawn(&broken, &config, &sleeper("api-1", &cwd)).is_err());
    assert!(sidecar_files(&world).is_empty());

    // A tmux that answers everything but refuses to start the session, so
    // the sidecar and the worktree are made, then taken back.
    let fake = stub(
        &world.path("bin"),
        "tmux",
        "for a; do [ \"$a\" = new-session ] && { echo 'server exploded' >&2; exit 1; }; done\nexec tmux \"$@\"",
    );
    let failing = Tmux::with_program(socket, fake);
    let err = ops::spawn(&failing, &config, &sleeper("api-1", &cwd)).unwrap_err();
    assert_eq!(err.to_string(), "tmux new-session failed: server exploded");
    assert!(
        sidecar_files(&world).is_empty(),
        "{:?}",
        sidecar_files(&world)
    );
    let leftovers: Vec<_> = std::fs::read_dir(world.path("sessions"))
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().is_file())
        .collect();
    assert!(
        leftovers.is_empty(),
        "no lock or temp file left: {leftovers:?}"
    );

    let repo = git_repo(&world.path("src/api"));
    let mut req = sleeper("api-2", &repo);
    req.worktree = Some("feat/x".into());
    assert!(ops::spawn(&failing, &config, &req).is_err());
    assert!(sidecar_files(&world).is_empty());
    assert!(!world.path("src/api-feat-x").exists(), "worktree removed");
    assert!(!branch_exists(&repo, "feat/x"), "new branch removed");
    assert!(!has_session(&tmux, "gr-api-2"));
}

#[test]
fn spawn_with_a_worktree_creates_the_branch_and_folder_and_runs_there() {
    let world = World::new();
    let tmux = server();
    let config = world.config(Some(&tmux), &[]);
    let t = tmux_of(&config);
    let repo = git_repo(&world.path("src/api"));
    let mut req = sleeper("wt", &repo);
    req.worktree = Some("feat/login".into());
    let spawned = ops::spawn(&t, &config, &req).unwrap();
    let path = world.path("src/api-feat-login");
    assert!(path.join(".git").exists(), "worktree folder made");
    assert!(branch_exists(&repo, "feat/login"));
    let w = spawned.sidecar.worktree.clone().unwrap();
    assert_eq!(
        (w.repo.as_path(), w.branch.as_str()),
        (repo.as_path(), "feat/login")
    );
    assert_eq!(w.path, path);
    assert_eq!(spawned.sidecar.cwd, path);
    let pane_dir = tmux.run(&[
        "display-message",
        "-p",
        "-t",
        "=gr-wt:",
        "#{pane_current_path}",
    ]);
    assert_eq!(pane_dir.trim(), path.to_string_lossy());

    // The folder exists now: a second spawn on that branch name refuses.
    let mut again = sleeper("wt2", &repo);
    again.worktree = Some("feat/login".into());
    let err = ops::spawn(&t, &config, &again).unwrap_err();
    assert!(err.to_string().contains("already exists"), "{err}");
    let mut bad = sleeper("wt3", &repo);
    bad.worktree = Some("-x".into());
    assert!(ops::spawn(&t, &config, &bad).is_err());
    bad.worktree = Some("a..b".into());
    let err = ops::spawn(&t, &config, &bad).unwrap_err();
    assert_eq!(err.to_string(), "\"a..b\" is not a valid branch name");
    let mut outside = sleeper("wt4", &workdir(&world));
    outside.worktree = Some("b".into());
    let err = ops::spawn(&t, &config, &outside).unwrap_err();
    assert!(
        err.to_string().contains("not inside a git repository"),
        "{err}"
    );
    assert_eq!(sidecar_files(&world).len(), 1);
}
