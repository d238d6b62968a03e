//! Snapshots of the detail pane's Overview saying each fact once: the
//! state with its source and age on one line, why only when it adds to
//! it, what a waiting agent asks with its choices, and in a tall pane the
//! pane's last lines under the rows (the capture the preview takes).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use greenroom::model::{ActivitySource, RowKey, WaitingFor, Why};
use greenroom::tui::model::state::{AppState, Preview};

use crate::tui::snapshots::{draw, pick, screen, state};

/// Claude Code's permission dialog at the bottom of its pane.
const DIALOG: &str = "\
> clean the build and run the tests again

● I'll remove the stale build folder first.

╭─────────────────────────────────────────────────────╮
│ Bash command                                        │
│                                                     │
│   rm -rf build                                      │
│   Remove the stale build folder                     │
│                                                     │
│ Do you want to proceed?                             │
│ ❯ 1. Yes                                            │
│   2. Yes, and don't ask again for rm commands       │
│   3. No, and tell Claude what to do differently     │
╰─────────────────────────────────────────────────────╯



";

/// A working agent's pane: more lines than any detail pane shows.
fn working_pane() -> String {
    let mut text = String::from("> make the retry budget configurable\n\n");
    for i in 1..=60 {
        text.push_str(&format!(
            "  ⎿  Read src/client/retry_{i}.rs ({} lines)\n",
            40 + i
        ));
    }
    text.push_str("\n✻ Thinking… (esc to interrupt)\n");
    text
}

/// docs-site waits on Claude Code's dialog; its why line only restates
/// the report, so it is not shown.
fn waiting(w: u16, h: u16) -> AppState {
    let mut s = state(w, h, "id-docs-site");
    let row = s
        .list
        .rows
        .iter_mut()
        .find(|r| r.id == "id-docs-site")
        .unwrap();
    row.activity.source = ActivitySource::Hook;
    row.waiting_for = Some(WaitingFor {
        question: Some("Do you want to proceed?".into()),
        tool: Some("Bash".into()),
        command: Some("rm -rf build".into()),
        options: vec![
            "Yes".into(),
            "Yes, and don't ask again for rm commands".into(),
            "No".into(),
        ],
    });
    row.why = Why::from("the hook reported AwaitingInput 2m ago: waiting").restating();
    s.detail.preview = Some(Preview {
        id: RowKey::here("id-docs-site"),
        text: DIALOG.into(),
    });
    pick(&mut s, "id-docs-site");
    s
}

#[test]
fn a_waiting_agent_shows_its_question_and_its_dialog() {
    for (w, h) in [(80, 24), (100, 40)] {
        let s = waiting(w, h);
        let t = draw(&s, w, h);
        insta::assert_snapshot!(format!("waiting_agent_{w}x{h}"), t.backend());
        let text = screen(&t);
        // The state once: no activity line, no restated why.
        assert!(!text.contains("activity"), "{text}");
        assert!(!text.contains("the hook reported"), "{text}");
        assert!(text.contains("1. Yes"), "{text}");
    }
}

/// A tall pane: the rows, then as many of the pane's last lines as fit,
/// the newest at the bottom.
#[test]
fn a_tall_pane_fills_with_the_pane_last_lines() {
    let (w, h) = (120, 50);
    let mut s = state(w, h, "id-ui-polish");
    s.detail.preview = Some(Preview {
        id: RowKey::here("id-ui-polish"),
        text: working_pane(),
    });
    pick(&mut s, "id-ui-polish");
    let t = draw(&s, w, h);
    insta::assert_snapshot!(format!("tall_overview_with_its_pane_{w}x{h}"), t.backend());
    let text = screen(&t);
    assert!(text.contains("Thinking"), "{text}");
    assert!(text.contains("retry_30.rs"), "{text}");
    // No room for the first of them.
    assert!(!text.contains("retry_1.rs"), "{text}");
}

/// A short pane keeps its rows and shows none of the pane; a capture of
/// another session is never shown.
#[test]
fn a_short_pane_or_another_capture_shows_no_pane_lines() {
    let (w, h) = (60, 20);
    let s = waiting(w, h);
    let text = screen(&draw(&s, w, h));
    assert!(!text.contains("its pane"), "{text}");
    assert!(text.contains("asks"), "{text}");
    let mut s = waiting(100, 40);
    s.detail.preview.as_mut().unwrap().id = RowKey::here("id-ui-polish");
    let text = screen(&draw(&s, 100, 40));
    assert!(!text.contains("its pane"), "{text}");
}

/// A why line that judged something (silence) is shown under the state.
#[test]
fn a_why_that_adds_is_shown() {
    let (w, h) = (80, 24);
    let mut s = state(w, h, "id-migrate-db");
    let row = s
        .list
        .rows
        .iter_mut()
        .find(|r| r.id == "id-migrate-db")
        .unwrap();
    row.why = Why::from("no word from the agent for 14m; last: Bash `cargo test`: stuck after 10m");
    let t = draw(&s, w, h);
    insta::assert_snapshot!(format!("stuck_with_why_{w}x{h}"), t.backend());
    assert!(screen(&t).contains("no word from the agent"));
}
