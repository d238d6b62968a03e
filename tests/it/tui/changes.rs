//! Snapshots of what git says about a session on screen: the sidebar's
//! `+3 ~2` column and the detail pane's rows (from the full dashboard), and
//! the Changes tab's file list and diff (its view, drawn alone).

use greenroom::model::RowKey;
use greenroom::tui::action::GitEffect;
use std::path::PathBuf;
use std::sync::Arc;

use greenroom::git::DiffText;
use greenroom::model::{
    ChangedFile, Changes, Divergence, FileState, GitOperation, LineCounts, PullRequest,
};
use greenroom::tui::model::changes::ChangesTab;
use greenroom::tui::view::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::tui::snapshots::{draw, state};

fn file(
    path: &str,
    staged: Option<FileState>,
    unstaged: Option<FileState>,
    a: u64,
    r: u64,
) -> ChangedFile {
    ChangedFile {
        path: PathBuf::from(path),
        from: None,
        staged,
        unstaged,
        untracked: false,
        binary: false,
        added: a,
        removed: r,
    }
}

fn changes() -> Changes {
    let mut renamed = file("src/retry/budget.rs", Some(FileState::Renamed), None, 4, 1);
    renamed.from = Some(PathBuf::from("src/budget.rs"));
    let mut logo = file("assets/logo.png", None, Some(FileState::Modified), 0, 0);
    logo.binary = true;
    let mut notes = file("NOTES.md", None, None, 0, 0);
    notes.untracked = true;
    Changes {
        root: PathBuf::from("/home/op/src/api-retries"),
        branch: Some("feat/retry-budget".into()),
        head: Some("3f44fa6a1b2c".into()),
        divergence: Some(Divergence {
            against: "origin/feat/retry-budget".into(),
            upstream: true,
            ahead: 2,
            behind: 1,
        }),
        operation: None,
        staged: LineCounts {
            files: 2,
            added: 16,
            removed: 1,
        },
        unstaged: LineCounts {
            files: 2,
            added: 40,
            removed: 12,
        },
        untracked: 1,
        conflicted: 0,
        files: vec![
            file(
                "src/client.rs",
                Some(FileState::Modified),
                Some(FileState::Modified),
                52,
                12,
            ),
            renamed,
            logo,
            notes,
        ],
        files_total: 4,
        new_total: 1,
        problem: None,
        pr: Some(PullRequest {
            url: "https://github.com/op/api/pull/42".into(),
            number: Some(42),
            state: Some("OPEN".into()),
        }),
    }
}

/// As git prints it for the tab: without colour.
const DIFF: &str = "diff --git a/src/client.rs b/src/client.rs\n--- a/src/client.rs\n+++ b/src/client.rs\n@@ -38,4 +40,5 @@ fn send()\n     let budget = self.budget();\n-    retry(3)\n+    retry(budget.attempts)\n+    budget.spend()\n     Ok(())\n";

fn tab_screen(tab: &ChangesTab, c: &Changes, w: u16, h: u16) -> String {
    let mut s = crate::tui::snapshots::session(
        "api-retries",
        greenroom::model::Health::Active,
        Some("claude"),
        greenroom::model::Activity::Active,
    );
    s.changes = Some(Arc::new(c.clone()));
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| {
        greenroom::tui::view::changes::render(f, f.area(), &s, tab, &Theme::no_color());
    })
    .unwrap();
    t.backend().to_string()
}

#[test]
fn the_sidebar_and_the_detail_pane_show_the_work_tree() {
    for (w, h) in [(60, 20), (160, 48)] {
        let mut s = state(w, h, "id-api-retries");
        for row in &mut s.list.rows {
            if row.id == "id-api-retries" {
                row.changes = Some(Arc::new(changes()));
            }
            if row.id == "id-docs-site" {
                let mut c = changes();
                c.branch = None;
                c.divergence = None;
                c.operation = Some(GitOperation::Rebase);
                c.files.truncate(1);
                c.files_total = 1;
                c.new_total = 0;
                c.pr = None;
                row.changes = Some(Arc::new(c));
            }
        }
        s.refresh_visible();
        let t = draw(&s, w, h);
        insta::assert_snapshot!(format!("git_rows_{w}x{h}"), t.backend());
    }
}

#[test]
fn the_changes_tab_lists_files_and_shows_a_diff() {
    let c = changes();
    let mut tab = ChangesTab {
        cursor: 1,
        ..ChangesTab::default()
    };
    insta::assert_snapshot!("changes_list_80x12", tab_screen(&tab, &c, 80, 12));

    tab.cursor = 0;
    let req = tab.open(&c).unwrap();
    assert!(!req.staged);
    insta::assert_snapshot!("changes_diff_loading_80x12", tab_screen(&tab, &c, 80, 12));
    assert!(tab.loaded(
        req.generation,
        Ok(DiffText {
            text: DIFF.into(),
            truncated: false
        })
    ));
    tab.scroll(4);
    tab.toggle_selection();
    tab.scroll(3);
    assert_eq!(
        tab.comment_target(),
        Some((PathBuf::from("src/client.rs"), 40, 42))
    );
    insta::assert_snapshot!("changes_diff_selected_80x12", tab_screen(&tab, &c, 80, 12));
}

#[test]
fn a_clean_tree_and_a_folder_outside_git_say_so() {
    let mut c = changes();
    c.files.clear();
    c.files_total = 0;
    let tab = ChangesTab::default();
    let clean = tab_screen(&tab, &c, 60, 3);
    assert!(
        clean.contains("no changes: the work tree is clean"),
        "{clean}"
    );
    let mut s = crate::tui::snapshots::session(
        "x",
        greenroom::model::Health::Idle,
        None,
        greenroom::model::Activity::Idle,
    );
    s.changes = None;
    let mut t = Terminal::new(TestBackend::new(60, 3)).unwrap();
    t.draw(|f| greenroom::tui::view::changes::render(f, f.area(), &s, &tab, &Theme::no_color()))
        .unwrap();
    assert!(t.backend().to_string().contains("not in a git work tree"));
}

mod reducer {
    use super::*;
    use greenroom::tui::action::{Action, Command, Effect};
    use greenroom::tui::model::state::{DetailTab, Mode};
    use greenroom::tui::reduce::dialog::Dialog;
    use greenroom::tui::reduce::update::update;

    fn reviewing() -> greenroom::tui::model::state::AppState {
        let mut s = state(160, 48, "id-api-retries");
        for row in &mut s.list.rows {
            if row.id == "id-api-retries" {
                row.changes = Some(Arc::new(changes()));
            }
        }
        s.refresh_visible();
        s
    }

    #[test]
    fn c_opens_the_tab_and_asks_for_a_fresh_read() {
        let mut s = reviewing();
        let effects = update(&mut s, Action::Command(Command::Review));
        assert_eq!(s.mode, Mode::Review);
        assert_eq!(s.detail.tab, DetailTab::Changes);
        assert_eq!(
            effects,
            vec![Effect::Git(GitEffect::RefreshChanges {
                cwd: "/home/op/src/api-retries".into()
            })]
        );
        // Down moves the file cursor, not the session.
        update(&mut s, Action::Command(Command::Down));
        assert_eq!(s.detail.review.cursor, 1);
        assert_eq!(
            s.nav.selected.as_ref().map(|k| k.id.as_str()),
            Some("id-api-retries")
        );
        update(&mut s, Action::Command(Command::Cancel));
        assert_eq!(s.mode, Mode::Normal);
    }

    #[test]
    fn a_session_outside_git_has_nothing_to_review() {
        let mut s = state(160, 48, "id-ui-polish");
        let effects = update(&mut s, Action::Command(Command::Review));
        assert!(effects.is_empty());
        assert_eq!(s.mode, Mode::Normal);
        assert!(
            s.status
                .as_ref()
                .unwrap()
                .text
                .contains("not in a git work tree")
        );
    }

    #[test]
    fn enter_loads_a_diff_and_a_stale_one_is_dropped() {
        let mut s = reviewing();
        update(&mut s, Action::Command(Command::Review));
        let first = update(&mut s, Action::Command(Command::Submit));
        let [Effect::Git(GitEffect::LoadDiff(first))] = first.as_slice() else {
            panic!("{first:?}")
        };
        assert!(!first.staged, "the unstaged side first");
        assert_eq!(first.root, PathBuf::from("/home/op/src/api-retries"));
        let second = update(&mut s, Action::Command(Command::NextChoice));
        let [Effect::Git(GitEffect::LoadDiff(second))] = second.as_slice() else {
            panic!("{second:?}")
        };
        assert!(second.staged);
        let old = Action::DiffLoaded {
            generation: first.generation,
            text: Ok(DiffText {
                text: "old".into(),
                truncated: false,
            }),
        };
        update(&mut s, old);
        assert_eq!(
            s.detail.review.diff.as_ref().unwrap().text,
            None,
            "the stale diff is dropped"
        );
        let new = Action::DiffLoaded {
            generation: second.generation,
            text: Ok(DiffText {
                text: DIFF.into(),
                truncated: false,
            }),
        };
        update(&mut s, new);
        assert!(s.detail.review.diff.as_ref().unwrap().text.is_some());
        // Esc closes the diff first, then leaves the tab's keys.
        update(&mut s, Action::Command(Command::Cancel));
        assert!(s.detail.review.diff.is_none());
        assert_eq!(s.mode, Mode::Review);
    }

    #[test]
    fn a_comment_opens_the_send_dialog_with_the_lines_named() {
        let mut s = reviewing();
        update(&mut s, Action::Command(Command::Review));
        let req = update(&mut s, Action::Command(Command::Submit));
        let [Effect::Git(GitEffect::LoadDiff(req))] = req.as_slice() else {
            panic!()
        };
        let text = Ok(DiffText {
            text: DIFF.into(),
            truncated: false,
        });
        update(
            &mut s,
            Action::DiffLoaded {
                generation: req.generation,
                text,
            },
        );
        for _ in 0..4 {
            update(&mut s, Action::Command(Command::Down));
        }
        update(&mut s, Action::Command(Command::Mark));
        for _ in 0..3 {
            update(&mut s, Action::Command(Command::Down));
        }
        update(&mut s, Action::Command(Command::Comment));
        let Mode::Dialog(Dialog::Send { id, text, .. }) = &s.mode else {
            panic!("{:?}", s.mode)
        };
        assert_eq!(id, &RowKey::here("id-api-retries"));
        assert_eq!(text, "In src/client.rs lines 40\u{2013}42: ");
        // What the operator types goes after it, and Enter sends it as `s` does.
        for c in "use the budget".chars() {
            update(&mut s, Action::Type(c));
        }
        let effects = update(&mut s, Action::Command(Command::Submit));
        assert_eq!(
            effects,
            vec![crate::support::here(
                greenroom::tui::reduce::op::Verb::Send(
                    "In src/client.rs lines 40\u{2013}42: use the budget".into()
                ),
                &["id-api-retries"]
            )]
        );
    }

    #[test]
    fn another_session_starts_its_list_from_the_top() {
        let mut s = reviewing();
        s.detail.tab = DetailTab::Changes;
        s.detail.review.cursor = 2;
        update(&mut s, Action::Command(Command::Down));
        assert_eq!(s.detail.review.cursor, 0);
    }
}

mod dismiss {
    use super::*;
    use greenroom::model::Status;
    use greenroom::tui::action::{Action, Command, Finished};
    use greenroom::tui::model::state::Mode;
    use greenroom::tui::reduce::dialog::Dialog;
    use greenroom::tui::reduce::update::update;

    fn with_worktree(clean: bool) -> greenroom::tui::model::state::AppState {
        let mut s = state(100, 30, "id-api-retries");
        for row in &mut s.list.rows {
            if row.id == "id-api-retries" {
                row.id = UID.into();
                row.status = Status::Killed;
                row.own_worktree = Some("/home/op/src/api-feat".into());
                let mut c = changes();
                if clean {
                    c.files.clear();
                    c.files_total = 0;
                }
                row.changes = Some(Arc::new(c));
            }
        }
        s.refresh_visible();
        s.nav.selected = Some(RowKey::here(UID));
        s
    }

    const UID: &str = "7a1c2f4e-0b3d-4e5f-8a9b-1c2d3e4f5a6b";

    #[test]
    fn a_clean_worktree_goes_with_one_w() {
        let mut s = with_worktree(true);
        update(&mut s, Action::Command(Command::Dismiss));
        assert!(matches!(
            s.mode,
            Mode::Dialog(Dialog::DismissWorktree { dirty: false, .. })
        ));
        let effects = update(&mut s, Action::Command(Command::RemoveWorktree));
        assert_eq!(
            effects,
            vec![crate::support::here(
                greenroom::tui::reduce::op::Verb::DismissWorktree {
                    discard_changes: false
                },
                &[UID]
            )]
        );
        assert_eq!(s.mode, Mode::Normal);
    }

    #[test]
    fn uncommitted_changes_need_a_second_w_and_y_keeps_the_worktree() {
        let mut s = with_worktree(false);
        update(&mut s, Action::Command(Command::Dismiss));
        // The first w asks for the removal; only the check behind it (which
        // counts ignored files, unlike the Changes tab) decides.
        assert_eq!(
            update(&mut s, Action::Command(Command::RemoveWorktree)),
            vec![crate::support::here(
                greenroom::tui::reduce::op::Verb::DismissWorktree {
                    discard_changes: false
                },
                &[UID]
            )]
        );
        assert_eq!(s.mode, Mode::Normal);
        // It was refused, naming the work: the dialog comes back, asking
        // for a second w.
        update(
            &mut s,
            Action::Finished(Finished::WorktreeHasWork {
                id: RowKey::here(UID),
                name: "api-retries".into(),
                path: "/home/op/src/api-feat".into(),
                work: vec![
                    "changed src/lib.rs".into(),
                    "ignored .env".into(),
                    "ignored data/".into(),
                ],
            }),
        );
        assert!(matches!(
            s.mode,
            Mode::Dialog(Dialog::DismissWorktree { second: true, .. })
        ));
        insta::assert_snapshot!(
            "dismiss_worktree_second_100x30",
            draw(&s, 100, 30).backend()
        );
        let effects = update(&mut s, Action::Command(Command::RemoveWorktree));
        assert_eq!(
            effects,
            vec![crate::support::here(
                greenroom::tui::reduce::op::Verb::DismissWorktree {
                    discard_changes: true
                },
                &[UID]
            )]
        );

        let mut s = with_worktree(false);
        update(&mut s, Action::Command(Command::Dismiss));
        let effects = update(&mut s, Action::Command(Command::Yes));
        assert_eq!(
            effects,
            vec![crate::support::here(
                greenroom::tui::reduce::op::Verb::Dismiss,
                &[UID]
            )]
        );
    }
}
