//! A session greenroom starts lands exactly where it was aimed: its
//! `remain-on-exit` is set on its own window, never on the window of the
//! pane greenroom was run from; it starts in exactly the folder named,
//! whatever tmux would make of the name, or is refused with one line.
//! The real binary on a private tmux server.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use crate::support;
use crate::support::actions as actions_support;

use std::path::{Path, PathBuf};

use actions_support::{
    Greenroom, assert_contents, has_session, pane_path, path_str, pwd_to, server, sidecar_files,
    stub,
};
use support::{TmuxServer, World, wait_for};

/// Runs greenroom in a new session `caller` of the server it acts on, as
/// an operator runs it from a pane there: `TMUX` and `TMUX_PANE` as tmux
/// set them. Its exit code goes to `done`; the pane's shell stays.
fn from_pane(gr: &Greenroom, tmux: &TmuxServer, caller: &str, args: &[&str], done: &Path) {
    let script = gr.pane_script(args, done, "; exec sleep 600");
    tmux.spawn(caller, &["sh", "-c", &script]);
}

/// The window option `remain-on-exit` set on the window itself ("" when
/// it only inherits the global one).
fn own_remain_on_exit(tmux: &TmuxServer, session: &str) -> String {
    tmux.run(&[
        "show-options",
        "-w",
        "-t",
        &format!("={session}:"),
        "remain-on-exit",
    ])
    .trim()
    .to_owned()
}

#[test]
fn spawn_from_inside_tmux_keeps_its_own_sessions_dead_pane_and_leaves_the_callers_window_alone() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let cwd = world.path("work");
    std::fs::create_dir_all(&cwd).unwrap();
    let done = world.path("done");
    // The background `sleep` holds the pty a moment after the exit (tmux
    // 3.3a loses the status of a pane whose pty closes before it reaps it).
    let command = "echo going; sleep 1 & exit 3";
    let args = [
        "spawn",
        "-n",
        "crash",
        "--cwd",
        path_str(&cwd),
        "--",
        command,
    ];
    from_pane(&gr, &tmux, "operator", &args, &done);
    assert_contents(&done, "0\n");

    assert_eq!(own_remain_on_exit(&tmux, "operator"), "");
    assert_eq!(own_remain_on_exit(&tmux, "keep"), "");
    let global = tmux.run(&["show-options", "-g", "-w", "remain-on-exit"]);
    assert_eq!(global.trim(), "remain-on-exit off");
    // greenroom's own session keeps its dead pane, so its crash reads
    // errored with its status rather than dormant.
    let row = wait_for(15, "the crash to read as errored", || {
        gr.ls_row("crash")
            .filter(|r| r["status"] == "Exited" && r["health"] == "errored")
    });
    assert_eq!(row["activity"]["detail"], "exited with status 3", "{row}");
    assert!(has_session(&tmux, "gr-crash"), "the dead pane is kept");
    assert_eq!(own_remain_on_exit(&tmux, "gr-crash"), "remain-on-exit on");
}

#[test]
fn spawn_and_restore_start_in_exactly_a_folder_whose_name_holds_tmux_styles() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let marker = world.path("marker");
    let folders: Vec<PathBuf> = [
        "ws/a;b #[fg=red]".to_owned(),
        "ws/d #[x".to_owned(),
        "ws/d2 ##[x".to_owned(),
        "ws/e #{pane_id}".to_owned(),
        format!("ws/f #(touch {})", path_str(&marker)),
        "ws/$HOME".to_owned(),
        "ws/g;".to_owned(),
        "ws/h #[fg=red];".to_owned(),
    ]
    .iter()
    .map(|rel| world.path(rel))
    .collect();
    for (n, dir) in folders.iter().enumerate() {
        std::fs::create_dir_all(dir).unwrap();
        let name = format!("odd-{n}");
        let out = world.path(&format!("pwd-{n}.txt"));
        let command = pwd_to(&out);
        let said = gr.ok(&["spawn", "-n", &name, "--cwd", path_str(dir), "--", &command]);
        assert!(
            said.starts_with(&format!("spawned {name} in {} (", dir.display())),
            "{said}"
        );
        let expected = format!("{}\n", dir.display());
        assert_contents(&out, &expected);
        assert_eq!(
            pane_path(&tmux, &format!("gr-{name}")),
            dir.display().to_string()
        );

        std::fs::remove_file(&out).unwrap();
        gr.ok(&["kill", &name, "--yes"]);
        gr.ok(&["restore", &name]);
        assert_contents(&out, &expected);
        assert_eq!(
            pane_path(&tmux, &format!("gr-{name}")),
            dir.display().to_string()
        );
    }
    // tmux runs `#(...)` jobs on its own time: give one a last chance to show.
    tmux.run(&["list-sessions"]);
    assert!(!marker.exists(), "a folder name was run as a command");
}

#[test]
fn a_session_tmux_starts_in_another_folder_is_ended_and_refused_in_one_line() {
    let world = World::new();
    let tmux = server();
    let mut gr = Greenroom::new(&world, &tmux);
    // A tmux that reads every start folder as `/`, as a tmux that expands
    // a folder's name differently would start it elsewhere.
    let bin = world.path("bin");
    stub(
        &bin,
        "tmux",
        "for a in \"$@\"; do shift; [ \"$prev\" = -c ] && a=/; set -- \"$@\" \"$a\"; prev=$a; done\nexec /usr/bin/tmux \"$@\"",
    );
    gr.path = Some(format!("{}:/usr/bin:/bin", bin.display()));
    let cwd = world.path("work");
    std::fs::create_dir_all(&cwd).unwrap();

    let err = gr.refused(&[
        "spawn",
        "-n",
        "moved",
        "--cwd",
        path_str(&cwd),
        "--",
        "sleep 600",
    ]);
    assert!(
        err.starts_with("greenroom: tmux started the session in \"/\", not in "),
        "{err}"
    );
    assert!(!has_session(&tmux, "gr-moved"), "the session was ended");
    let names = tmux.run(&["list-sessions", "-F", "#{session_name}"]);
    assert_eq!(names.trim(), "keep", "nothing was left behind");
    assert!(sidecar_files(&world).is_empty(), "no record claims it");
}
