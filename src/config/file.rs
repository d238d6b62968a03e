//! The config file's layer: every key as written (all optional, so a user
//! file may hold one line), and how a later layer wins key by key.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{AgentPreset, ConfigError, wording};

/// The config file as written; every key optional so a user file may hold one line.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ConfigFile {
    pub(super) sidecar_dir: Option<String>,
    pub(super) state_dirs: Option<Vec<PathBuf>>,
    pub(super) maestro_state_dir: Option<String>,
    pub(super) maestro_hooks_dir: Option<String>,
    pub(super) ao_dir: Option<String>,
    pub(super) claude_dir: Option<String>,
    pub(super) tmux_socket: Option<String>,
    pub(super) report_ttl_seconds: Option<u64>,
    pub(super) active_window_seconds: Option<u64>,
    pub(super) stuck_after_seconds: Option<u64>,
    pub(super) ready_is_attention: Option<bool>,
    pub(super) poll_interval_ms: Option<u64>,
    pub(super) alerts: Option<bool>,
    pub(super) sidebar_cost: Option<bool>,
    pub(super) snooze_minutes: Option<u64>,
    pub(super) pin_attention: Option<bool>,
    pub(super) tmux_events: Option<EventsSetting>,
    pub(super) keys: Option<BTreeMap<String, Vec<String>>>,
    pub(super) name_prefix: Option<String>,
    pub(super) agents: Option<BTreeMap<String, AgentPreset>>,
    pub(super) prices: Option<BTreeMap<String, crate::sources::prices::Price>>,
    pub(super) hosts: Option<Vec<crate::hosts::HostConfig>>,
    pub(super) budget: Option<super::budget::BudgetFile>,
    pub(super) notify: Option<NotifyFile>,
}

/// `[notify]` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct NotifyFile {
    /// Health classes by their names (`waiting`, `errored`, …).
    pub(super) on: Option<Vec<crate::model::Health>>,
    pub(super) bell: Option<bool>,
    pub(super) command: Option<Vec<String>>,
}

impl NotifyFile {
    fn merge(&mut self, other: NotifyFile) {
        if other.on.is_some() {
            self.on = other.on;
        }
        if other.bell.is_some() {
            self.bell = other.bell;
        }
        if other.command.is_some() {
            self.command = other.command;
        }
    }
}

/// `tmux_events` as written: `true`, `false` or `"auto"`.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(untagged, expecting = "true, false or \"auto\"")]
pub(super) enum EventsSetting {
    Flag(bool),
    Word(AutoWord),
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum AutoWord {
    Auto,
}

impl From<EventsSetting> for crate::tmux::Listening {
    fn from(setting: EventsSetting) -> Self {
        match setting {
            EventsSetting::Flag(true) => Self::Always,
            EventsSetting::Flag(false) => Self::Never,
            EventsSetting::Word(AutoWord::Auto) => Self::Auto,
        }
    }
}

impl ConfigFile {
    /// Later layers win key by key.
    pub(super) fn merge(&mut self, other: ConfigFile) {
        macro_rules! take {
            ($($field:ident),*) => { $(if other.$field.is_some() { self.$field = other.$field; })* };
        }
        take!(
            sidecar_dir,
            state_dirs,
            maestro_state_dir,
            maestro_hooks_dir,
            ao_dir,
            claude_dir,
            tmux_socket,
            report_ttl_seconds,
            active_window_seconds,
            stuck_after_seconds,
            ready_is_attention,
            poll_interval_ms,
            alerts,
            sidebar_cost,
            snooze_minutes,
            pin_attention,
            tmux_events,
            name_prefix,
            hosts
        );
        if let Some(notify) = other.notify {
            self.notify
                .get_or_insert_with(NotifyFile::default)
                .merge(notify);
        }
        if let Some(prices) = other.prices {
            self.prices.get_or_insert_with(BTreeMap::new).extend(prices);
        }
        if let Some(agents) = other.agents {
            self.agents.get_or_insert_with(BTreeMap::new).extend(agents);
        }
        if let Some(budget) = other.budget {
            self.budget
                .get_or_insert_with(Default::default)
                .merge(budget);
        }
        if let Some(keys) = other.keys {
            self.keys.get_or_insert_with(BTreeMap::new).extend(keys);
        }
    }
}

pub(super) fn parse_layer(text: &str, path: &Path) -> Result<ConfigFile, ConfigError> {
    toml::from_str(text).map_err(|e| ConfigError::Invalid {
        path: path.to_path_buf(),
        reason: wording::describe(text, &e),
    })
}
