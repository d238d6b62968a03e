//! Layout snapshots beyond the basic screens: the detail pane's first view
//! (phases, activity and usage together), rows whose text must not push
//! another's out, the sidebar at wide terminals, the header's counts, and
//! the empty problems popup. Fixtures are the snapshot module's.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use std::collections::BTreeMap;
use std::sync::Arc;

use greenroom::model::{Activity, Health, Orchestration, PhaseStatus, Status, Usage};
use greenroom::tui::model::state::{Mode, Overlay};

use crate::tui::snapshots::{ago, draw, orchestration, phase, pick, rows, screen, session, state};

fn with_usage(s: &mut greenroom::tui::model::state::AppState, id: &str) {
    let row = s.list.rows.iter_mut().find(|r| r.id == id).unwrap();
    row.usage = Some(Usage {
        input: 48_200,
        output: 12_700,
        cache_read: 1_300_000,
        cache_write: 96_000,
        cost_usd: Some(4.12),
        by_model: BTreeMap::new(),
        tokens_per_minute: 2_400.0,
        ..Usage::default()
    });
}

/// The first view of a Maestro session: the phases with the current one
/// marked, its state and the token usage, without switching tabs.
#[test]
fn the_first_view_shows_phases_activity_and_usage_together() {
    for (w, h) in [(100, 30), (160, 48)] {
        let mut s = state(w, h, "id-api-retries");
        with_usage(&mut s, "id-api-retries");
        let t = draw(&s, w, h);
        let text = screen(&t);
        for needle in [
            "health",
            "Design the retry budget",
            "Implement retries",
            "Release notes",
            "▶ ✗ 3",
            "tokens",
            "usage",
        ] {
            assert!(text.contains(needle), "{needle} at {w}x{h}:\n{text}");
        }
        let current = text.lines().find(|l| l.contains("▶ ✗ 3")).unwrap();
        assert!(
            current.contains("Implement retries") && current.contains("failed"),
            "phase 3 is current: {current}"
        );
        insta::assert_snapshot!(format!("first_view_{w}x{h}"), t.backend());
    }
}

/// A very long name is cut in its own column; the other rows keep their
/// task and detail text.
#[test]
fn a_very_long_name_does_not_blank_the_other_rows_tasks() {
    let mut rows = rows();
    let mut long = session(
        "maestro-orchestration-for-the-payments-service-migration-2026-q4",
        Health::Stuck,
        None,
        Activity::Active,
    );
    long.status = Status::Unknown("Unknown".into());
    long.orchestration = Some(Arc::new(Orchestration {
        task: Some("Migrate the payments service".into()),
        ..Orchestration::default()
    }));
    long.activity.since = ago(60 * 24);
    rows.push(long);
    for (w, h) in [(100, 30), (160, 48)] {
        let mut s = state(w, h, "id-api-retries");
        s.list.rows = rows.clone();
        s.refresh_visible();
        pick(&mut s, "id-api-retries");
        let t = draw(&s, w, h);
        let text = screen(&t);
        let line = |name: &str| {
            text.lines()
                .find(|l| l.contains(name))
                .unwrap_or_else(|| panic!("{name}:\n{text}"))
                .to_owned()
        };
        assert!(line("web-auth").contains("rate_limit"), "{text}");
        assert!(line("docs-site").contains("Claude"), "{text}");
        assert!(line("maestro-or").contains("maestro-or…"), "cut: {text}");
        insta::assert_snapshot!(format!("long_name_{w}x{h}"), t.backend());
    }
}

/// At 250 columns the sidebar takes more of the width, so long names and
/// tasks show in full.
#[test]
fn the_sidebar_uses_the_room_of_a_wide_terminal() {
    let mut s = state(250, 40, "id-api-retries");
    let row = s
        .list
        .rows
        .iter_mut()
        .find(|r| r.id == "id-docs-site")
        .unwrap();
    row.name = "docs-site-search-navigation".into();
    s.refresh_visible();
    let t = draw(&s, 250, 40);
    let text = screen(&t);
    let sidebar = |name: &str| {
        let line = text.lines().find(|l| l.contains(name)).unwrap();
        line.split("││").next().unwrap().to_owned()
    };
    assert!(
        sidebar("docs-site-search-navigation").contains("Claude needs your permission to use Bash"),
        "{text}"
    );
    assert!(
        sidebar("✖ api-retries").contains("Add a per-request retry budget to the API client"),
        "the task in full:\n{text}"
    );
    insta::assert_snapshot!("wide_250x40", t.backend());
}

/// Every health class is counted as itself, as the `f` filter finds it.
#[test]
fn the_header_counts_killed_and_exited_sessions_as_themselves() {
    let mut s = state(160, 48, "id-api-retries");
    let mut killed = session("old-spike", Health::Killed, Some("claude"), Activity::Idle);
    killed.status = Status::Killed;
    s.list.rows.push(killed);
    s.refresh_visible();
    let t = draw(&s, 160, 48);
    let header = screen(&t).lines().next().unwrap().to_owned();
    for part in ["· 1 dormant", "× 1 killed", "⊘ 1 exited"] {
        assert!(header.contains(part), "{part}: {header}");
    }
}

/// The problems popup with nothing in it says so in full.
#[test]
fn the_empty_problems_popup_is_not_cut_off() {
    for (w, h) in [(60, 20), (160, 48)] {
        let mut s = state(w, h, "id-api-retries");
        s.list.problems.clear();
        s.mode = Mode::Overlay(Overlay::Problems);
        let t = draw(&s, w, h);
        let text = screen(&t);
        assert!(
            text.contains("No problems: every file greenroom found was read."),
            "{text}"
        );
        insta::assert_snapshot!(format!("no_problems_{w}x{h}"), t.backend());
    }
}

/// A phase list in a short pane keeps the current phase.
#[test]
fn a_short_pane_keeps_the_current_phase() {
    let mut s = state(100, 14, "id-api-retries");
    let mut o = orchestration();
    o.phases.push(phase(6, "Ship", PhaseStatus::Pending, &[]));
    s.list.rows[0].orchestration = Some(Arc::new(o));
    let text = screen(&draw(&s, 100, 14));
    assert!(text.contains("▶ ✗ 3"), "{text}");
    assert!(text.contains("more lines in a taller pane"), "{text}");
}

/// A pasted message shows as its lines in the send dialog.
#[test]
fn a_pasted_message_shows_its_lines_in_the_send_dialog() {
    use greenroom::tui::action::{Action, Command};
    use greenroom::tui::reduce::update::update;
    let mut s = state(100, 30, "id-api-retries");
    update(&mut s, Action::Command(Command::Send));
    update(
        &mut s,
        Action::Paste("here is the plan\rxylophone practice\r".into()),
    );
    let t = draw(&s, 100, 30);
    let text = screen(&t);
    let first = text.lines().position(|l| l.contains("> here is the plan"));
    let second = text.lines().position(|l| l.contains("xylophone practice"));
    assert_eq!(first.map(|f| f + 1), second, "two lines:\n{text}");
    insta::assert_snapshot!("send_pasted_100x30", t.backend());
}

/// The new-session form lists the folders an ambiguous Tab left and marks
/// a preset whose program is not installed.
#[test]
fn the_form_lists_folder_candidates_and_marks_a_missing_agent() {
    use greenroom::tui::action::{Action, Completion};
    use greenroom::tui::model::state::Mode;
    use greenroom::tui::reduce::dialog::{Dialog, SpawnField, SpawnForm};
    use greenroom::tui::reduce::update::update;
    let mut s = state(100, 30, "id-api-retries");
    let mut form = SpawnForm::new(
        "agent-4".into(),
        "/home/op/src/pro".into(),
        vec!["claude".into(), "gemini".into()],
    );
    form.missing = vec!["gemini".into()];
    form.agent = 1;
    form.focus = SpawnField::Cwd;
    s.mode = Mode::Dialog(Dialog::Spawn(form));
    update(
        &mut s,
        Action::PathCompleted(Completion {
            text: Some("/home/op/src/project-".into()),
            candidates: vec!["project-alpha".into(), "project-beta".into()],
        }),
    );
    let t = draw(&s, 100, 30);
    let text = screen(&t);
    assert!(text.contains("project-alpha/  project-beta/"), "{text}");
    assert!(text.contains("‹ gemini ›  not installed"), "{text}");
    insta::assert_snapshot!("spawn_candidates_100x30", t.backend());
}
