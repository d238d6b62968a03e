//! The process environment, read once: `main` takes a snapshot with
//! [`Environ::from_process`] before anything else and passes it down (as the
//! [`Env`] the settings are resolved from, and on `Config::environ`), so no
//! other code reads the environment, and tests hand in their own.
//!
//! This is the only file that reads `std::env` (the layering test holds
//! it); it imports nothing from greenroom.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// The process environment greenroom consults, passed in so tests stay pure.
pub trait Env {
    fn var(&self, key: &str) -> Option<String>;

    /// The snapshot itself, when this is one (it also knows the folder
    /// and binary); a test's own `Env` is not.
    fn snapshot(&self) -> Option<&Environ> {
        None
    }
}

/// A snapshot of the environment. Empty values count as unset.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Environ {
    vars: BTreeMap<OsString, OsString>,
    /// The folder greenroom was started in (a folder named by nothing else
    /// defaults to it).
    current_dir: Option<PathBuf>,
    /// greenroom's own binary, for the copies of itself it starts.
    current_exe: Option<PathBuf>,
}

/// The variables `Config::environ` keeps for the parts that run after
/// the settings are resolved (the dashboard, the actions).
const KEPT: [&str; 16] = [
    "TMUX",
    "TMUX_PANE",
    "HOME",
    "PATH",
    "NO_COLOR",
    "GREENROOM_THEME",
    "TMPDIR",
    // Where the ssh connections' control sockets live (hosts).
    "XDG_RUNTIME_DIR",
    // This machine's name, when /proc and /etc do not say (`watch --json`).
    "HOSTNAME",
    // What tmux's control client is started with (tmux events).
    "TMUX_TMPDIR",
    "USER",
    "LOGNAME",
    "TERM",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
];

impl Environ {
    /// The one read of the process environment.
    pub fn from_process() -> Self {
        Self {
            current_dir: std::env::current_dir().ok(),
            current_exe: std::env::current_exe().ok(),
            ..Self::from_vars(std::env::vars_os())
        }
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
            current_dir: None,
            current_exe: None,
        }
    }

    /// The variables the settings keep, taken from any [`Env`], and a
    /// snapshot's folder and binary.
    pub fn kept_from(env: &dyn Env) -> Self {
        let vars = Self::from_vars(KEPT.iter().filter_map(|k| Some((*k, env.var(k)?))));
        match env.snapshot() {
            Some(s) => vars.with_process_paths(s.current_dir.clone(), s.current_exe.clone()),
            None => vars,
        }
    }

    /// The folder greenroom was started in (`None` in a hand-built one).
    pub fn current_dir(&self) -> Option<&std::path::Path> {
        self.current_dir.as_deref()
    }

    /// greenroom's own binary (`None` in a hand-built one).
    pub fn current_exe(&self) -> Option<&std::path::Path> {
        self.current_exe.as_deref()
    }

    /// A snapshot that also knows the folder and binary, for tests.
    pub fn with_process_paths(mut self, dir: Option<PathBuf>, exe: Option<PathBuf>) -> Self {
        self.current_dir = dir;
        self.current_exe = exe;
        self
    }

    /// The variables among `keys` that are set, for a child that is given
    /// only those (tmux's control client).
    pub fn only<'a>(&'a self, keys: &'a [&str]) -> impl Iterator<Item = (&'a OsStr, &'a OsStr)> {
        self.vars
            .iter()
            .filter(|(k, _)| k.to_str().is_some_and(|k| keys.contains(&k)))
            .map(|(k, v)| (k.as_os_str(), v.as_os_str()))
    }

    /// The folder for temporary files: `$TMPDIR`, else `/tmp` (as the
    /// standard library would say).
    pub fn temp_dir(&self) -> PathBuf {
        temp_dir(self)
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

/// `~` and `~/rest` under `home` (as the shell reads a word's start);
/// anything else, or without a home, as written.
/// The process's own values of `keys` as they are now: what a child that
/// gets only these few of greenroom's variables (tmux's control client) is
/// given. The one read of the environment after start-up.
pub fn live_only(keys: &[&str]) -> Vec<(OsString, OsString)> {
    std::env::vars_os()
        .filter(|(k, _)| k.to_str().is_some_and(|k| keys.contains(&k)))
        .collect()
}

pub fn expand_home(text: &str, home: Option<&Path>) -> PathBuf {
    match (text.strip_prefix("~/"), home) {
        (Some(rest), Some(home)) => home.join(rest),
        (None, Some(home)) if text == "~" => home.to_path_buf(),
        _ => PathBuf::from(text),
    }
}

/// `$TMPDIR`, else `/tmp`, from any [`Env`].
pub fn temp_dir(env: &dyn Env) -> PathBuf {
    env.var("TMPDIR")
        .map_or_else(|| PathBuf::from("/tmp"), PathBuf::from)
}

impl Env for Environ {
    fn var(&self, key: &str) -> Option<String> {
        self.os(key).and_then(OsStr::to_str).map(str::to_owned)
    }

    fn snapshot(&self) -> Option<&Environ> {
        Some(self)
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
        assert_eq!(kept.temp_dir(), PathBuf::from("/tmp"));
    }

    #[test]
    fn the_home_folder_is_expanded_at_a_word_start_only() {
        let home = Some(Path::new("/h"));
        assert_eq!(expand_home("~", home), PathBuf::from("/h"));
        assert_eq!(expand_home("~/a/b", home), PathBuf::from("/h/a/b"));
        assert_eq!(expand_home("~x/a", home), PathBuf::from("~x/a"));
        assert_eq!(expand_home("/a/~/b", home), PathBuf::from("/a/~/b"));
        assert_eq!(expand_home("~/a", None), PathBuf::from("~/a"));
    }

    #[test]
    fn a_test_builds_the_snapshot_by_hand() {
        let env = Environ::from_vars([("TMPDIR", "/var/t"), ("LANG", "C"), ("X", "y")])
            .with_process_paths(Some("/w".into()), Some("/bin/greenroom".into()));
        let kept = Environ::kept_from(&env);
        assert_eq!(kept.current_dir(), Some(std::path::Path::new("/w")));
        assert_eq!(
            kept.current_exe(),
            Some(std::path::Path::new("/bin/greenroom"))
        );
        assert_eq!(kept.temp_dir(), PathBuf::from("/var/t"));
        let only: Vec<_> = kept.only(&["LANG", "X"]).collect();
        assert_eq!(only, [(OsStr::new("LANG"), OsStr::new("C"))]);
    }
}
