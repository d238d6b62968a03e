//! Snapshots of what git says about a session on screen: the sidebar's
//! `+3 ~2` column and the detail pane's rows (from the full dashboard), and
//! the Changes tab's file list and diff (its view, drawn alone).

use std::path::PathBuf;
use std::sync::Arc;

use greenroom::git::DiffText;
use greenroom::model::{
    ChangedFile, Changes, Divergence, FileState, GitOperation, LineCounts, PullRequest,
};
use greenroom::tui::changes::ChangesTab;
use greenroom::tui::view::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::tui_snapshots::{draw, state};

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

const DIFF: &str = "\x1b[1mdiff --git a/src/client.rs b/src/client.rs\x1b[m\n\x1b[1m--- a/src/client.rs\x1b[m\n\x1b[1m+++ b/src/client.rs\x1b[m\n\x1b[36m@@ -38,4 +40,5 @@\x1b[m fn send()\n     let budget = self.budget();\n\x1b[31m-    retry(3)\x1b[m\n\x1b[32m+    retry(budget.attempts)\x1b[m\n\x1b[32m+    budget.spend()\x1b[m\n     Ok(())\n";

fn tab_screen(tab: &ChangesTab, c: &Changes, w: u16, h: u16) -> String {
    let mut s = crate::tui_snapshots::session(
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
        for row in &mut s.rows {
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
    let mut s = crate::tui_snapshots::session(
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
