//! Terminal events to actions: keys through the keymap, or to the focused
//! input (filter, dialog); mouse clicks and wheel; resizes.

use crossterm::event::{Event, KeyCode, KeyEventKind, MouseEventKind};

use super::action::{Action, InputKey};
use super::keymap::{Key, Keymap};
use super::state::AppState;
use super::view;

/// Maps a terminal event to actions: keys through the keymap (or to the
/// focused input), mouse clicks and wheel, resizes.
pub fn terminal_action(
    event: Event,
    state: &AppState,
    keymap: &Keymap,
    terminal: &ratatui::DefaultTerminal,
) -> Vec<Action> {
    match event {
        Event::Key(k) if k.kind == KeyEventKind::Press || k.kind == KeyEventKind::Repeat => {
            if state.filter_editing || state.dialog.is_some() {
                let ctrl = k
                    .modifiers
                    .contains(crossterm::event::KeyModifiers::CONTROL);
                let input = match k.code {
                    // Ctrl-C still quits from anywhere.
                    KeyCode::Char('c') if ctrl => {
                        return vec![Action::Command(super::action::Command::Quit)];
                    }
                    KeyCode::Char(c) if !ctrl => InputKey::Char(c),
                    KeyCode::Backspace => InputKey::Backspace,
                    KeyCode::Enter => InputKey::Enter,
                    KeyCode::Esc => InputKey::Esc,
                    KeyCode::Tab => InputKey::Tab,
                    KeyCode::BackTab => InputKey::BackTab,
                    KeyCode::Up => InputKey::Up,
                    KeyCode::Down => InputKey::Down,
                    KeyCode::Left => InputKey::Left,
                    KeyCode::Right => InputKey::Right,
                    _ => return Vec::new(),
                };
                return vec![Action::Input(input)];
            }
            if k.code == KeyCode::Esc && !state.filter.is_empty() {
                return vec![Action::Input(InputKey::Esc)];
            }
            if k.code == KeyCode::Esc && state.overlay != super::state::Overlay::None {
                return vec![Action::Command(super::action::Command::Help)];
            }
            keymap
                .lookup(Key::from_event(&k))
                .map(|c| vec![Action::Command(c)])
                .unwrap_or_default()
        }
        Event::Mouse(m) => match m.kind {
            MouseEventKind::Down(_) => {
                let area = terminal
                    .size()
                    .map(|s| ratatui::layout::Rect::new(0, 0, s.width, s.height));
                let Ok(area) = area else { return Vec::new() };
                let list = view::sidebar_list_area(area);
                let inside = m.column >= list.x
                    && m.column < list.x + list.width
                    && m.row >= list.y
                    && m.row < list.y + list.height;
                if inside {
                    vec![Action::ClickRow(usize::from(m.row - list.y))]
                } else {
                    Vec::new()
                }
            }
            MouseEventKind::ScrollUp => vec![Action::ScrollUp],
            MouseEventKind::ScrollDown => vec![Action::ScrollDown],
            _ => Vec::new(),
        },
        Event::Resize(width, height) => vec![Action::Resize { width, height }],
        _ => Vec::new(),
    }
}
