//! A Codex CLI found in a pane (no hooks) asking to approve a command: the
//! dashboard shows it waiting with the command, and `y` answers it with
//! Enter, which confirms Codex's highlighted "1. Yes, proceed (y)".

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use crate::support::{TmuxServer, World, wait_for};

const SCREEN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/real/codex-screen/codex-0.169.0__approval-screen.txt"
);

#[test]
fn y_on_a_discovered_codex_asking_confirms_its_question() {
    let world = World::new();
    let tmux = TmuxServer::new();
    // A copy of `sh` named `codex` (tmux shows that name) that shows the
    // real question, then records the line it reads: what Enter gives.
    let codex = world.path("codex");
    std::fs::copy("/bin/sh", &codex).unwrap();
    let answer = world.path("answer");
    let script = world.path("asks.sh");
    std::fs::write(
        &script,
        format!(
            "clear; cat '{SCREEN}'\nIFS= read -r line\nprintf 'read [%s]' \"$line\" > '{}'\nexec sleep 600\n",
            answer.display()
        ),
    )
    .unwrap();
    tmux.spawn("work", &[codex.to_str().unwrap(), script.to_str().unwrap()]);
    let dash = world.dashboard(&tmux, &tmux, (160, 40), &[]);
    dash.until(20, "the Codex row waiting with its command", |s| {
        s.contains("1 waiting") && s.contains("touch greenroom-approved")
    });
    assert!(!answer.exists(), "not answered before the key");
    dash.keys(&["y"]);
    let read = wait_for(10, "the fake Codex to read the answer", || {
        std::fs::read_to_string(&answer).ok()
    });
    assert_eq!(read, "read []", "Enter alone");
}
