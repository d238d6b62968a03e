//! The settings of each lower layer, built from the one `Config`: the
//! layers below never see `Config` itself (the layering test holds it).

use super::Config;

impl From<&Config> for crate::catalog::Settings {
    fn from(config: &Config) -> Self {
        Self {
            sidecar_dir: config.sidecar_dir.clone(),
            state_dirs: config.state_dirs.clone(),
            maestro_state_dir: config.maestro_state_dir.clone(),
            maestro_hooks_dir: config.maestro_hooks_dir.clone(),
            maestro_hooks_legacy: config.maestro_hooks_legacy.clone(),
            ao_dir: config.ao_dir.clone(),
            claude_dir: config.claude_dir.clone(),
            codex_dir: config.codex_dir.clone(),
            opencode_db: config.opencode_db.clone(),
            tmux_socket: config.tmux_socket.clone(),
            thresholds: config.thresholds,
            prices: config.prices.clone(),
            agents: config.agents.clone(),
        }
    }
}

impl From<&Config> for crate::engine::Settings {
    fn from(config: &Config) -> Self {
        Self {
            catalog: config.into(),
            path: config.environ.path().map(ToOwned::to_owned),
        }
    }
}

impl From<&Config> for crate::ops::Launching {
    fn from(config: &Config) -> Self {
        Self {
            sidecar_dir: config.sidecar_dir.clone(),
            name_prefix: config.name_prefix.clone(),
            agents: config.agents.clone(),
            path: config.environ.path().map(ToOwned::to_owned),
            home: config.environ.home(),
        }
    }
}
