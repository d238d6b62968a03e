//! `greenroom capture ID` (hidden): a session's pane as text, what another
//! machine's dashboard shows in its preview of this machine's session.

use crate::config::Config;
use crate::tmux::Tmux;

/// Prints the pane of session `id` (a name, uuid or unique prefix).
pub fn run(config: &Config, id: &str) -> Result<(), String> {
    let mut catalog = crate::catalog::Catalog::load(config, false);
    let tmux = Tmux::new(config.tmux_socket.clone());
    catalog.set_tmux(tmux.poll());
    let rows = catalog.rows(chrono::Utc::now());
    let session = crate::ops::resolve(&rows, id).map_err(|e| e.to_string())?;
    let name = session
        .tmux_session
        .as_deref()
        .ok_or_else(|| format!("{} has no tmux session", session.name))?;
    let text = tmux.capture_pane(name).map_err(|e| e.to_string())?;
    super::output::write_stdout(text.as_bytes()).map_err(|e| e.to_string())
}
