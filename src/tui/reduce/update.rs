//! The reducer: `update(state, action) -> effects`. No IO: everything the
//! dashboard does to the world is an [`Effect`] the driver's `Runner`
//! carries out, and everything it learns comes back as an [`Action`].

use crate::tui::action::{Action, Effect, Finished, TmuxEffect};
use crate::tui::model::state::{AppState, BesidePane, Mode, Preview};
use crate::tui::reduce::act::{finished, quit, spawned};
use crate::tui::reduce::commands::{Edit, command, typed};
use crate::tui::reduce::dialog::{self, Dialog, SpawnForm};
use crate::tui::reduce::navigate::{
    move_by, preview_after_rows, preview_look, preview_request, select,
};
use crate::tui::reduce::polling;
use crate::tui::reduce::rows::replace_rows;

pub fn update(state: &mut AppState, action: Action) -> Vec<Effect> {
    crate::tui::reduce::look::note_input(state, &action);
    let effects = dispatch(state, action);
    crate::tui::reduce::status::withdraw_untrue(state);
    effects
}

/// Each action to the part of the reducer it is about.
fn dispatch(state: &mut AppState, action: Action) -> Vec<Effect> {
    match action {
        Action::Command(c) => command(state, c),
        Action::Type(c) => typed(state, Edit::Type(c)),
        Action::Erase(how) => typed(state, Edit::Erase(how)),
        Action::Paste(text) => paste(state, &text),
        Action::Shutdown => quit(state),
        Action::Rows { rows, problems } => new_rows(state, |state| {
            state.list.problems = problems;
            let rows = crate::tui::reduce::hosts::merge(state, rows);
            replace_rows(state, rows)
        }),
        Action::RowsChanged(rows) => new_rows(state, |state| {
            crate::tui::reduce::rows::change_rows(state, rows)
        }),
        Action::PollDue => polling::due(state),
        Action::Polled { server, generation } => polling::polled(state, server, generation),
        Action::Refreshed {
            refresh,
            generation,
        } => polling::refreshed(state, refresh, generation),
        Action::TmuxEvent(event) => polling::event(state, event),
        Action::Screens(seen) => vec![Effect::Tmux(TmuxEffect::ApplyScreens(seen))],
        Action::Tick(now) => tick(state, now),
        Action::Focus(focused) => {
            state.notify.unfocused = !focused;
            Vec::new()
        }
        Action::Hosts(said) => crate::tui::reduce::hosts::news(state, said),
        Action::Preview { id, text } => {
            if state.nav.selected.as_ref() == Some(&id) {
                state.detail.preview = Some(Preview { id, text });
            }
            Vec::new()
        }
        Action::ClickRow(line) => click(state, line),
        Action::ScrollUp => move_by(state, -3),
        Action::ScrollDown => move_by(state, 3),
        Action::Resize { width, height } => resize(state, width, height),
        Action::Status(text) => {
            state.say(text);
            Vec::new()
        }
        Action::Nothing => Vec::new(),
        Action::Finished(done) => effect_finished(state, done),
        Action::OpenSpawnForm(defaults) => {
            state.mode = Mode::Dialog(Dialog::Spawn(SpawnForm::from_defaults(defaults)));
            Vec::new()
        }
        Action::Spawned(result) => {
            state.link.poll.generation += 1;
            let mut effects = spawned(state, result);
            effects.extend(polling::poll(state));
            effects
        }
        Action::PathCompleted(done) => {
            if let Mode::Dialog(Dialog::Spawn(form)) = &mut state.mode {
                dialog::completed(form, done);
            }
            Vec::new()
        }
        Action::BesideOpened(Ok(pane)) => {
            state.link.beside = BesidePane::Open(pane);
            Vec::new()
        }
        Action::BesideOpened(Err(e)) => {
            state.link.beside = BesidePane::Closed;
            state.say(e);
            Vec::new()
        }
        Action::BesideClosed => {
            state.link.beside = BesidePane::Closed;
            Vec::new()
        }
        Action::DiffLoaded { generation, text } => {
            crate::tui::reduce::review::loaded(state, generation, text)
        }
    }
}

/// New rows put in by `put`: their alerts (when alerts are on), and a
/// capture when the preview went stale.
fn new_rows(state: &mut AppState, put: impl FnOnce(&mut AppState) -> Vec<Effect>) -> Vec<Effect> {
    let before = preview_look(state);
    let alerts = put(state);
    let mut effects = if state.settings.alerts {
        alerts
    } else {
        Vec::new()
    };
    effects.extend(preview_after_rows(state, before));
    effects
}

fn tick(state: &mut AppState, now: chrono::DateTime<chrono::Utc>) -> Vec<Effect> {
    state.now = now;
    if state.status.as_ref().is_some_and(|s| s.until <= now) {
        state.status = None;
    }
    let mut effects = crate::tui::reduce::navigate::settled(state);
    effects.extend(crate::tui::reduce::look::dwell(state));
    effects.extend(crate::tui::reduce::look::shown(state));
    effects.extend(crate::tui::reduce::notify::flush(state));
    effects.extend(crate::tui::reduce::hosts::tick(state, now));
    effects
}

fn resize(state: &mut AppState, width: u16, height: u16) -> Vec<Effect> {
    let list = crate::tui::model::layout::sidebar_list_area(ratatui::layout::Rect::new(
        0, 0, width, height,
    ));
    state.nav.page = usize::from(list.height).max(1);
    state.clamp_offset();
    let area = ratatui::layout::Rect::new(0, 0, width, height);
    let detail = crate::tui::model::layout::areas(area).detail;
    let was = crate::tui::model::detail::overview_shows_pane(state.detail.height);
    // Inside its border.
    state.detail.height = detail.map_or(0, |d| d.height.saturating_sub(2));
    // Grown tall enough for the pane's lines: read them now.
    match crate::tui::model::detail::overview_shows_pane(state.detail.height) && !was {
        true => preview_request(state),
        false => Vec::new(),
    }
}

/// An effect on sessions finished: worded, then tmux looked at at once
/// (the effect changed it) rather than at the next tick.
fn effect_finished(state: &mut AppState, done: Finished) -> Vec<Effect> {
    // In a popup, an attach that switched the client is the end:
    // quitting closes the popup over the session.
    let switched = matches!(done, Finished::Switched { .. });
    finished(state, done);
    if switched && state.settings.popup {
        return quit(state);
    }
    state.link.poll.generation += 1;
    polling::poll(state)
}

fn click(state: &mut AppState, line: usize) -> Vec<Effect> {
    match state.list.key_at(state.nav.offset + line) {
        Some(id) => select(state, Some(id)),
        None => Vec::new(),
    }
}

/// A paste is text for the focused input, never commands: a confirmation
/// or no input at all takes nothing from it.
fn paste(state: &mut AppState, text: &str) -> Vec<Effect> {
    match &mut state.mode {
        Mode::Dialog(open) => {
            dialog::paste(open, text);
            Vec::new()
        }
        Mode::Filter => {
            state.nav.filter.push_str(&dialog::one_line(text));
            state.refresh_visible();
            preview_request(state)
        }
        Mode::Normal | Mode::Overlay(_) | Mode::Review => Vec::new(),
    }
}
