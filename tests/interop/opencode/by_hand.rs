//! An OpenCode started by hand in a plain window (a shell, then `opencode`
//! typed in), no plugin: greenroom finds it with its defaults (no preset,
//! no setting), its permission prompt for a bash call makes the row
//! waiting for that command, and `greenroom send --key y` allows it.

use super::harness::Opencode;
use super::standin::{Reply, StandIn, Usage};
use super::user;
use crate::it_support::{Pane, wait_for};

const COMMAND: &str = "touch greenroom-by-hand";

#[test]
fn an_opencode_started_by_hand_is_found_waits_and_is_answered() {
    let api = StandIn::start();
    api.script([
        Reply::Shell(COMMAND.into(), Usage::default()),
        Reply::Text("stand-in reply: done by hand".into(), Usage::default()),
    ]);
    let c = Opencode::prepare(api.clone());
    let work = c.work();
    user::plain_session(&c.tmux, &c.home(), &work);
    let pane_id = user::first_pane(&c.tmux);
    let pane = Pane::new(&c.tmux, "work");
    user::type_line(&pane, &c.launcher().to_string_lossy());
    Opencode::until_ready(&pane);
    let row = c.until_row(&pane, "opencode@work", "the pane found as opencode", |r| {
        r["id"] == pane_id.as_str()
    });
    assert_eq!(row["source"], "tmux", "{row:#}");
    assert_eq!(row["adopted"]["hooks"], false);
    assert_eq!(row["cwd"], work.to_str().unwrap());
    assert_eq!(c.rows().len(), 1, "one row per agent");

    Opencode::prompt(&pane, "make the file");
    Opencode::until_permission(&pane, COMMAND);
    let row = c.until_row(&pane, "opencode@work", "the row waiting", |r| {
        r["health"] == "waiting"
    });
    let w = &row["activity"]["waiting_for"];
    assert_eq!(w["command"], COMMAND, "{row:#}");
    assert_eq!(w["question"], "Permission required", "{row:#}");
    assert_eq!(w["tool"], "bash", "{row:#}");
    assert!(
        !work.join("greenroom-by-hand").exists(),
        "not before the answer"
    );
    // A key that lands while the prompt is still being drawn is lost:
    // pressed again until the prompt goes (polled, with a deadline).
    wait_for(30, "the prompt answered", || {
        if pane.text().contains("Permission required") {
            c.run(&["send", &pane_id, "--key", "y"]);
            None
        } else {
            Some(())
        }
    });
    super::until_answered(&api, &pane, 2, "done by hand");
    assert!(work.join("greenroom-by-hand").exists());
    c.until_row(&pane, "opencode@work", "the row no longer waiting", |r| {
        r["health"] != "waiting"
    });
}
