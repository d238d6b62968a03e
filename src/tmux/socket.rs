//! Which tmux server greenroom talks to: built by the settings (the
//! `tmux_socket` key, `--tmux-socket`, `$TMUX`), read by every tmux call.

use std::path::PathBuf;

/// How greenroom selects the tmux server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TmuxSocket {
    /// The user's default server, so a plain `tmux attach` reaches it.
    Default,
    /// `tmux -L NAME`
    Name(String),
    /// `tmux -S PATH`
    Path(PathBuf),
}

impl TmuxSocket {
    pub fn parse(text: &str) -> Self {
        let text = text.trim();
        if text.is_empty() {
            TmuxSocket::Default
        } else if text.contains('/') {
            TmuxSocket::Path(PathBuf::from(text))
        } else {
            TmuxSocket::Name(text.to_owned())
        }
    }
}
