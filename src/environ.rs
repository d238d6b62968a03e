//! The process environment, read once: `main` takes a snapshot with
//! [`Environ::from_process`] before anything else and passes it down (as the
//! [`Env`] the settings are resolved from, and on `Config::environ`), so no
//! other code reads the environment, and tests hand in their own.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

use super::Env;

/// A snapshot of the environment. Empty values count as unset.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Environ {
    vars: BTreeMap<OsString, OsString>,
}

/// The variables `Config::environ` keeps for the parts that run after
/// the settings are resolved (the dashboard, the actions).
const KEPT: [&str; 8] = [
    "TMUX",
    "TMUX_PANE",
    "HOME",
    "PATH",
    "NO_COLOR",
    "GREENROOM_THEME",
    "TMPDIR",
    // Where the ssh connections' control sockets live (hosts).
    "XDG_RUNTIME_DIR",
];

impl Environ {
    /// The one read of the process environment.
    pub fn from_process() -> Self {
        Self::from_vars(std::env::vars_os())
    }

    /// An environment made of these variables (tests, and `greenroom demo`'s
    /// agents' own).
    pub fn from_vars<K: Into<OsString>, V: Into<OsString>>(
        vars: impl IntoIterator<Item = (K, V)>,
    ) -> Self {
        Self {
            vars: vars
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .filter(|(_, v)| !v.is_empty())
                .collect(),
        }
    }

    /// The variables the settings keep, taken from any [`Env`].
    pub fn kept_from(env: &dyn Env) -> Self {
        Self::from_vars(KEPT.iter().filter_map(|k| Some((*k, env.var(k)?))))
    }

    pub fn os(&self, key: &str) -> Option<&OsStr> {
        self.vars.get(OsStr::new(key)).map(OsString::as_os_str)
    }

    /// `$TMUX`: set when greenroom runs inside a tmux client.
    pub fn tmux(&self) -> Option<&str> {
        self.os("TMUX").and_then(OsStr::to_str)
    }

    /// `$TMUX_PANE`: the pane greenroom runs in.
    pub fn tmux_pane(&self) -> Option<&str> {
        self.os("TMUX_PANE").and_then(OsStr::to_str)
    }

    pub fn inside_tmux(&self) -> bool {
        self.tmux().is_some()
    }

    pub fn home(&self) -> Option<PathBuf> {
        self.os("HOME").map(PathBuf::from)
    }

    /// `$PATH`, for finding an agent's program.
    pub fn path(&self) -> Option<&OsStr> {
        self.os("PATH")
    }

    /// `$NO_COLOR` and `$GREENROOM_THEME`, which choose the dashboard's theme.
    pub fn no_color(&self) -> Option<&str> {
        self.os("NO_COLOR").and_then(OsStr::to_str)
    }

    pub fn theme(&self) -> Option<&str> {
        self.os("GREENROOM_THEME").and_then(OsStr::to_str)
    }
}

impl Env for Environ {
    fn var(&self, key: &str) -> Option<String> {
        self.os(key).and_then(OsStr::to_str).map(str::to_owned)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_values_are_unset_and_the_kept_ones_survive() {
        let env = Environ::from_vars([("TMUX", "/tmp/s,1,0"), ("HOME", ""), ("OTHER", "x")]);
        assert_eq!(env.tmux(), Some("/tmp/s,1,0"));
        assert_eq!(env.home(), None);
        assert_eq!(env.var("OTHER").as_deref(), Some("x"));
        let kept = Environ::kept_from(&env);
        assert_eq!(kept.tmux(), Some("/tmp/s,1,0"));
        assert_eq!(kept.var("OTHER"), None);
    }
}
