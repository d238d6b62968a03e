//! Whether tmux started a new session where greenroom asked. tmux expands
//! formats in `new-session -c`, and what it makes of `#` differs between
//! versions; when it cannot enter the folder it names, its pane quietly
//! starts in another (the server's folder, `$HOME`, `/`). greenroom says
//! "spawned … in FOLDER" only when the pane is there.

use std::path::Path;
use std::time::{Duration, Instant};

use super::OpsError;
use crate::tmux::{PaneId, Tmux, TmuxError};

/// How long the new pane's program may take to be seen in its folder:
/// tmux answers `new-session` before the pane's process has changed into
/// it, so the first look may still see the server's folder.
const SETTLE: Duration = Duration::from_secs(2);

/// Ok when tmux took `cwd` as written and the pane's program runs in it
/// (or below it: the command may change folder itself), or when tmux
/// cannot tell where a dead pane was. Otherwise the folder tmux used.
pub(super) fn check(tmux: &Tmux, pane: &PaneId, cwd: &Path) -> Result<(), OpsError> {
    use std::os::unix::ffi::OsStrExt;
    let wanted = String::from_utf8_lossy(cwd.as_os_str().as_bytes());
    // The kernel names a process's folder with its links resolved.
    let canonical = std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf());
    let deadline = Instant::now() + SETTLE;
    loop {
        let (start, current) = match tmux.pane_paths(pane) {
            Ok(paths) => paths,
            // Gone already: nothing runs anywhere to be claimed.
            Err(TmuxError::NoSession(_) | TmuxError::NoServer) => return Ok(()),
            Err(e) => return Err(e.into()),
        };
        // tmux's own record of the folder it was told, after expansion.
        if !start.is_empty() && start != wanted {
            return Err(wrong_folder(cwd, &start));
        }
        if current.is_empty() || Path::new(&current).starts_with(&canonical) {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(wrong_folder(cwd, &current));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn wrong_folder(wanted: &Path, got: &str) -> OpsError {
    OpsError::WrongFolder {
        wanted: wanted.to_path_buf(),
        got: got.to_owned(),
    }
}
