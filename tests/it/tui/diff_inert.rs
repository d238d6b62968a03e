//! A file's own bytes in the Changes tab are text, never terminal
//! sequences: an agent that adds a line hidden by `\e[8m` (conceal) or
//! black on black shows it to the operator as written, escapes and all.
//! A real repository, git's real diff, the tab drawn as the dashboard draws it.

use std::sync::Arc;

use greenroom::git::{self, Git};
use greenroom::tui::model::changes::ChangesTab;
use greenroom::tui::view::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::{Color, Modifier};

use crate::support::git::{read, repo_with};

#[test]
fn a_line_the_file_conceals_is_shown_with_its_escapes_visible() {
    let dir = tempfile::tempdir().unwrap();
    let root = repo_with(dir.path(), &[("notes.txt", "first\n")]);
    std::fs::write(
        root.join("notes.txt"),
        "first\n\x1b[8msecret\x1b[0m\n\x1b[30;40mshadow\n",
    )
    .unwrap();
    let c = read(&root);
    let mut tab = ChangesTab::default();
    let req = tab.open(&c).unwrap();
    let text = git::file_diff(&Git::new(), &root, &req.file, req.staged).unwrap();
    assert!(tab.loaded(req.generation, Ok(text)));

    let mut s = crate::tui::snapshots::session(
        "api",
        greenroom::model::Health::Active,
        Some("claude"),
        greenroom::model::Activity::Active,
    );
    s.changes = Some(Arc::new(c));
    let mut t = Terminal::new(TestBackend::new(80, 16)).unwrap();
    t.draw(|f| greenroom::tui::view::changes::render(f, f.area(), &s, &tab, &Theme::dark()))
        .unwrap();
    let buffer = t.backend().buffer().clone();
    let screen = t.backend().to_string();
    assert!(screen.contains("+\\x1b[8msecret\\x1b[0m"), "{screen}");
    assert!(screen.contains("+\\x1b[30;40mshadow"), "{screen}");
    for cell in buffer.content() {
        let hidden = cell.modifier.contains(Modifier::HIDDEN);
        let unreadable = cell.fg == cell.bg && cell.fg != Color::Reset;
        assert!(
            !hidden && !unreadable,
            "{:?} is drawn unseen ({cell:?})\n{screen}",
            cell.symbol()
        );
    }
}
