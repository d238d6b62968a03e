//! restore and dismiss through ops, and what they refuse.

use super::actions_support::{assert_contents, git_repo, has_session, row, rows, server, stub};
use super::support::{World, wait_for};
use super::{request, shell_quote_path, sleeper, tmux_of, workdir};
use greenroom::model::Status;
use greenroom::ops::{self, Launch, OpsError};
use greenroom::sources::sidecar::SidecarStore;

#[test]
fn restore_dismiss_and_their_refusals() {
    let world = World::new();
    let tmux = server();
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
        "api-1 is running; only dormant, killed, exited or archived sessions can be restored"
    );
    let err = ops::dismiss(&t, &store, row(&live, "api-1")).unwrap_err();
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
    let to = ops::dismiss(&t, &store, row(&rows(&config), "homeless")).unwrap();
    assert!(to.starts_with(store.archive_dir()) && to.exists());
    assert!(rows(&config).iter().all(|r| r.name != "homeless"));
    ops::kill(&t, &store, row(&rows(&config), "api-1")).unwrap();
    ops::dismiss(&t, &store, row(&rows(&config), "api-1")).unwrap();
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
    // The preset runs the stub by its path (spawn checks that it is there).
    let tmux = server();
    let mut config = world.config(Some(&tmux), &[]);
    let claude = bin.join("claude").display().to_string();
    let preset = config.agents.get_mut("claude").unwrap();
    for line in [&mut preset.launch]
        .into_iter()
        .chain(preset.resume.as_mut())
        .chain(preset.launch_with_prompt.as_mut())
    {
        *line = line.replacen("claude", &claude, 1);
    }
    let t = tmux_of(&config);
    let store = SidecarStore::new(&config.sidecar_dir);
    let cwd = workdir(&world);
    // The preset's launch_with_prompt gets the first prompt as one argument.
    let mut req = request(Some("c"), &cwd, Launch::Preset("claude".into()));
    let prompt = "fix it's $(bug); `now`";
    req.prompt = Some(prompt.into());
    let spawned = ops::spawn(&t, &config, &req).unwrap();
    let id = spawned.sidecar.id;
    assert_eq!(spawned.warning, None);
    assert_contents(&argv, &format!("{prompt}\n"));
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
        format!("{claude} --resume '0b1c2d3e-aaaa-4bbb-8ccc-123456789abc'")
    );
    assert_contents(&argv, "--resume\n0b1c2d3e-aaaa-4bbb-8ccc-123456789abc\n");

    // An id that is not plausible is ignored: the preset starts afresh,
    // and the first prompt, which the first run had, is not sent again.
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
    assert_eq!(r.command, claude);
    assert_ne!(
        spawned.sidecar.command, claude,
        "the prompt was in the first command"
    );
    assert_contents(&argv, "\n");
    assert!(!pwned.exists());
}

#[test]
fn restore_clears_the_dead_pane_tmux_kept_of_an_exited_session() {
    let world = World::new();
    let tmux = server();
    let config = world.config(Some(&tmux), &[]);
    let t = tmux_of(&config);
    let marker = world.path("runs.txt");
    let cmd = format!(
        "echo run >> {}; read line; exit 3",
        shell_quote_path(&marker)
    );
    ops::spawn(
        &t,
        &config,
        &request(Some("ex"), &workdir(&world), Launch::Command(cmd)),
    )
    .unwrap();
    assert_contents(&marker, "run\n");
    tmux.run(&["set-option", "-w", "-t", "=gr-ex:", "remain-on-exit", "on"]);
    ops::send(&t, row(&rows(&config), "ex"), "").unwrap();
    wait_for(10, "the pane to die", || {
        (row(&rows(&config), "ex").status == Status::Exited).then_some(())
    });
    assert!(has_session(&tmux, "gr-ex"), "tmux keeps the dead pane");
    let exited = row(&rows(&config), "ex").clone();
    assert!(matches!(
        ops::send(&t, &exited, "x"),
        Err(OpsError::NotLive(_))
    ));
    let r = ops::restore(&t, &config, &exited).unwrap();
    assert!(!r.resumed);
    assert_contents(&marker, "run\nrun\n");
    assert_eq!(row(&rows(&config), "ex").status, Status::Running);
}
