//! The reducer: `update(state, action) -> effects`. No IO: everything the
//! dashboard does to the world is an [`Effect`] that run.rs carries out.

use chrono::Duration;

use super::act::{confirm, live_check, spawned, with_selected};
use super::action::{Action, Command, Effect, InputKey};
use super::dialog::{self, Bulk, Dialog, Outcome};
use super::rows::replace_rows;
use super::state::{AppState, DetailTab, Overlay, Preview, SortMode, StatusLine, TmuxStatus};
use crate::model::Health;
use crate::tmux::ServerState;

/// How long a status-line message stays.
const STATUS_SECONDS: i64 = 6;

pub fn update(state: &mut AppState, action: Action) -> Vec<Effect> {
    match action {
        Action::Command(c) => command(state, c),
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
            state.dialog = Some(Dialog::Spawn(form));
            Vec::new()
        }
        Action::Spawned(result) => spawned(state, result),
        Action::PathCompleted(done) => {
            if let Some(Dialog::Spawn(form)) = &mut state.dialog {
                match done {
                    Some(text) if text != form.cwd => form.cwd = text,
                    // Nothing to complete: Tab moves on, as in the other fields.
                    _ => form.focus = dialog::SpawnField::Agent,
                }
            }
            Vec::new()
        }
        Action::Beside(open) => {
            state.beside = open;
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
    if state.dialog.is_some() {
        // Keys go to the dialog as input; a command here is Ctrl-C.
        return if c == Command::Quit {
            vec![Effect::Quit]
        } else {
            Vec::new()
        };
    }
    if state.overlay != Overlay::None {
        // An open overlay takes the keys that would close it; the rest are ignored.
        if matches!(c, Command::Quit | Command::Help | Command::ShowProblems) {
            state.overlay = Overlay::None;
        }
        return Vec::new();
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
            state.filter_editing = true;
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
            state.overlay = Overlay::Help;
            Vec::new()
        }
        Command::ShowProblems => {
            state.overlay = Overlay::Problems;
            Vec::new()
        }
        Command::Quit => vec![Effect::Quit],
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
                Ok(d) => state.dialog = Some(d),
                Err(e) => say(state, e),
            }
            Vec::new()
        }
        Command::OpenBeside => with_selected(state, |s| {
            live_check(s)?;
            Ok(Effect::OpenBeside { id: s.id.clone() })
        }),
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

fn input(state: &mut AppState, key: InputKey) -> Vec<Effect> {
    if let Some(open) = &mut state.dialog {
        return match dialog::key(open, key) {
            Outcome::Keep => Vec::new(),
            Outcome::Close => {
                state.dialog = None;
                Vec::new()
            }
            Outcome::Effects(effects) => effects,
            Outcome::Done(effects) => {
                state.dialog = None;
                state.marked.clear();
                effects
            }
        };
    }
    if !state.filter_editing {
        return Vec::new();
    }
    match key {
        InputKey::Char(c) => state.filter.push(c),
        InputKey::Backspace => {
            state.filter.pop();
        }
        InputKey::Enter => state.filter_editing = false,
        InputKey::Esc => {
            state.filter.clear();
            state.filter_editing = false;
        }
        _ => {}
    }
    state.refresh_visible();
    preview_request(state)
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
    if state.beside
        && let Some(s) = state.selected_session()
        && s.status.is_live()
    {
        effects.push(Effect::Follow { id: s.id.clone() });
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
