//! Which keymap layer says what keys mean in a mode: read by the views
//! (hints) and by the input (what a key does).

use crate::tui::keymap::Layer;
use crate::tui::model::dialog::Dialog;
use crate::tui::model::mode::Mode;

/// The keymap layer of `mode`.
pub fn of(mode: &Mode) -> Layer {
    match mode {
        Mode::Normal => Layer::Normal,
        Mode::Filter => Layer::Filter,
        Mode::Overlay(_) => Layer::Overlay,
        Mode::Review => Layer::Review,
        Mode::Dialog(d) => of_dialog(d),
    }
}

/// The keymap layer of an open dialog.
pub fn of_dialog(dialog: &Dialog) -> Layer {
    match dialog {
        Dialog::Confirm { .. } => Layer::Confirm,
        Dialog::Send { .. } => Layer::Send,
        Dialog::Spawn(_) => Layer::Spawn,
        Dialog::DismissWorktree { .. } => Layer::Worktree,
    }
}
