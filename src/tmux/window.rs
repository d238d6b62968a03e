//! A new window in the tmux server greenroom runs in, for a command that
//! needs a terminal of its own (attaching to another host's session over
//! `ssh -t`) while the dashboard stays where it is.

use super::{Tmux, TmuxError};

impl Tmux {
    /// `tmux new-window -n NAME COMMAND`: the window is current, and closes
    /// when the command ends. `command` is one shell line, its words quoted.
    pub fn new_window(&self, name: &str, command: &str) -> Result<(), TmuxError> {
        self.run(["new-window", "-n", name, command]).map(|_| ())
    }
}
