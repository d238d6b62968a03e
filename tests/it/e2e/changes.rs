//! The built binary in tmux, reviewing a session's changes as a person
//! would: the sidebar's counts follow a save, `c` opens the Changes tab,
//! Enter shows the diff, and a comment on a line reaches the agent's pane.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use chrono::Utc;
use greenroom::sources::sidecar::{Sidecar, SidecarStore};

use crate::support::git::repo_with;
use crate::support::{TmuxServer, World, wait_for};

#[test]
fn a_save_shows_in_the_sidebar_and_a_comment_on_its_diff_reaches_the_agent() {
    let world = World::new();
    let tmux = TmuxServer::new();
    let root = repo_with(&world.path("api"), &[("src/lib.rs", "fn a() {}\n")]);
    let store = SidecarStore::new(world.path("sessions"));
    store.ensure_dir().unwrap();
    let mut s = Sidecar::new("api", &root, "cat", Utc::now());
    s.tmux_session = Some("gr-api".into());
    store.create(&s).unwrap();
    // The agent: a terminal out of line mode copying what it is sent.
    let out = world.path("agent.txt");
    let agent = format!("stty -icanon; echo ready; exec cat > '{}'", out.display());
    tmux.spawn("gr-api", &["sh", "-c", &agent]);
    let dash = world.dashboard(
        &tmux,
        &tmux,
        (160, 40),
        &[("MAESTRO_HOOKS_DIR", &world.path("hooks"))],
    );
    dash.until(15, "the clean work tree", |s| {
        s.contains("api") && s.contains("clean")
    });

    // A save in src/ reaches the sidebar and the detail pane.
    std::fs::write(root.join("src/lib.rs"), "fn a() {}\nfn b() {}\n").unwrap();
    dash.until(15, "the saved file counted", |s| {
        s.contains("~1") && s.contains("+1 −0")
    });

    dash.keys(&["c"]);
    dash.until(15, "the file list", |s| {
        s.contains("src/lib.rs") && s.contains("Enter shows the diff")
    });
    dash.keys(&["Enter"]);
    dash.until(15, "the diff", |s| {
        s.contains("+fn b() {}") && s.contains("unstaged")
    });
    for _ in 0..6 {
        dash.keys(&["j"]);
    }
    dash.until(15, "the cursor on the added line", |s| {
        s.contains("›+fn b() {}")
    });
    dash.keys(&["c"]);
    dash.until(15, "the send dialog with the line named", |s| {
        s.contains("In src/lib.rs line 2:")
    });
    dash.keys(&["-l", "add a doc comment"]);
    dash.keys(&["Enter"]);
    wait_for(15, "the comment in the agent's pane", || {
        let text = std::fs::read_to_string(&out).unwrap_or_default();
        text.contains("In src/lib.rs line 2: add a doc comment\n")
            .then_some(())
    });
}
