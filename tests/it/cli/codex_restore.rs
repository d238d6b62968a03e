//! A Codex session greenroom started, killed and restored: it resumes its
//! own conversation with `codex resume <id>` (Codex's `resume` subcommand,
//! codex-rs/cli/src/main.rs), the id being the thread id Codex reported.
//! A stand-in `codex` records its arguments and, like Codex's `notify`
//! program, runs `greenroom report '<json>'` at the end of its first turn.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use greenroom::ops::shell_quote;
use greenroom::sources::sidecar::SidecarStore;

use crate::support::actions::{Greenroom, stub};
use crate::support::{TmuxServer, World, wait_for};

const NOTICE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/real/codex-hook-payloads/codex-legacy-notify__agent-turn-complete.json"
);
const THREAD: &str = "b5f6c1c2-1111-2222-3333-444455556666";

#[test]
fn kill_then_restore_of_a_spawned_codex_resumes_its_thread() {
    let world = World::new();
    let tmux = TmuxServer::new();
    let bin = world.path("bin");
    let argv = world.path("argv.txt");
    let notice = std::fs::read_to_string(NOTICE).unwrap();
    let q = |p: &std::path::Path| shell_quote(p.to_str().unwrap());
    let report = format!(
        "{} report {}",
        q(std::path::Path::new(env!("CARGO_BIN_EXE_greenroom"))),
        shell_quote(notice.trim())
    );
    let body = format!(
        "printf '[%s]' \"$@\" >> {argv}; echo >> {argv}\n\
         [ \"$1\" = resume ] || {report}\n\
         exec sleep 600",
        argv = q(&argv)
    );
    stub(&bin, "codex", &body);
    let mut gr = Greenroom::new(&world, &tmux);
    gr.path = Some(format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap()
    ));
    let cwd = world.path("work");
    std::fs::create_dir_all(&cwd).unwrap();
    gr.ok(&[
        "spawn",
        "-n",
        "cx",
        "--agent",
        "codex",
        "--cwd",
        cwd.to_str().unwrap(),
    ]);

    let store = SidecarStore::new(world.path("sessions"));
    let (all, _) = store.load_all();
    let id = all.into_iter().find(|s| s.name == "cx").unwrap().id;
    wait_for(15, "Codex's notice to name its thread", || {
        store
            .read(id)
            .ok()
            .and_then(|s| s.agent_session_id)
            .filter(|t| t == THREAD)
    });

    gr.ok(&["kill", "cx", "--yes"]);
    let out = gr.ok(&["restore", "cx"]);
    assert_eq!(out, format!("resumed cx: codex resume '{THREAD}'\n"));
    let runs = wait_for(15, "codex to run again", || {
        std::fs::read_to_string(&argv)
            .ok()
            .filter(|t| t.lines().count() == 2)
    });
    assert_eq!(runs, format!("[]\n[resume][{THREAD}]\n"));
}
