//! The reducer: `update(state, action) -> effects`. No IO: everything the
//! dashboard does to the world is an [`Effect`] that run.rs carries out.

use chrono::Duration;

use super::act::{beside, confirm, live_check, quit, spawned, with_selected};
use super::action::{Action, Command, Effect, InputKey};
use super::dialog::{self, Bulk, Dialog, Outcome};
use super::rows::replace_rows;
use super::state::{
    AppState, BesidePane, DetailTab, Mode, Overlay, Preview, SortMode, StatusLine, TmuxStatus,
};
use crate::model::Health;
use crate::tmux::ServerState;

/// How long a status-line message stays.
const STATUS_SECONDS: i64 = 6;

pub fn update(state: &mut AppState, action: Action) -> Vec<Effect> {
    match action {
        Action::Command(c) => command(state, c),
        Action::Shutdown => quit(state),
        Action::Rows { rows, problems } => {
            state.problems = problems;
            let alerts = replace_rows(state, rows);
            let mut effects = if state.alerts { alerts } else { Vec::new() };
            effects.extend(preview_request(state));
            effects
        }
        Action::Tmux(server) => {
            state.tmux = match server {
                ServerState::Running(_) => TmuxStatus::Running,
                ServerState::NoServer => TmuxStatus::NoServer,
                ServerState::NotInstalled => TmuxStatus::NotInstalled,
                ServerState::Error(e) => {
                    say(state, format!("tmux: {e}"));
                    return Vec::new();
                }
            };
            Vec::new()
        }
        Action::Tick(now) => {
            state.now = now;
            if state.status.as_ref().is_some_and(|s| s.until <= now) {
                state.status = None;
            }
            Vec::new()
        }
        Action::Preview { id, text } => {
            if state.selected.as_deref() == Some(id.as_str()) {
                state.preview = Some(Preview { id, text });
            }
            Vec::new()
        }
        Action::Input(key) => input(state, key),
        Action::Paste(text) => paste(state, &text),
        Action::ClickRow(line) => {
            let index = state.offset + line;
            if let Some(&i) = state.visible.get(index) {
                select(state, Some(state.rows[i].id.clone()))
            } else {
                Vec::new()
            }
        }
        Action::ScrollUp => move_by(state, -3),
        Action::ScrollDown => move_by(state, 3),
        Action::Resize { width, height } => {
            let list =
                super::view::sidebar_list_area(ratatui::layout::Rect::new(0, 0, width, height));
            state.page = usize::from(list.height).max(1);
            state.clamp_offset();
            Vec::new()
        }
        Action::Status(text) => {
            if !text.is_empty() {
                say(state, text);
            }
            Vec::new()
        }
        Action::OpenSpawnForm(form) => {
            state.mode = Mode::Dialog(Dialog::Spawn(form));
            Vec::new()
        }
        Action::Spawned(result) => spawned(state, result),
        Action::PathCompleted(done) => {
            if let Mode::Dialog(Dialog::Spawn(form)) = &mut state.mode {
                dialog::completed(form, done);
            }
            Vec::new()
        }
        Action::BesideOpened(result) => {
            match result {
                Ok(pane) => state.beside = BesidePane::Open(pane),
                Err(e) => {
                    state.beside = BesidePane::Closed;
                    say(state, e);
                }
            }
            Vec::new()
        }
        Action::BesideClosed => {
            state.beside = BesidePane::Closed;
            Vec::new()
        }
    }
}

pub(super) fn say(state: &mut AppState, text: impl Into<String>) {
    state.status = Some(StatusLine {
        text: text.into(),
        until: state.now + Duration::seconds(STATUS_SECONDS),
    });
}

fn command(state: &mut AppState, c: Command) -> Vec<Effect> {
    match state.mode {
        Mode::Normal => {}
        // Keys go to the input as text; a command here is Ctrl-C.
        Mode::Dialog(_) | Mode::Filter => {
            return if c == Command::Quit {
                quit(state)
            } else {
                Vec::new()
            };
        }
        // An open overlay takes the keys that would close it; the rest are ignored.
        Mode::Overlay(_) => {
            if matches!(c, Command::Quit | Command::Help | Command::ShowProblems) {
                state.mode = Mode::Normal;
            }
            return Vec::new();
        }
    }
    match c {
        Command::Up => move_by(state, -1),
        Command::Down => move_by(state, 1),
        Command::PageUp => move_by(state, -(state.page as isize)),
        Command::PageDown => move_by(state, state.page as isize),
        Command::Top => move_to(state, 0),
        Command::Bottom => move_to(state, state.visible.len().saturating_sub(1)),
        Command::ToggleTriage => {
            state.sort = match state.sort {
                SortMode::LastFocus => SortMode::Triage,
                SortMode::Triage => SortMode::LastFocus,
            };
            state.refresh_visible();
            say(state, format!("sorted by {}", state.sort.label()));
            Vec::new()
        }
        Command::Filter => {
            state.mode = Mode::Filter;
            Vec::new()
        }
        Command::CycleHealthFilter => {
            state.health_filter = next_health_filter(state.health_filter);
            state.refresh_visible();
            preview_request(state)
        }
        Command::ToggleArchived => {
            state.show_archived = !state.show_archived;
            state.refresh_visible();
            let n = state.rows.iter().filter(|r| r.archived).count();
            let message = match state.show_archived {
                true => format!("showing {n} archived session(s); r restores one, A hides them"),
                false => "archived sessions hidden".to_owned(),
            };
            say(state, message);
            preview_request(state)
        }
        Command::NextTab => {
            state.tab = state.tab.next();
            preview_request(state)
        }
        Command::TogglePreview => {
            state.tab = if state.tab == DetailTab::Preview {
                DetailTab::Overview
            } else {
                DetailTab::Preview
            };
            preview_request(state)
        }
        Command::Help => {
            state.mode = Mode::Overlay(Overlay::Help);
            Vec::new()
        }
        Command::ShowProblems => {
            state.mode = Mode::Overlay(Overlay::Problems);
            Vec::new()
        }
        Command::Quit => quit(state),
        Command::Attach
        | Command::New
        | Command::Kill
        | Command::Restore
        | Command::Send
        | Command::OpenBeside
            if state.tmux == TmuxStatus::NotInstalled =>
        {
            say(
                state,
                "tmux is not installed: greenroom is read-only (install tmux, e.g. apt install tmux)",
            );
            Vec::new()
        }
        Command::Attach => with_selected(state, |s| {
            live_check(s)?;
            Ok(Effect::Attach { id: s.id.clone() })
        }),
        Command::New => vec![Effect::OpenSpawnForm],
        Command::Kill => confirm(state, Bulk::Kill),
        Command::Dismiss => confirm(state, Bulk::Dismiss),
        Command::Restore => with_selected(state, |s| {
            crate::ops::ensure_restorable(s).map_err(|e| e.to_string())?;
            Ok(Effect::Restore { id: s.id.clone() })
        }),
        Command::Send => {
            let dialog = match state.selected_session() {
                Some(s) => live_check(s).map(|()| Dialog::Send {
                    id: s.id.clone(),
                    name: s.name.clone(),
                    text: String::new(),
                }),
                None => Err("no session selected".into()),
            };
            match dialog {
                Ok(d) => state.mode = Mode::Dialog(d),
                Err(e) => say(state, e),
            }
            Vec::new()
        }
        Command::OpenBeside => beside(state),
        Command::Mark => {
            if let Some(id) = state.selected.clone()
                && !state.marked.remove(&id)
            {
                state.marked.insert(id);
            }
            let n = state.marked.len();
            if n > 0 {
                say(
                    state,
                    format!("{n} marked: x kills, D dismisses them all; Space unmarks"),
                );
            }
            move_by(state, 1)
        }
    }
}

fn next_health_filter(current: Option<Health>) -> Option<Health> {
    match current {
        None => Some(Health::ALL[0]),
        Some(h) => {
            let i = Health::ALL.iter().position(|x| *x == h).unwrap_or(0);
            Health::ALL.get(i + 1).copied()
        }
    }
}

/// A key for the current mode's input. Esc reaches here in every mode.
fn input(state: &mut AppState, key: InputKey) -> Vec<Effect> {
    match &mut state.mode {
        Mode::Dialog(open) => {
            let outcome = dialog::key(open, key);
            dialog_outcome(state, outcome)
        }
        Mode::Filter => {
            match key {
                InputKey::Char(c) => state.filter.push(c),
                InputKey::Backspace => {
                    state.filter.pop();
                }
                InputKey::Enter => state.mode = Mode::Normal,
                InputKey::Esc => {
                    state.filter.clear();
                    state.mode = Mode::Normal;
                }
                _ => {}
            }
            state.refresh_visible();
            preview_request(state)
        }
        // Esc closes the overlay; a kept filter stays for the list under it.
        Mode::Overlay(_) => {
            if key == InputKey::Esc {
                state.mode = Mode::Normal;
            }
            Vec::new()
        }
        // Esc clears a kept filter (text and health), showing every row again.
        Mode::Normal => {
            if key != InputKey::Esc || (state.filter.is_empty() && state.health_filter.is_none()) {
                return Vec::new();
            }
            state.filter.clear();
            state.health_filter = None;
            state.refresh_visible();
            say(state, "filter cleared");
            preview_request(state)
        }
    }
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
            state.marked.clear();
            effects
        }
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
            state.filter.push_str(&dialog::one_line(text));
            state.refresh_visible();
            preview_request(state)
        }
        Mode::Normal | Mode::Overlay(_) => Vec::new(),
    }
}

fn move_to(state: &mut AppState, line: usize) -> Vec<Effect> {
    let id = state.visible.get(line).map(|&i| state.rows[i].id.clone());
    select(state, id)
}

fn move_by(state: &mut AppState, delta: isize) -> Vec<Effect> {
    if state.visible.is_empty() {
        return Vec::new();
    }
    let current = state.cursor().unwrap_or(0) as isize;
    let last = state.visible.len() as isize - 1;
    move_to(state, (current + delta).clamp(0, last) as usize)
}

fn select(state: &mut AppState, id: Option<String>) -> Vec<Effect> {
    let changed = state.selected != id;
    state.selected = id;
    if let Some(id) = &state.selected {
        // Looking at a session is what clears its attention mark.
        state.attention.remove(id);
    }
    state.clamp_offset();
    if !changed {
        return Vec::new();
    }
    state.preview = None;
    let mut effects = preview_request(state);
    // Follow mode: the pane beside shows whatever is selected.
    if let Some(pane) = state.beside_pane()
        && let Some(s) = state.selected_session()
        && s.status.is_live()
    {
        effects.push(Effect::Follow {
            id: s.id.clone(),
            pane: pane.clone(),
        });
    }
    effects
}

/// Asks for a fresh capture when the preview is on screen and the selected
/// session has a pane (run.rs throttles how often).
pub fn preview_request(state: &AppState) -> Vec<Effect> {
    if state.tab != DetailTab::Preview {
        return Vec::new();
    }
    match state.selected_session() {
        // An exited session's dead pane is kept: its last lines are the news.
        Some(s) if s.status.is_live() || s.status == crate::model::Status::Exited => s
            .tmux_session
            .clone()
            .map(|t| {
                vec![Effect::CapturePreview {
                    id: s.id.clone(),
                    tmux_session: t,
                }]
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}
