//! The reducer: `update(state, action) -> effects`. No IO: everything the
//! dashboard does to the world is an [`Effect`] that run.rs carries out.

use std::collections::HashMap;

use chrono::Duration;

use super::action::{Action, Command, Effect, InputKey};
use super::dialog::{self, Bulk, Dialog, Outcome};
use super::state::{AppState, DetailTab, Overlay, Preview, SortMode, StatusLine, TmuxStatus};
use crate::model::{Health, Session};
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

fn spawned(state: &mut AppState, result: Result<String, String>) -> Vec<Effect> {
    match result {
        Ok(id) => {
            state.dialog = None;
            say(state, "session started");
            // Its row arrives with the sidecar's file event: select it then.
            state.select_when_seen = Some(id);
            Vec::new()
        }
        Err(e) => {
            if let Some(Dialog::Spawn(form)) = &mut state.dialog {
                form.busy = false;
                form.error = Some(e);
            } else {
                say(state, e);
            }
            Vec::new()
        }
    }
}

/// The sessions an action applies to: the marked ones, else the selected one.
fn targets(state: &AppState) -> Vec<(String, String)> {
    let marked: Vec<(String, String)> = state
        .rows
        .iter()
        .filter(|r| state.marked.contains(&r.id))
        .map(|r| (r.id.clone(), r.name.clone()))
        .collect();
    if !marked.is_empty() {
        return marked;
    }
    state
        .selected_session()
        .map(|s| vec![(s.id.clone(), s.name.clone())])
        .unwrap_or_default()
}

fn confirm(state: &mut AppState, action: Bulk) -> Vec<Effect> {
    let targets = targets(state);
    if targets.is_empty() {
        say(state, "no session selected");
        return Vec::new();
    }
    // Refuse up front what the action would refuse, so the dialog only
    // lists what will really happen.
    let mut ok: Vec<(String, String)> = Vec::new();
    let mut refused = Vec::new();
    for (id, name) in targets {
        let Some(s) = state.rows.iter().find(|r| r.id == id) else {
            continue;
        };
        let check = match action {
            Bulk::Kill => crate::ops::ensure_live(s),
            Bulk::Dismiss => crate::ops::ensure_dismissable(s),
        };
        match check {
            Ok(()) => ok.push((id, name)),
            Err(e) => refused.push(e.to_string()),
        }
    }
    if ok.is_empty() {
        say(state, refused.join("; "));
        return Vec::new();
    }
    if !refused.is_empty() {
        say(state, format!("skipped: {}", refused.join("; ")));
    }
    let (ids, names) = ok.into_iter().unzip();
    state.dialog = Some(Dialog::Confirm { action, ids, names });
    Vec::new()
}

/// The selected session, or a status line saying there is none.
fn with_selected(
    state: &mut AppState,
    f: impl FnOnce(&crate::model::Session) -> Result<Effect, String>,
) -> Vec<Effect> {
    let result = match state.selected_session() {
        Some(s) => f(s),
        None => Err("no session selected".into()),
    };
    match result {
        Ok(effect) => vec![effect],
        Err(message) => {
            say(state, message);
            Vec::new()
        }
    }
}

fn live_check(s: &crate::model::Session) -> Result<(), String> {
    crate::ops::ensure_live(s).map_err(|e| e.to_string())
}

fn say(state: &mut AppState, text: impl Into<String>) {
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
        Some(s) if s.status.is_live() => s
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

fn needs_operator(h: Health) -> bool {
    matches!(h, Health::Errored | Health::Waiting | Health::Stuck)
}

/// Installs new rows; marks sessions that just turned waiting, errored or
/// stuck, and returns the alerts for them.
fn replace_rows(state: &mut AppState, rows: Vec<Session>) -> Vec<Effect> {
    let first_load = state.rows.is_empty() && state.last_health.is_empty();
    let mut alerts = Vec::new();
    for r in &rows {
        let before = state.last_health.get(&r.id).copied();
        let turned = needs_operator(r.health) && before != Some(r.health);
        if turned && !first_load {
            if state.selected.as_deref() != Some(r.id.as_str()) {
                state.attention.insert(r.id.clone());
            }
            let detail = r.activity.detail.clone().unwrap_or_default();
            alerts.push(Effect::Alert {
                title: format!("greenroom: {} is {}", r.name, r.health),
                body: detail,
            });
        }
        if !needs_operator(r.health) {
            state.attention.remove(&r.id);
        }
    }
    state.last_health = rows.iter().map(|r| (r.id.clone(), r.health)).collect();
    state
        .attention
        .retain(|id| state.last_health.contains_key(id));
    let line = state.cursor();
    // While the pane beside follows the selection, tmux records every switch
    // as an attach; the list keeps its order so moving down it works.
    let previous: Option<HashMap<String, usize>> = state.beside.then(|| {
        state
            .visible_sessions()
            .enumerate()
            .map(|(pos, s)| (s.id.clone(), pos))
            .collect()
    });
    if let Some(id) = state
        .select_when_seen
        .take_if(|id| rows.iter().any(|r| &r.id == id))
    {
        state.selected = Some(id);
    }
    state.rows = rows;
    state.visible.clear();
    state.refresh_visible_at(line);
    if let Some(previous) = previous {
        let rows = &state.rows;
        // Stable: sessions new to the list keep their sorted place after the known ones.
        state
            .visible
            .sort_by_key(|&i| previous.get(&rows[i].id).copied().unwrap_or(usize::MAX));
        state.clamp_offset();
    }
    alerts
}
