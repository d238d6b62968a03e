//! What notifications ask of tmux: whether a pane's escape sequences reach
//! the terminal (`allow-passthrough`), and which clients a person uses (to
//! show them the message, `messages.rs`, when they do not).

use super::pane::ClientName;
use super::{PaneId, SEP, Tmux, TmuxError};

impl Tmux {
    /// Whether tmux passes `pane`'s passthrough sequences (DCS `tmux;`) on
    /// to the client's terminal: `allow-passthrough` on (or `all`), as the
    /// pane sees it (set on the pane, its window or globally). A tmux
    /// without the option (before 3.3) or an error: no.
    pub fn passthrough(&self, pane: &PaneId) -> bool {
        self.run([
            "display-message",
            "-p",
            "-t",
            pane.as_str(),
            "#{allow-passthrough}",
        ])
        .is_ok_and(|v| matches!(v.trim(), "1" | "on" | "all"))
    }

    /// The clients a person uses (control-mode clients, greenroom's own
    /// listener among them, left out), by name.
    pub fn operator_clients(&self) -> Result<Vec<ClientName>, TmuxError> {
        let format = format!("#{{client_control_mode}}{SEP}#{{client_name}}");
        let text = self.run(["list-clients", "-F", &format])?;
        Ok(text
            .lines()
            .filter_map(|l| l.split_once(SEP))
            .filter(|(control, _)| *control == "0")
            .filter_map(|(_, name)| ClientName::parse(name).ok())
            .collect())
    }
}
