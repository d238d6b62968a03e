//! The pane beside the dashboard: a nested tmux client, in a pane next to
//! greenroom's own, attached to the selected session. The session's own
//! windows and layout are never touched; moving that client is all follow
//! mode does.

use super::TmuxSocket;
use super::{Tmux, TmuxError, TmuxTarget};

/// The pane beside, as tmux names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Beside {
    pub pane_id: String,
    /// The nested client's terminal: what `switch-client -c` targets.
    pub tty: String,
}

/// The server greenroom itself runs in, from `$TMUX` (`<socket>,<pid>,<n>`).
pub fn host_from_env(tmux_env: Option<&str>) -> Option<Tmux> {
    let socket = tmux_env?.split(',').next().filter(|s| !s.is_empty())?;
    Some(Tmux::new(TmuxSocket::Path(socket.into())))
}

impl Tmux {
    /// The argv (as one shell line, for the new pane's shell) of a client
    /// of this server attached to `name` (by its id). `$TMUX` is unset so
    /// tmux agrees to nest it.
    pub fn attach_command_line(&self, target: impl Into<TmuxTarget>) -> Result<String, TmuxError> {
        let quote = super::shell_quote;
        let socket = match self.socket() {
            TmuxSocket::Default => String::new(),
            TmuxSocket::Name(n) => format!(" -L {}", quote(n)),
            TmuxSocket::Path(p) => format!(" -S {}", quote(&p.to_string_lossy())),
        };
        Ok(format!(
            "env -u TMUX tmux{socket} attach-session -t {}",
            quote(&self.session_target(&target.into())?)
        ))
    }

    /// Splits `next_to` (a pane of this server, e.g. `$TMUX_PANE`) and runs
    /// `command` in the new pane, keeping the focus where it was.
    pub fn split_beside(&self, next_to: &str, command: &str) -> Result<Beside, TmuxError> {
        let out = self.run([
            "split-window",
            "-h",
            "-d",
            "-t",
            next_to,
            "-P",
            "-F",
            "#{pane_id} #{pane_tty}",
            command,
        ])?;
        let mut parts = out.split_whitespace();
        match (parts.next(), parts.next()) {
            (Some(pane_id), Some(tty)) => Ok(Beside {
                pane_id: pane_id.to_owned(),
                tty: tty.to_owned(),
            }),
            _ => Err(TmuxError::Failed {
                command: "split-window".into(),
                message: format!("unexpected answer {out:?}"),
            }),
        }
    }

    /// Closes the pane beside; its nested client goes with it, and the
    /// session it showed runs on.
    pub fn close_beside(&self, beside: &Beside) -> Result<(), TmuxError> {
        self.run(["kill-pane", "-t", &beside.pane_id]).map(drop)
    }

    /// Moves the client on terminal `tty` to session `name`.
    pub fn switch_client_on(
        &self,
        tty: &str,
        target: impl Into<TmuxTarget>,
    ) -> Result<(), TmuxError> {
        let target = self.session_target(&target.into())?;
        self.run(["switch-client", "-c", tty, "-t", &target])
            .map(drop)
    }
}
