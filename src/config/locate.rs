//! Where things are when the settings do not say: the tmux server, Maestro's
//! folders, the home folder and greenroom's own state folder, from the
//! environment snapshot.

use std::path::{Path, PathBuf};

use super::TmuxSocket;
use crate::environ::Env;
use crate::sources::maestro;

/// The tmux server: the flag's or file's socket; inside tmux, "the
/// default server" is the one this client is on, pinned so attaching from
/// here and polling reach the same server.
pub(super) fn tmux_socket(named: Option<String>, env: &dyn Env) -> TmuxSocket {
    match (
        TmuxSocket::parse(&named.unwrap_or_default()),
        env.var("TMUX"),
    ) {
        (TmuxSocket::Default, Some(t)) => t
            .split(',')
            .next()
            .filter(|p| !p.is_empty())
            .map_or(TmuxSocket::Default, |p| TmuxSocket::Path(PathBuf::from(p))),
        (socket, _) => socket,
    }
}

/// Maestro's server keeps its state in MAESTRO_WORKSPACE_PATH when set
/// (an unexpanded `${...}` template does not count, as for Maestro).
pub(super) fn maestro_workspace(env: &dyn Env) -> Option<PathBuf> {
    env.var("MAESTRO_WORKSPACE_PATH")
        .filter(|w| !w.contains("${") && Path::new(w).is_absolute())
        .map(PathBuf::from)
}

/// Maestro's hooks folder (the file's, else MAESTRO_HOOKS_DIR or the
/// per-user default), and Maestro 1.4.0's fixed one when neither the file
/// nor the environment names a folder.
pub(super) fn maestro_hooks(
    from_file: Option<String>,
    env: &dyn Env,
) -> (PathBuf, Option<PathBuf>) {
    let legacy = (from_file.is_none() && env.var("MAESTRO_HOOKS_DIR").is_none())
        .then(|| PathBuf::from(maestro::LEGACY_HOOKS_DIR));
    let dir = from_file
        .map(|s| expand_home(&s, env))
        .unwrap_or_else(|| maestro::default_hooks_dir(env));
    (dir, legacy)
}

/// Codex CLI's home: `CODEX_HOME`, else `~/.codex` (where its rollouts
/// and config.toml are).
pub fn codex_home(env: &dyn Env) -> Option<PathBuf> {
    env.var("CODEX_HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .or_else(|| home(env).map(|h| h.join(".codex")))
}

/// OpenCode's database: under `XDG_DATA_HOME` when that is an absolute
/// path (as the XDG rules say), else under `~/.local/share`.
pub fn opencode_db(env: &dyn Env) -> Option<PathBuf> {
    let data = env
        .var("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|d| d.is_absolute())
        .or_else(|| home(env).map(|h| h.join(".local/share")))?;
    Some(crate::sources::opencode_db::db_path(&data))
}

pub(super) fn home(env: &dyn Env) -> Option<PathBuf> {
    env.var("HOME").map(PathBuf::from)
}

pub(super) fn expand_home(text: &str, env: &dyn Env) -> PathBuf {
    crate::environ::expand_home(text, home(env).as_deref())
}

pub(super) fn default_sidecar_dir(env: &dyn Env) -> PathBuf {
    let state = env
        .var("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| home(env).map(|h| h.join(".local").join("state")))
        .unwrap_or_else(|| crate::environ::temp_dir(env));
    state.join("greenroom").join("sessions")
}
