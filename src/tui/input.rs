//! Terminal events to actions. What a key means depends only on the mode
//! ([`key_action`], pure): the keymap's commands in normal mode and under an
//! overlay, text for the focused input in the filter and dialogs; Esc is
//! the mode's own key everywhere. A paste is always text, never keys.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEventKind};

use super::action::{Action, Command, InputKey};
use super::keymap::{Key, Keymap};
use super::state::Mode;
use super::view;

/// Maps a terminal event to actions: keys by mode, pastes as text, mouse
/// clicks and wheel, resizes. `size` is the terminal's, for hit-testing.
pub fn terminal_action(
    event: Event,
    mode: &Mode,
    keymap: &Keymap,
    size: Option<ratatui::layout::Size>,
) -> Vec<Action> {
    match event {
        Event::Key(k) if k.kind == KeyEventKind::Press || k.kind == KeyEventKind::Repeat => {
            key_action(&k, mode, keymap).into_iter().collect()
        }
        Event::Paste(text) => vec![Action::Paste(text)],
        Event::Mouse(m) => match m.kind {
            MouseEventKind::Down(_) => {
                let Some(s) = size else { return Vec::new() };
                let area = ratatui::layout::Rect::new(0, 0, s.width, s.height);
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

/// What a key means in `mode`.
pub fn key_action(k: &KeyEvent, mode: &Mode, keymap: &Keymap) -> Option<Action> {
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    match mode {
        Mode::Filter | Mode::Dialog(_) => {
            let input = match k.code {
                // Ctrl-C still quits from anywhere.
                KeyCode::Char('c') if ctrl => return Some(Action::Command(Command::Quit)),
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
                _ => return None,
            };
            Some(Action::Input(input))
        }
        Mode::Normal | Mode::Overlay(_) => {
            let key = Key::from_event(k);
            if let Some(c) = keymap.lookup(key) {
                return Some(Action::Command(c));
            }
            (k.code == KeyCode::Esc).then_some(Action::Input(InputKey::Esc))
        }
    }
}
