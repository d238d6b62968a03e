//! The keymap's layers: the keys one input mode understands.

/// A keymap layer: the keys one input mode understands. Text-taking layers
/// (the filter, a message, the new-session form) bind only keys that are
/// not text; every other character is typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Layer {
    Normal,
    Overlay,
    Filter,
    Confirm,
    Send,
    Spawn,
    /// Dismissing a session whose worktree greenroom made.
    Worktree,
    /// The Changes tab, reviewing a session's files and diffs.
    Review,
    /// Keys every mode shares (Ctrl-C quits even from a dialog); a mode's
    /// own layer is looked up first.
    Anywhere,
}

impl Layer {
    /// Does the layer type unbound characters into an input?
    pub fn takes_text(self) -> bool {
        matches!(self, Layer::Filter | Layer::Send | Layer::Spawn)
    }
}
