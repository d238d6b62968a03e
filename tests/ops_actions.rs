//! The actions through `greenroom::ops`, against a real tmux server on a
//! private socket and real files in temp folders.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

#[path = "support/actions.rs"]
mod actions_support;
mod support;

use std::path::{Path, PathBuf};

use actions_support::{
    assert_contents, branch_exists, cat_to, git_repo, has_session, row, rows, server,
    sidecar_files, stub,
};
use greenroom::config::Config;
use greenroom::model::Status;
use greenroom::ops::{self, Launch, OpsError, SpawnRequest};
use greenroom::sources::sidecar::SidecarStore;
use greenroom::tmux::Tmux;
use support::World;

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

fn workdir(world: &World) -> PathBuf {
    let dir = world.path("work");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn spawn_records_the_session_and_starts_it_with_greenrooms_environment() {
    let world = World::new();
    let tmux = server(None);
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
    let tmux = server(None);
    let config = world.config(Some(&tmux), &[]);
    let t = tmux_of(&config);
    let cwd = workdir(&world);
    let store = SidecarStore::new(&config.sidecar_dir);
    // agent-1 is dismissed, gr-agent-2 is someone else's tmux session.
    let first = ops::spawn(&t, &config, &sleeper("agent-1", &cwd)).unwrap();
    ops::kill(&t, &store, row(&rows(&config), "agent-1")).unwrap();
    ops::dismiss(&store, row(&rows(&config), "agent-1")).unwrap();
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
    assert_eq!(claude.sidecar.command, "claude");
}

#[test]
fn spawn_refuses_bad_names_taken_names_missing_folders_and_unknown_presets() {
    let world = World::new();
    let tmux = server(None);
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
        "unknown agent preset \"nope\"; known presets: aider, claude, codex, gemini, shell"
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
    let tmux = server(None);
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
    let tmux = server(None);
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

#[test]
fn kill_and_send_never_confuse_api_1_with_api_10() {
    let world = World::new();
    let tmux = server(None);
    let config = world.config(Some(&tmux), &[]);
    let t = tmux_of(&config);
    let store = SidecarStore::new(&config.sidecar_dir);
    let cwd = workdir(&world);
    let (out1, out10) = (world.path("one.txt"), world.path("ten.txt"));
    for (name, out) in [("api-10", &out10), ("api-1", &out1)] {
        let cmd = Launch::Command(cat_to(out));
        ops::spawn(&t, &config, &request(Some(name), &cwd, cmd)).unwrap();
    }
    let rows = rows(&config);
    ops::send(&t, row(&rows, "api-1"), "for one").unwrap();
    ops::send(&t, row(&rows, "api-10"), "for ten").unwrap();
    assert_contents(&out1, "for one\n");
    assert_contents(&out10, "for ten\n");

    ops::kill(&t, &store, row(&rows, "api-1")).unwrap();
    assert!(!has_session(&tmux, "gr-api-1"));
    assert!(has_session(&tmux, "gr-api-10"), "api-10 untouched");
    let after = actions_support::rows(&config);
    assert_eq!(row(&after, "api-1").status, Status::Killed);
    assert_eq!(row(&after, "api-10").status, Status::Running);
    let id1 = row(&after, "api-1").id.parse().unwrap();
    assert_eq!(store.read(id1).unwrap().status, Status::Killed);

    // api-1 is gone: send and kill refuse, and never reach api-10.
    let err = ops::send(&t, row(&after, "api-1"), "lost").unwrap_err();
    assert_eq!(
        err.to_string(),
        "api-1 is not running; restore it first (r, or `greenroom restore api-1`)"
    );
    assert!(matches!(
        ops::kill(&t, &store, row(&after, "api-1")),
        Err(OpsError::NotLive(_))
    ));
    // A stale row (it looked live) is refused by tmux's exact target.
    let err = ops::send(&t, row(&rows, "api-1"), "lost").unwrap_err();
    assert!(matches!(err, OpsError::NotLive(_)), "{err}");
    ops::send(&t, row(&after, "api-10"), "still ten").unwrap();
    assert_contents(&out10, "for ten\nstill ten\n");
}

#[test]
fn messages_reach_the_pane_literally() {
    let world = World::new();
    let tmux = server(None);
    let config = world.config(Some(&tmux), &[]);
    let t = tmux_of(&config);
    let out = world.path("pane.txt");
    let pwned = world.path("pwned");
    let cmd = Launch::Command(cat_to(&out));
    ops::spawn(&t, &config, &request(Some("lit"), &workdir(&world), cmd)).unwrap();
    let session = row(&rows(&config), "lit").clone();
    let messages = [
        "it's \"quoted\" and 'single'".to_owned(),
        format!(
            "$(touch {}) and `touch {}`",
            pwned.display(),
            pwned.display()
        ),
        "a; b && c | d > e".into(),
        "ends with;".into(),
        ";".into(),
        "ends with \\;".into(),
        "-n --flag".into(),
        "Enter C-c \\n %1 #{session_name} ~".into(),
        "héllo → 世界 🚀".into(),
        "line one\nline 'two' $(three)\n  indented;".into(),
    ];
    let mut expected = String::new();
    for m in &messages {
        ops::send(&t, &session, m).unwrap();
        expected.push_str(m);
        expected.push('\n');
        assert_contents(&out, &expected);
    }
    assert!(!pwned.exists(), "nothing was run by a shell");
}

#[test]
fn restore_dismiss_and_their_refusals() {
    let world = World::new();
    let tmux = server(None);
    let config = world.config(Some(&tmux), &[]);
    let t = tmux_of(&config);
    let store = SidecarStore::new(&config.sidecar_dir);
    let repo = git_repo(&world.path("src/api"));
    let marker = world.path("runs.txt");
    let cmd = format!(
        "echo run >> {}; sleep 600",
        ops::shell_quote(&marker.to_string_lossy())
    );
    let mut req = request(Some("api-1"), &repo, Launch::Command(cmd.clone()));
    req.worktree = Some("fix".into());
    let id = ops::spawn(&t, &config, &req).unwrap().sidecar.id;
    assert_contents(&marker, "run\n");

    let live = rows(&config);
    let err = ops::restore(&t, &config, row(&live, "api-1")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "api-1 is running; only dormant, killed or exited sessions can be restored"
    );
    let err = ops::dismiss(&store, row(&live, "api-1")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "api-1 is running; kill it first (x, or `greenroom kill api-1`)"
    );
    ops::kill(&t, &store, row(&live, "api-1")).unwrap();

    // The worktree folder vanished while the session was down: restore
    // makes it again from its branch and runs the original command there.
    let wt = world.path("src/api-fix");
    std::fs::remove_dir_all(&wt).unwrap();
    let restored = ops::restore(&t, &config, row(&rows(&config), "api-1")).unwrap();
    assert!(restored.worktree_recreated);
    assert!(!restored.resumed);
    assert_eq!(restored.command, cmd);
    assert!(wt.join(".git").exists());
    assert_contents(&marker, "run\nrun\n");
    let s = store.read(id).unwrap();
    assert_eq!(s.status, Status::Running);
    assert!(s.restored_at.is_some());
    assert_eq!(row(&rows(&config), "api-1").status, Status::Running);

    // A session whose plain folder is gone cannot be restored.
    let gone = world.path("gone");
    std::fs::create_dir_all(&gone).unwrap();
    ops::spawn(&t, &config, &sleeper("homeless", &gone)).unwrap();
    ops::kill(&t, &store, row(&rows(&config), "homeless")).unwrap();
    std::fs::remove_dir_all(&gone).unwrap();
    let err = ops::restore(&t, &config, row(&rows(&config), "homeless")).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("folder {} does not exist", gone.display())
    );
    assert!(!has_session(&tmux, "gr-homeless"));

    // Dismiss moves the record to the archive; the worktree stays.
    let to = ops::dismiss(&store, row(&rows(&config), "homeless")).unwrap();
    assert!(to.starts_with(store.archive_dir()) && to.exists());
    assert!(rows(&config).iter().all(|r| r.name != "homeless"));
    ops::kill(&t, &store, row(&rows(&config), "api-1")).unwrap();
    ops::dismiss(&store, row(&rows(&config), "api-1")).unwrap();
    assert!(wt.exists(), "dismiss never removes a worktree");
    assert!(store.load_all().0.is_empty());
    assert_eq!(store.load_archived().0.len(), 2);
}

#[test]
fn restore_resumes_a_claude_session_with_its_validated_id() {
    let world = World::new();
    let bin = world.path("bin");
    let argv = world.path("argv.txt");
    stub(
        &bin,
        "claude",
        &format!(
            "printf '%s\\n' \"$@\" > {}; exec sleep 600",
            ops::shell_quote(&argv.to_string_lossy())
        ),
    );
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let tmux = server(Some(&path));
    let config = world.config(Some(&tmux), &[]);
    let t = tmux_of(&config);
    let store = SidecarStore::new(&config.sidecar_dir);
    let cwd = workdir(&world);
    let id = ops::spawn(
        &t,
        &config,
        &request(Some("c"), &cwd, Launch::Preset("claude".into())),
    )
    .unwrap()
    .sidecar
    .id;
    assert_contents(&argv, "\n");
    ops::kill(&t, &store, row(&rows(&config), "c")).unwrap();
    std::fs::remove_file(&argv).unwrap();

    store
        .update(id, std::time::Duration::from_secs(1), |s| {
            s.agent_session_id = Some("0b1c2d3e-aaaa-4bbb-8ccc-123456789abc".into());
            true
        })
        .unwrap();
    let r = ops::restore(&t, &config, row(&rows(&config), "c")).unwrap();
    assert!(r.resumed);
    assert_eq!(
        r.command,
        "claude --resume '0b1c2d3e-aaaa-4bbb-8ccc-123456789abc'"
    );
    assert_contents(&argv, "--resume\n0b1c2d3e-aaaa-4bbb-8ccc-123456789abc\n");

    // An id that is not plausible is ignored: the original command runs.
    ops::kill(&t, &store, row(&rows(&config), "c")).unwrap();
    std::fs::remove_file(&argv).unwrap();
    let pwned = world.path("pwned");
    store
        .update(id, std::time::Duration::from_secs(1), |s| {
            s.agent_session_id = Some(format!("x; touch {}", pwned.display()));
            true
        })
        .unwrap();
    let r = ops::restore(&t, &config, row(&rows(&config), "c")).unwrap();
    assert!(!r.resumed);
    assert_eq!(r.command, "claude");
    assert_contents(&argv, "\n");
    assert!(!pwned.exists());
}

#[test]
fn ids_resolve_by_name_then_id_then_unique_prefix() {
    let world = World::new();
    let tmux = server(None);
    let config = world.config(Some(&tmux), &[]);
    let store = SidecarStore::new(&config.sidecar_dir);
    let cwd = workdir(&world);
    let mk = |name: &str, id: &str| {
        let mut s =
            greenroom::sources::sidecar::Sidecar::new(name, &cwd, "sleep 600", chrono::Utc::now());
        s.id = id.parse().unwrap();
        s.tmux_session = Some(format!("gr-{name}"));
        store.create(&s).unwrap();
    };
    mk("api-1", "aaaa1111-0000-4000-8000-000000000001");
    mk("api-10", "aaaa2222-0000-4000-8000-000000000010");
    mk("dead", "bbbb0000-0000-4000-8000-000000000000");
    mk("beef", "deadbeef-0000-4000-8000-000000000000");
    let rows = rows(&config);
    let name_of = |id: &str| ops::resolve(&rows, id).map(|s| s.name.clone());
    assert_eq!(name_of("api-1").unwrap(), "api-1");
    assert_eq!(name_of("api-10").unwrap(), "api-10");
    assert_eq!(name_of("gr-api-1").unwrap(), "api-1");
    assert_eq!(name_of("aaaa1").unwrap(), "api-1");
    assert_eq!(name_of("AAAA2").unwrap(), "api-10");
    assert_eq!(
        name_of("aaaa2222-0000-4000-8000-000000000010").unwrap(),
        "api-10"
    );
    // A name wins over a uuid prefix it happens to spell.
    assert_eq!(name_of("dead").unwrap(), "dead");
    assert_eq!(name_of("deadb").unwrap(), "beef");
    let err = ops::resolve(&rows, "aaaa").unwrap_err().to_string();
    assert_eq!(
        err,
        "\"aaaa\" matches several sessions: api-1 (aaaa1111), api-10 (aaaa2222); use the full id"
    );
    for unknown in ["api", "api-", "aaa", "", "api-100", "zzzz"] {
        let err = ops::resolve(&rows, unknown).unwrap_err();
        assert!(matches!(err, OpsError::UnknownId(_)), "{unknown:?}: {err}");
    }
}

#[test]
fn attach_refuses_what_is_not_live_and_knows_its_own_server() {
    let world = World::new();
    let tmux = server(None);
    let config = world.config(Some(&tmux), &[]);
    let t = tmux_of(&config);
    let store = SidecarStore::new(&config.sidecar_dir);
    let cwd = workdir(&world);
    ops::spawn(&t, &config, &sleeper("api-10", &cwd)).unwrap();
    ops::spawn(&t, &config, &sleeper("api-1", &cwd)).unwrap();
    ops::kill(&t, &store, row(&rows(&config), "api-1")).unwrap();
    let rows = rows(&config);
    let err = ops::attach(&t, &store, row(&rows, "api-1"), None).unwrap_err();
    assert!(matches!(err, OpsError::NotLive(_)), "{err}");
    assert_eq!(
        row(&rows, "api-1").last_focused_at,
        None,
        "no focus recorded"
    );

    let name = &tmux.name;
    let here = format!("/tmp/tmux-1000/{name},4242,0");
    assert!(t.is_current_server(Some(&here)));
    assert!(!t.is_current_server(Some(&format!("/tmp/tmux-1000/{name}0,4242,0"))));
    assert!(!t.is_current_server(Some("/tmp/tmux-1000/default,1,0")));
    assert!(!t.is_current_server(Some("")));
    assert!(!t.is_current_server(None));
}
