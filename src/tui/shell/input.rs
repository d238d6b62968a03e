//! Terminal events to actions. What a key means depends only on the mode
//! and the keymap ([`key_action`], pure): each mode has its keymap layer;
//! characters no layer binds are text where the mode has an input. A paste
//! is always text, never keys.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEventKind};

use crate::tui::action::{Action, Erase};
use crate::tui::keymap::{Key, Keymap, Layer};
use crate::tui::model::state::Mode;
use crate::tui::view;

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
        Event::FocusGained => vec![Action::Focus(true)],
        Event::FocusLost => vec![Action::Focus(false)],
        _ => Vec::new(),
    }
}

/// What a key means in `mode`: a command of the mode's keymap layer (or
/// of the keys every mode shares), else a typed character where the mode
/// takes text. Under an overlay the main layer's keys still arrive, so the
/// key that opened it closes it.
pub fn key_action(k: &KeyEvent, mode: &Mode, keymap: &Keymap) -> Option<Action> {
    let layer = crate::tui::view::layer::of(mode);
    let key = Key::from_event(k);
    if let Some(c) = keymap.lookup_in(layer, key) {
        return Some(Action::Command(c));
    }
    if layer == Layer::Overlay {
        return keymap.lookup(key).map(Action::Command);
    }
    let control = k.modifiers.contains(KeyModifiers::CONTROL);
    let alt = k.modifiers.contains(KeyModifiers::ALT);
    let plain = !control && !alt;
    match k.code {
        KeyCode::Char(c) if plain && layer.takes_text() => Some(Action::Type(c)),
        // Editing, like typing: no text layer binds these.
        KeyCode::Backspace if layer.takes_text() && !alt => Some(Action::Erase(Erase::Char)),
        KeyCode::Backspace if layer.takes_text() => Some(Action::Erase(Erase::Word)),
        KeyCode::Char('w') if control && layer.takes_text() => Some(Action::Erase(Erase::Word)),
        KeyCode::Char('u') if control && layer.takes_text() => Some(Action::Erase(Erase::Line)),
        _ => None,
    }
}
