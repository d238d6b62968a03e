//! greenroom logs to a file, never to the terminal: the dashboard owns the
//! screen, and an agent reads a hook's stdout and stderr. So a log write
//! that fails (a full disk) is dropped, never reported on stderr, and the
//! log is opened like any other file: a regular file only, never blocking
//! (a FIFO planted there would hang every command that logs), and capped.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use crate::environ::Env;
use crate::sources::{O_NOFOLLOW, O_NONBLOCK};

/// Past this size the log is moved to `<name>.1` (replacing the one before)
/// and a new one is begun: two files at most, however long greenroom runs.
pub const MAX_LOG_BYTES: u64 = 4 * 1024 * 1024;

/// `$GREENROOM_LOG`, else `$XDG_STATE_HOME/greenroom/greenroom.log`.
pub fn log_path(env: &dyn Env) -> Option<PathBuf> {
    if let Some(p) = env.var("GREENROOM_LOG") {
        return Some(PathBuf::from(p));
    }
    let state = env
        .var("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| env.var("HOME").map(|h| Path::new(&h).join(".local/state")))?;
    Some(state.join("greenroom").join("greenroom.log"))
}

/// Installs the tracing subscriber. The file is opened per event, lazily,
/// so a run that logs nothing touches no file (the report path stays fast).
/// `RUST_LOG` filters (`debug`, `greenroom=trace,warn`: levels by target,
/// no regular expressions, which would cost a regex engine in every build);
/// the default is `info`.
pub fn init(path: Option<PathBuf>, env: &dyn Env) {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let Some(path) = path else {
        return;
    };
    let writer = move || Quiet(open_log(&path));
    let filter: tracing_subscriber::filter::Targets = env
        .var("RUST_LOG")
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| {
            tracing_subscriber::filter::Targets::new().with_default(tracing::Level::INFO)
        });
    let layer = tracing_subscriber::fmt::layer()
        .with_ansi(false)
        .with_writer(writer)
        .log_internal_errors(false);
    let _ = tracing_subscriber::registry()
        .with(layer)
        .with(filter)
        .try_init();
}

/// The log file, ready to append to; `None` when it cannot be used.
pub fn open_log(path: &Path) -> Option<File> {
    if let Some(dir) = path.parent() {
        let _ = std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir);
    }
    match std::fs::symlink_metadata(path) {
        Ok(meta) if !meta.is_file() => return None,
        Ok(meta) if meta.len() >= MAX_LOG_BYTES => {
            let mut old = path.as_os_str().to_owned();
            old.push(".1");
            let _ = std::fs::rename(path, old);
        }
        _ => {}
    }
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .custom_flags(O_NOFOLLOW | O_NONBLOCK)
        .open(path)
        .ok()?;
    // Checked on the open file too: a FIFO swapped in after the look above.
    file.metadata().ok().filter(|m| m.is_file())?;
    Some(file)
}

/// A log sink whose failures go nowhere: after a failed write the rest of
/// the event is dropped, and success is reported so that nothing upstream
/// prints the error.
struct Quiet(Option<File>);

impl Write for Quiet {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(file) = &mut self.0
            && file.write_all(buf).is_err()
        {
            self.0 = None;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_log_is_moved_aside_and_begun_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("greenroom.log");
        std::fs::write(&path, vec![b'x'; MAX_LOG_BYTES as usize]).unwrap();
        std::fs::write(dir.path().join("greenroom.log.1"), b"older").unwrap();
        let mut file = open_log(&path).unwrap();
        file.write_all(b"new line\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new line\n");
        let previous = std::fs::metadata(dir.path().join("greenroom.log.1")).unwrap();
        assert_eq!(
            previous.len(),
            MAX_LOG_BYTES,
            "the full log replaced the older one"
        );
        // Under the cap, it is appended to.
        open_log(&path).unwrap().write_all(b"more\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new line\nmore\n");
    }
}
