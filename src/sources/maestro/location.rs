//! Where Maestro state lives: the state folder of a workspace, and the hook
//! state folder that names the agent working now.

use std::fs;
use std::path::{Component, Path, PathBuf};

use super::{ACTIVE_AGENT_FILE, ACTIVE_FILE, DEFAULT_STATE_DIR};
use crate::environ::Env;
use crate::sources::read_text_file;

/// Where Maestro kept its state before `docs/maestro` became the default.
const LEGACY_STATE_DIR: &str = ".gemini";
/// An agent name is a short word; anything longer is not worth showing whole.
const MAX_AGENT_CHARS: usize = 200;

/// A workspace and the state folder ("<workspace>/<state_dir>/state") greenroom reads for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateLocation {
    pub workspace: PathBuf,
    pub state_folder: PathBuf,
}

/// Resolves a --state-dir argument: a workspace, its `<state_dir>` (e.g.
/// docs/maestro), or that folder's `state` folder. For a workspace, prefer
/// `<workspace>/<state_dir_name>/state`; if that does not exist but the older
/// `<workspace>/.gemini/state` does, use that. Pure path logic plus existence
/// checks; never fails.
pub fn resolve_state_dir(arg: &Path, state_dir_name: &str) -> StateLocation {
    let state_dir = state_dir_or_default(state_dir_name);
    // A workspace that already has state wins, even if it happens to be named
    // `state` or end like the state dir.
    if [state_dir, Path::new(LEGACY_STATE_DIR)]
        .iter()
        .any(|dir| arg.join(dir).join("state").is_dir())
    {
        return location_for_workspace(arg, state_dir_name);
    }
    if arg.file_name().is_some_and(|name| name == "state") {
        let parent = arg.parent().unwrap_or(Path::new(""));
        if let Some(workspace) = workspace_above(parent, state_dir) {
            return located(workspace, arg.to_path_buf());
        }
        // A bare `state` folder with Maestro files in it: its parent is the
        // best workspace there is.
        if arg.join(ACTIVE_FILE).exists() || arg.join("archive").is_dir() {
            return located(non_empty(parent), arg.to_path_buf());
        }
    }
    if let Some(workspace) = workspace_above(arg, state_dir) {
        return located(workspace, arg.join("state"));
    }
    location_for_workspace(arg, state_dir_name)
}

/// The state folder for a session cwd (same rules as a workspace argument).
pub fn location_for_workspace(workspace: &Path, state_dir_name: &str) -> StateLocation {
    let preferred = workspace
        .join(state_dir_or_default(state_dir_name))
        .join("state");
    let legacy = workspace.join(LEGACY_STATE_DIR).join("state");
    let state_folder = if !preferred.exists() && legacy.exists() {
        legacy
    } else {
        preferred
    };
    located(workspace.to_path_buf(), state_folder)
}

/// Maestro 1.4.0's hooks folder when MAESTRO_HOOKS_DIR is unset (its
/// `hook-state.js`); later releases use [`default_hooks_dir`]'s per-user one.
pub const LEGACY_HOOKS_DIR: &str = "/tmp/maestro-hooks";

/// `${MAESTRO_HOOKS_DIR:-$TMPDIR/maestro-hooks-<uid>}` (TMPDIR default /tmp),
/// the same folder Maestro's hooks compute.
pub fn default_hooks_dir(env: &dyn Env) -> PathBuf {
    if let Some(dir) = env.var("MAESTRO_HOOKS_DIR") {
        return PathBuf::from(dir);
    }
    let tmp = env
        .var("TMPDIR")
        .map_or_else(|| PathBuf::from("/tmp"), PathBuf::from);
    // Maestro writes "default" where the platform has no uid.
    let uid =
        current_uid(env.var("HOME")).map_or_else(|| "default".to_owned(), |uid| uid.to_string());
    tmp.join(format!("maestro-hooks-{uid}"))
}

/// The agent named in `<hooks_dir>/<agent_session_id>/active-agent` (trimmed,
/// first line, capped at 200 chars), if any.
pub fn read_active_agent(hooks_dir: &Path, agent_session_id: &str) -> Option<String> {
    let id = agent_session_id.trim();
    // The id comes from another tool's file: it must name one folder directly
    // under the hooks folder, never a path out of it.
    if id.is_empty() || id.contains(['/', '\\', '\0']) || id.contains("..") {
        return None;
    }
    // Maestro refuses a symlinked hooks folder; so does greenroom.
    if fs::symlink_metadata(hooks_dir)
        .ok()?
        .file_type()
        .is_symlink()
    {
        return None;
    }
    let text = read_text_file(&hooks_dir.join(id).join(ACTIVE_AGENT_FILE)).ok()?;
    let name: String = text
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())?
        .chars()
        .take(MAX_AGENT_CHARS)
        .collect();
    Some(name)
}

fn located(workspace: PathBuf, state_folder: PathBuf) -> StateLocation {
    StateLocation {
        workspace,
        state_folder,
    }
}

fn state_dir_or_default(name: &str) -> &Path {
    Path::new(if name.trim().is_empty() {
        DEFAULT_STATE_DIR
    } else {
        name
    })
}

/// The workspace holding `dir` when `dir` ends with the state dir name (or
/// the legacy `.gemini`).
fn workspace_above(dir: &Path, state_dir: &Path) -> Option<PathBuf> {
    [state_dir, Path::new(LEGACY_STATE_DIR)]
        .iter()
        .find_map(|suffix| strip_suffix(dir, suffix))
}

/// `dir` without its trailing `suffix` components; `None` when it does not
/// end with them or nothing usable would be left.
fn strip_suffix(dir: &Path, suffix: &Path) -> Option<PathBuf> {
    let dir: Vec<Component<'_>> = dir
        .components()
        .filter(|c| *c != Component::CurDir)
        .collect();
    let suffix: Vec<Component<'_>> = suffix
        .components()
        .filter(|c| *c != Component::CurDir)
        .collect();
    if suffix.is_empty() || suffix.iter().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    let keep = dir.len().checked_sub(suffix.len())?;
    if dir[keep..] != suffix[..] {
        return None;
    }
    Some(non_empty(&dir[..keep].iter().collect::<PathBuf>()))
}

/// A relative argument such as `docs/maestro` leaves an empty workspace: that is `.`.
fn non_empty(path: &Path) -> PathBuf {
    if path.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        path.to_path_buf()
    }
}

/// The user id without unsafe code or libc: `/proc/self` belongs to the
/// process's user; the home folder is the fallback where there is no /proc.
#[cfg(unix)]
fn current_uid(home: Option<String>) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    fs::metadata("/proc/self")
        .ok()
        .or_else(|| fs::metadata(home?).ok())
        .map(|m| m.uid())
}

#[cfg(not(unix))]
fn current_uid(_home: Option<String>) -> Option<u32> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_suffix_matches_whole_components() {
        let s = |d: &str, x: &str| strip_suffix(Path::new(d), Path::new(x));
        assert_eq!(
            s("/w/docs/maestro", "docs/maestro"),
            Some(PathBuf::from("/w"))
        );
        assert_eq!(
            s("/w/docs/maestro/", "docs/maestro"),
            Some(PathBuf::from("/w"))
        );
        assert_eq!(s("docs/maestro", "docs/maestro"), Some(PathBuf::from(".")));
        assert_eq!(s("/w/mydocs/maestro", "docs/maestro"), None);
        assert_eq!(s("/w/docs", "docs/maestro"), None);
        assert_eq!(s("/w/docs/maestro", "/w/docs/maestro"), None);
    }

    #[test]
    fn empty_state_dir_name_means_the_default() {
        assert_eq!(state_dir_or_default(" "), Path::new("docs/maestro"));
        assert_eq!(state_dir_or_default("custom"), Path::new("custom"));
    }

    #[test]
    fn paths_that_do_not_exist_resolve_by_shape() {
        let r = |a: &str| resolve_state_dir(Path::new(a), "docs/maestro");
        let expect = |w: &str, s: &str| located(PathBuf::from(w), PathBuf::from(s));
        assert_eq!(
            r("/nope/ws"),
            expect("/nope/ws", "/nope/ws/docs/maestro/state")
        );
        assert_eq!(
            r("/nope/ws/docs/maestro"),
            expect("/nope/ws", "/nope/ws/docs/maestro/state")
        );
        assert_eq!(
            r("/nope/ws/docs/maestro/state"),
            expect("/nope/ws", "/nope/ws/docs/maestro/state")
        );
        assert_eq!(
            r("/nope/ws/.gemini/state"),
            expect("/nope/ws", "/nope/ws/.gemini/state")
        );
        // An unrelated folder named `state` is a workspace.
        assert_eq!(
            r("/nope/state"),
            expect("/nope/state", "/nope/state/docs/maestro/state")
        );
    }

    #[test]
    fn active_agent_rejects_escaping_ids() {
        let dir = Path::new("/nonexistent-hooks");
        for id in ["", " ", "../x", "a/b", "..", "a\\b"] {
            assert_eq!(read_active_agent(dir, id), None, "{id:?}");
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn uid_is_known_on_linux() {
        assert!(current_uid(None).is_some());
    }
}
