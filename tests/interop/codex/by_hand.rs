//! A Codex started by hand in a plain window (a shell, then `codex`
//! typed in), no hooks: greenroom finds it from the poll alone.

use super::harness::Codex;
use super::standin::{Reply, StandIn, Usage};
use super::user;
use crate::it_support::Pane;

#[test]
fn a_codex_started_by_hand_is_found_as_codex() {
    let api = StandIn::start();
    api.script([Reply::Text(
        "stand-in reply by hand".into(),
        Usage::default(),
    )]);
    let c = Codex::prepare(api.clone());
    user::plain_session(&c.tmux, &c.home(), &c.work());
    let pane_id = user::first_pane(&c.tmux);
    let pane = Pane::new(&c.tmux, "work");
    user::type_line(&pane, &c.launcher().to_string_lossy());
    Codex::until_ready(&pane);
    let row = c.until_row(&pane, "codex@work", "the pane found as codex", |r| {
        r["id"] == pane_id.as_str()
    });
    assert_eq!(row["source"], "tmux", "{row:#}");
    assert_eq!(row["adopted"]["hooks"], false);
    assert_eq!(row["cwd"], c.work().to_str().unwrap());
    Codex::prompt(&pane, "say hello");
    super::until_answered(&api, &pane, 1, "stand-in reply by hand");
    assert_eq!(c.rows().len(), 1, "one row per agent");
}
