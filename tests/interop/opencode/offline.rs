//! The harness itself: OpenCode starts in its private world, talks only to
//! the stand-in, asks before a bash call, and records the session in its
//! own database and its own CLI's list.

use super::harness::Opencode;
use super::standin::{Reply, StandIn, Usage};
use super::user;
use crate::it_support::Pane;

#[test]
fn opencode_runs_offline_against_the_stand_in() {
    let api = StandIn::start();
    let usage = Usage {
        prompt: 1_200,
        cached: 200,
        completion: 34,
        reasoning: 5,
    };
    api.script([
        Reply::Shell("touch greenroom-was-here".into(), usage),
        Reply::Text("stand-in done".into(), usage),
    ]);
    let c = Opencode::prepare(api.clone());
    user::plain_session(&c.tmux, &c.home(), &c.work());
    let pane = Pane::new(&c.tmux, "work");
    user::type_line(&pane, &c.launcher().to_string_lossy());
    Opencode::until_ready(&pane);
    Opencode::prompt(&pane, "run the command");
    Opencode::until_permission(&pane, "touch greenroom-was-here");
    pane.keys(&["Enter"]);
    super::until_answered(&api, &pane, 2, "stand-in done");
    assert!(c.work().join("greenroom-was-here").is_file());
    assert!(
        api.paths().iter().all(|p| p == "/v1/chat/completions"),
        "{:?}",
        api.paths()
    );
    assert!(
        !c.config_dir().join("node_modules/@opencode-ai").exists(),
        "OpenCode installed its plugin package from the network"
    );
    let sessions = c.sessions();
    assert_eq!(sessions.len(), 1, "{sessions:#?}");
    assert!(c.db().is_file());
}
