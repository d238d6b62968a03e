//! What the catalog reads from the settings: where each source's files
//! are, the health thresholds, the prices and the presets. `config` builds
//! it (the catalog does not know `Config`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::health::Thresholds;
use crate::model::AgentPreset;
use crate::sources::prices::Prices;
use crate::tmux::TmuxSocket;

#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub sidecar_dir: PathBuf,
    pub state_dirs: Vec<PathBuf>,
    pub maestro_state_dir: String,
    pub maestro_hooks_dir: PathBuf,
    /// Maestro 1.4.0's fixed hooks folder, also read when neither the file
    /// nor the environment names one.
    pub maestro_hooks_legacy: Option<PathBuf>,
    pub ao_dir: Option<PathBuf>,
    pub claude_dir: Option<PathBuf>,
    /// Codex CLI's home, where a Codex session's rollout is looked for.
    pub codex_dir: Option<PathBuf>,
    /// OpenCode's database, where an OpenCode session's totals are read.
    pub opencode_db: Option<PathBuf>,
    /// The server whose sessions adopted panes are checked against.
    pub tmux_socket: TmuxSocket,
    pub thresholds: Thresholds,
    pub prices: Prices,
    /// The presets, for the programs an adopted pane may run.
    pub agents: BTreeMap<String, AgentPreset>,
}

#[cfg(test)]
impl Settings {
    /// Settings that name no source but the sidecars in `sidecar_dir`.
    pub(crate) fn bare(sidecar_dir: PathBuf) -> Self {
        Self {
            sidecar_dir,
            state_dirs: Vec::new(),
            maestro_state_dir: crate::sources::maestro::DEFAULT_STATE_DIR.to_owned(),
            maestro_hooks_dir: PathBuf::new(),
            maestro_hooks_legacy: None,
            ao_dir: None,
            claude_dir: None,
            codex_dir: None,
            opencode_db: None,
            tmux_socket: TmuxSocket::Default,
            thresholds: Thresholds::default(),
            prices: Prices::default(),
            agents: BTreeMap::new(),
        }
    }
}
