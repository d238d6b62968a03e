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
        self.run(["display-message", "--", &message_text(text)])
            .map(drop)
    }

    /// Shows `text` in `client`'s status line for five seconds (a
    /// notification), inert like [`Tmux::display_message`]'s.
    pub fn display_message_on(
        &self,
        client: &super::ClientName,
        text: &str,
    ) -> Result<(), TmuxError> {
        let message = message_text(text);
        let args = ["display-message", "-c", client.as_str(), "-d", "5000", "--"];
        self.run(args.into_iter().chain([message.as_str()]))
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

/// A message tmux shows as written: it expands formats in it, so `#` is
/// doubled and `#(cmd)` or `#{...}` run and say nothing.
fn message_text(text: &str) -> String {
    text.replace('#', "##")
}
