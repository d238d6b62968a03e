//! The new-session form: folder completion (an ambiguous Tab completes
//! what the folders share, lists them and keeps the focus) and presets
//! whose program is not installed.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use crate::support::key_in;
use chrono::TimeZone;
use crossterm::event::KeyCode;
use greenroom::tui::action::{Action, Completion};
use greenroom::tui::model::state::{AppState, Mode};
use greenroom::tui::reduce::dialog::{Dialog, SpawnField, SpawnForm};
use greenroom::tui::reduce::update::update;

fn loaded() -> AppState {
    AppState::new(
        chrono::Utc
            .with_ymd_and_hms(2026, 11, 29, 12, 0, 0)
            .unwrap(),
        vec![],
    )
}

#[test]
fn an_ambiguous_tab_completes_the_common_part_lists_and_stays() {
    let mut s = loaded();
    let mut form = SpawnForm::new("a".into(), "/work/pro".into(), vec!["claude".into()]);
    form.focus = SpawnField::Cwd;
    s.mode = Mode::Dialog(Dialog::Spawn(form));
    let ambiguous = Completion {
        text: Some("/work/project-".into()),
        candidates: vec!["project-a".into(), "project-b".into()],
    };
    update(&mut s, Action::PathCompleted(ambiguous.clone()));
    let f = |s: &AppState| match s.dialog() {
        Some(Dialog::Spawn(f)) => f.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(f(&s).cwd, "/work/project-");
    assert_eq!(f(&s).candidates, ["project-a", "project-b"]);
    assert_eq!(f(&s).focus, SpawnField::Cwd);
    // Tab again with nothing more in common: still there, still listed.
    update(&mut s, Action::PathCompleted(ambiguous));
    assert_eq!(f(&s).focus, SpawnField::Cwd);
    assert_eq!(f(&s).candidates.len(), 2);
    // Typing narrows it and hides the list; a unique match completes.
    key_in(&mut s, KeyCode::Char('a'));
    assert!(f(&s).candidates.is_empty());
    update(
        &mut s,
        Action::PathCompleted(Completion {
            text: Some("/work/project-a/".into()),
            candidates: vec![],
        }),
    );
    assert_eq!(
        (f(&s).cwd.as_str(), f(&s).focus),
        ("/work/project-a/", SpawnField::Cwd)
    );
    // Nothing left to complete: Tab moves on.
    update(&mut s, Action::PathCompleted(Completion::default()));
    assert_eq!(f(&s).focus, SpawnField::Agent);
}

#[test]
fn folder_completion_reads_the_folder_for_the_common_part_and_candidates() {
    use greenroom::tui::shell::jobs::complete_path;
    let dir = tempfile::tempdir().unwrap();
    for d in ["project-a", "project-b", "other"] {
        std::fs::create_dir(dir.path().join(d)).unwrap();
    }
    std::fs::write(dir.path().join("project-file"), "").unwrap();
    let base = dir.path().display().to_string();
    let done = complete_path(&format!("{base}/pro"), None);
    assert_eq!(done.text, Some(format!("{base}/project-")));
    assert_eq!(done.candidates, ["project-a", "project-b"], "folders only");
    let done = complete_path(&format!("{base}/oth"), None);
    assert_eq!(done.text, Some(format!("{base}/other/")));
    assert!(done.candidates.is_empty());
    assert_eq!(
        complete_path(&format!("{base}/zz"), None),
        Completion::default()
    );
}

#[test]
fn presets_whose_program_is_not_on_path_are_found() {
    use greenroom::tui::shell::jobs::{installed, program};
    assert_eq!(program("claude"), Some("claude"));
    assert_eq!(program("exec env FOO=1 codex --x"), Some("codex"));
    assert_eq!(program("exec ${SHELL:-/bin/sh}"), None, "the shell decides");
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("fake-agent");
    std::fs::write(&bin, "#!/bin/sh\n").unwrap();
    let path = std::ffi::OsString::from(format!("/nonexistent:{}", dir.path().display()));
    assert!(
        !installed("fake-agent", Some(&path), None),
        "not executable yet"
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert!(installed("fake-agent", Some(&path), None));
    assert!(!installed("no-such-agent-anywhere", Some(&path), None));
    assert!(installed(&bin.display().to_string(), None, None), "by path");
    assert!(!installed("fake-agent", None, None));
}

#[test]
fn the_form_marks_a_preset_that_is_not_installed() {
    let mut form = SpawnForm::new(
        "a".into(),
        "/work".into(),
        vec!["claude".into(), "gemini".into()],
    );
    form.missing = vec!["gemini".into()];
    assert!(!form.agent_missing());
    form.agent = 1;
    assert!(form.agent_missing());
}
