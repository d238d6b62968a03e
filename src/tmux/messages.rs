//! Telling the operator something in tmux's own status line, and loading
//! tmux commands from a file into the running server.

use std::path::Path;

use super::{Tmux, TmuxError};

impl Tmux {
    /// Shows `text` in the status line of the server's most recently
    /// active client, as a key binding's answer would be. `#` is doubled
    /// so the text is never read as a tmux format.
    pub fn display_message(&self, text: &str) -> Result<(), TmuxError> {
        self.run(["display-message", "--", &text.replace('#', "##")])
            .map(drop)
    }

    /// Runs the tmux commands in `path` on the running server.
    pub fn source_file(&self, path: &Path) -> Result<(), TmuxError> {
        self.run([std::ffi::OsStr::new("source-file"), path.as_os_str()])
            .map(drop)
    }
}
