//! The reducer's part for commands: what a command of the keymap means in
//! each input mode. `(mode, command)` is matched here and nowhere else.

use super::act::{beside, confirm, live_check, quit};
use super::dialog::{self, Dialog, Outcome};
use super::navigate::{move_by, move_to, preview_request};
use super::op::{Verb, decide, on_selected};
use crate::model::Health;
use crate::tui::action::UiEffect;
use crate::tui::action::{Command, Effect, Erase};
use crate::tui::model::state::{AppState, DetailTab, Holds, Mode, Overlay, SortMode, TmuxStatus};

/// How far a moving key scrolls a long overlay, in lines.
fn scrolls(c: Command) -> Option<isize> {
    match c {
        Command::Down => Some(1),
        Command::Up => Some(-1),
        Command::PageDown => Some(10),
        Command::PageUp => Some(-10),
        Command::Top => Some(isize::MIN),
        _ => None,
    }
}

pub(super) fn command(state: &mut AppState, c: Command) -> Vec<Effect> {
    match &mut state.mode {
        Mode::Normal => normal(state, c),
        Mode::Filter => filter(state, c),
        Mode::Overlay(Overlay::Help) if c == Command::NextPage => {
            state.nav.help_page = (state.nav.help_page + 1) % 2;
            state.nav.help_scroll = 0;
            Vec::new()
        }
        Mode::Overlay(Overlay::Help) if scrolls(c).is_some() => {
            let by = scrolls(c).unwrap_or_default();
            state.nav.help_scroll = state
                .nav
                .help_scroll
                .saturating_add_signed(by)
                .min(crate::tui::model::nav::HELP_SCROLL_MAX);
            Vec::new()
        }
        Mode::Overlay(_) => {
            // Its own Close, or the key that opened it (or quit) closes it;
            // the list's other commands wait until it is closed.
            if matches!(
                c,
                Command::Close | Command::Quit | Command::Help | Command::ShowProblems
            ) {
                state.mode = Mode::Normal;
            }
            Vec::new()
        }
        // Ctrl-C quits from a dialog too (the keys every mode shares).
        Mode::Dialog(_) if c == Command::Quit => quit(state),
        Mode::Dialog(open) => {
            let outcome = dialog::command(open, c);
            dialog_outcome(state, outcome)
        }
        Mode::Review => super::review::command(state, c),
    }
}

/// An edit of the mode's input: a typed character, or what an editing
/// key takes back.
pub(super) enum Edit {
    Type(char),
    Erase(Erase),
}

/// An edit of the filter's or the open dialog's text.
pub(super) fn typed(state: &mut AppState, edit: Edit) -> Vec<Effect> {
    match &mut state.mode {
        Mode::Dialog(open) => {
            match edit {
                Edit::Type(c) => dialog::typed(open, c),
                Edit::Erase(how) => dialog::erase(open, how),
            }
            Vec::new()
        }
        Mode::Filter => {
            match edit {
                Edit::Type(c) => state.nav.filter.push(c),
                Edit::Erase(how) => how.apply(&mut state.nav.filter),
            }
            state.refresh_visible();
            preview_request(state)
        }
        Mode::Normal | Mode::Overlay(_) | Mode::Review => Vec::new(),
    }
}

fn filter(state: &mut AppState, c: Command) -> Vec<Effect> {
    match c {
        Command::Keep => state.mode = Mode::Normal,
        Command::Cancel => {
            state.nav.filter.clear();
            state.mode = Mode::Normal;
        }
        Command::Quit => return quit(state),
        _ => return Vec::new(),
    }
    state.refresh_visible();
    preview_request(state)
}

fn dialog_outcome(state: &mut AppState, outcome: Outcome) -> Vec<Effect> {
    match outcome {
        Outcome::Keep => Vec::new(),
        Outcome::Close => {
            state.mode = Mode::Normal;
            Vec::new()
        }
        Outcome::Effects(effects) => effects,
        Outcome::Done(effects) => {
            state.mode = Mode::Normal;
            state.nav.marked.clear();
            effects
        }
        Outcome::Do(verb, ids) => {
            state.mode = Mode::Normal;
            state.nav.marked.clear();
            decide(state, verb, &ids)
        }
    }
}

/// Commands that act through tmux, refused up front when it is missing.
fn needs_tmux(c: Command) -> bool {
    matches!(
        c,
        Command::Attach
            | Command::New
            | Command::Kill
            | Command::Restore
            | Command::Send
            | Command::OpenBeside
            | Command::Allow
            | Command::Deny
            | Command::Choice(_)
    )
}

fn normal(state: &mut AppState, c: Command) -> Vec<Effect> {
    if needs_tmux(c) && state.link.tmux == TmuxStatus::NotInstalled {
        state.say(
            "tmux is not installed: greenroom is read-only (install tmux, e.g. apt install tmux)",
        );
        return Vec::new();
    }
    match c {
        Command::Up => move_by(state, -1),
        Command::Down => move_by(state, 1),
        Command::PageUp => move_by(state, -(state.nav.page as isize)),
        Command::PageDown => move_by(state, state.nav.page as isize),
        Command::Top => move_to(state, 0),
        Command::Bottom => move_to(state, state.list.visible.len().saturating_sub(1)),
        Command::Filter => {
            state.mode = Mode::Filter;
            Vec::new()
        }
        Command::Help => {
            state.nav.help_page = 0;
            state.nav.help_scroll = 0;
            state.mode = Mode::Overlay(Overlay::Help);
            Vec::new()
        }
        Command::ShowProblems => {
            state.mode = Mode::Overlay(Overlay::Problems);
            Vec::new()
        }
        Command::Quit => quit(state),
        Command::Attach => on_selected(state, |s| {
            live_check(s)?;
            Ok(Verb::Attach)
        }),
        Command::New => vec![Effect::Ui(UiEffect::OpenSpawnForm)],
        Command::Kill => confirm(state, dialog::Bulk::Kill),
        Command::Dismiss => confirm(state, dialog::Bulk::Dismiss),
        Command::Restore => on_selected(state, |s| {
            // A host's row: its greenroom decides, and says why not.
            if s.host.is_none() {
                crate::ops::ensure_restorable(s).map_err(|e| e.to_string())?;
            }
            Ok(Verb::Restore)
        }),
        Command::Send => open_send(state),
        Command::OpenBeside => beside(state),
        Command::Mark => mark(state),
        Command::Review => super::review::open(state),
        Command::NextInQueue => super::triage::step_queue(state, false),
        Command::PrevInQueue => super::triage::step_queue(state, true),
        Command::JumpBack => super::triage::jump_back(state),
        Command::Snooze => super::triage::snooze(state),
        Command::Allow => super::triage::answer(state, crate::ops::AnswerKey::Enter),
        Command::Deny => super::triage::answer(state, crate::ops::AnswerKey::Escape),
        Command::Choice(n) => super::triage::answer(state, crate::ops::AnswerKey::Digit(n)),
        _ => view(state, c),
    }
}

/// The commands that change what the list and the detail pane show.
fn view(state: &mut AppState, c: Command) -> Vec<Effect> {
    match c {
        Command::ToggleTriage => {
            state.nav.sort = match state.nav.sort {
                SortMode::LastFocus | SortMode::Spend => SortMode::Triage,
                SortMode::Triage => SortMode::LastFocus,
            };
            state.refresh_visible();
            state.say(format!("sorted by {}", state.nav.sort.label()));
            Vec::new()
        }
        Command::ToggleSpendSort => {
            state.nav.sort = match state.nav.sort {
                SortMode::LastFocus | SortMode::Triage => SortMode::Spend,
                SortMode::Spend => SortMode::LastFocus,
            };
            state.refresh_visible();
            state.say(format!("sorted by {}", state.nav.sort.label()));
            Vec::new()
        }
        Command::CycleHealthFilter => {
            state.nav.health_filter = next_health_filter(state.nav.health_filter, &state.list.rows);
            state.refresh_visible();
            preview_request(state)
        }
        Command::ClearFilter => clear_filter(state),
        Command::ToggleArchived => {
            state.nav.show_archived = !state.nav.show_archived;
            state.refresh_visible();
            let n = state.list.rows.iter().filter(|r| r.archived).count();
            let message = match state.nav.show_archived {
                true => format!("showing {n} archived session(s); r restores one, A hides them"),
                false => "archived sessions hidden".to_owned(),
            };
            state.say(message);
            preview_request(state)
        }
        Command::NextTab => {
            state.detail.tab = state.detail.tab.next();
            let mut effects = preview_request(state);
            effects.extend(super::review::refresh_request(state));
            effects
        }
        Command::TogglePreview => {
            state.detail.tab = if state.detail.tab == DetailTab::Preview {
                DetailTab::Overview
            } else {
                DetailTab::Preview
            };
            preview_request(state)
        }
        // Other layers' commands mean nothing in the list.
        _ => Vec::new(),
    }
}

/// Esc in the list clears a kept filter (text and health), showing every row again.
fn clear_filter(state: &mut AppState) -> Vec<Effect> {
    if state.nav.filter.is_empty() && state.nav.health_filter.is_none() {
        return Vec::new();
    }
    state.nav.filter.clear();
    state.nav.health_filter = None;
    state.refresh_visible();
    state.say("filter cleared");
    preview_request(state)
}

fn open_send(state: &mut AppState) -> Vec<Effect> {
    let dialog = match state.selected_session() {
        Some(s) => live_check(s).map(|()| Dialog::Send {
            id: s.key(),
            name: crate::model::row_name(s).into_owned(),
            text: String::new(),
        }),
        None => Err("no session selected".into()),
    };
    match dialog {
        Ok(d) => state.mode = Mode::Dialog(d),
        Err(e) => state.say_while(e, state.selected_as_is()),
    }
    Vec::new()
}

fn mark(state: &mut AppState) -> Vec<Effect> {
    if let Some(id) = state.nav.selected.clone()
        && !state.nav.marked.remove(&id)
    {
        state.nav.marked.insert(id);
    }
    let n = state.nav.marked.len();
    if n > 0 {
        state.say_while(
            format!("{n} marked: x kills, D dismisses them all; Space unmarks"),
            Holds::Marked(n),
        );
    }
    move_by(state, 1)
}

/// The next health class after `current` that some row has (a filter
/// that shows nothing is a wasted key press), then none again.
fn next_health_filter(current: Option<Health>, rows: &[crate::model::Session]) -> Option<Health> {
    let start = match current {
        None => 0,
        Some(h) => Health::ALL
            .iter()
            .position(|x| *x == h)
            .map_or(0, |i| i + 1),
    };
    Health::ALL
        .get(start..)
        .unwrap_or_default()
        .iter()
        .copied()
        .find(|h| rows.iter().any(|r| r.health == *h))
}
