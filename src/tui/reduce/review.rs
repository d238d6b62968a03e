//! The reducer's part for the Changes tab: `c` opens it on the selected
//! session (and asks for a fresh read of its work tree), then keys move
//! through its files, open a diff, switch its side, select lines and
//! comment on them through the send dialog (the same path as `s`).

use crate::tui::action::GitEffect;
use crate::tui::action::{Command, Effect};
use crate::tui::model::dialog::Dialog;
use crate::tui::model::state::{AppState, DetailTab, Mode};

/// The Changes tab came on screen, or the selection moved while it is:
/// the selected work tree is read again (at most once a second).
pub(in crate::tui) fn refresh_request(state: &AppState) -> Vec<Effect> {
    if state.detail.tab != DetailTab::Changes {
        return Vec::new();
    }
    match state.selected_session() {
        Some(s) if s.changes.is_some() => vec![Effect::Git(GitEffect::RefreshChanges {
            cwd: s.cwd.clone(),
        })],
        _ => Vec::new(),
    }
}

/// `c` in the list.
pub(in crate::tui) fn open(state: &mut AppState) -> Vec<Effect> {
    let Some(s) = state.selected_session() else {
        state.say("no session selected");
        return Vec::new();
    };
    if s.changes.is_none() {
        let name = crate::model::row_name(s).into_owned();
        state.detail.tab = DetailTab::Changes;
        state.say(format!(
            "{name} is not in a git work tree: no changes to review"
        ));
        return Vec::new();
    }
    state.detail.tab = DetailTab::Changes;
    state.mode = Mode::Review;
    refresh_request(state)
}

/// A command in the Changes tab.
pub(in crate::tui) fn command(state: &mut AppState, c: Command) -> Vec<Effect> {
    let Some(changes) = state.selected_session().and_then(|s| s.changes.clone()) else {
        state.mode = Mode::Normal;
        return Vec::new();
    };
    let in_diff = state.detail.review.diff.is_some();
    let page = state.nav.page.max(1) as isize;
    let step = |state: &mut AppState, by: isize| {
        if in_diff {
            state.detail.review.scroll(by);
        } else {
            state.detail.review.move_cursor(by, &changes);
        }
    };
    match c {
        Command::Down => step(state, 1),
        Command::Up => step(state, -1),
        Command::PageDown => step(state, page),
        Command::PageUp => step(state, -page),
        Command::Submit if !in_diff => {
            return state
                .detail
                .review
                .open(&changes)
                .map(|req| Effect::Git(GitEffect::LoadDiff(req)))
                .into_iter()
                .collect();
        }
        Command::NextChoice => {
            return state
                .detail
                .review
                .other_side(&changes)
                .map(|req| Effect::Git(GitEffect::LoadDiff(req)))
                .into_iter()
                .collect();
        }
        Command::Mark if in_diff => state.detail.review.toggle_selection(),
        Command::Comment => return comment(state),
        Command::Cancel if in_diff => state.detail.review.close(),
        Command::Cancel | Command::Quit => state.mode = Mode::Normal,
        _ => {}
    }
    Vec::new()
}

/// Opens the send dialog with the comment's opening words typed in: "In
/// src/x.rs lines 40–52: ", for the operator to finish.
fn comment(state: &mut AppState) -> Vec<Effect> {
    let Some((path, first, last)) = state.detail.review.comment_target() else {
        state.say("open a file's diff (Enter) and put the cursor on a changed line first");
        return Vec::new();
    };
    let Some(s) = state.selected_session() else {
        return Vec::new();
    };
    if let Err(e) = crate::tui::reduce::act::live_check(s) {
        state.say(e);
        return Vec::new();
    }
    let text = crate::ops::comment_text(&path, first, last, "");
    state.mode = Mode::Dialog(Dialog::Send {
        id: s.key(),
        name: crate::model::row_name(s).into_owned(),
        text,
    });
    if let Some(d) = &mut state.detail.review.diff {
        d.anchor = None;
    }
    Vec::new()
}

/// A diff came back: kept only if it is the one open now.
pub(in crate::tui) fn loaded(
    state: &mut AppState,
    generation: u64,
    text: Result<crate::git::DiffText, String>,
) -> Vec<Effect> {
    state.detail.review.loaded(generation, text);
    Vec::new()
}
