//! Telling the operator something in tmux's own status line, loading tmux
//! commands from a file into the running server, and reading what a key
//! of the prefix table is bound to before greenroom binds it.

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

    /// What prefix `key` is bound to, as the command that binds it again
    /// (`bind-key -T prefix g display-message hi`); None when it is not
    /// bound, or the server cannot say.
    pub fn prefix_binding(&self, key: &str) -> Option<String> {
        let out = self.run(["list-keys", "-T", "prefix", "--", key]).ok()?;
        let line = out.lines().next()?.trim();
        (!line.is_empty()).then(|| line.to_owned())
    }
}
