//! How greenroom's files change on disk (sidecars, the snooze file,
//! Maestro's state, the user's files): atomic replacement (temp file,
//! fsync, rename), a lock wait with a deadline, and the clean-up of
//! temporaries a killed writer left behind. The one writer of them all.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::Path;
use std::time::{Duration, SystemTime};

use uuid::Uuid;

use super::O_NOFOLLOW;

/// A write that failed: what was being done, and the system's reason.
#[derive(Debug, thiserror::Error)]
#[error("{context}: {source}")]
pub struct WriteError {
    pub context: String,
    #[source]
    pub source: io::Error,
}

fn io_err(context: impl Into<String>) -> impl FnOnce(io::Error) -> WriteError {
    move |source| WriteError {
        context: context.into(),
        source,
    }
}

/// Blocks for the lock on a helper thread, so the wait has a deadline.
/// The thread locks a clone of the same open file (flock locks belong to
/// the open file, not the descriptor). After a timeout the thread may still
/// get the lock; it then closes its clone, the last one, which releases it.
pub(super) fn lock_within(file: File, wait: Duration) -> io::Result<Option<File>> {
    let waiter = file.try_clone()?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("file-lock".into())
        .spawn(move || {
            let result = waiter.lock();
            let _ = tx.send(result);
        })?;
    match rx.recv_timeout(wait) {
        Ok(Ok(())) => Ok(Some(file)),
        Ok(Err(e)) => Err(e),
        Err(_) => Ok(None),
    }
}

/// Writes `bytes` to `path` atomically: a temp file in the same folder,
/// fsync, rename over, fsync the folder. Mode 0600.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    write_atomic_mode(path, bytes, 0o600)
}

/// [`write_atomic`] with the file's mode: set on the temporary before the
/// rename, so the file never has another one, even when a step fails.
pub fn write_atomic_mode(path: &Path, bytes: &[u8], mode: u32) -> Result<(), WriteError> {
    replace_atomic_mode(path, bytes, mode)?;
    sync_dir(folder_of(path)).map_err(io_err(format!("cannot write {}", path.display())))
}

/// The folder a path's file is in: a bare name (`tmux.conf`) is in the
/// current folder, whose name is `.`, not the empty path.
fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Makes renames in `dir` durable.
pub(super) fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// [`write_atomic`] without the folder's fsync: after it returns, every
/// reader sees the new file.
pub(super) fn replace_atomic(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    replace_atomic_mode(path, bytes, 0o600)
}

fn replace_atomic_mode(path: &Path, bytes: &[u8], mode: u32) -> Result<(), WriteError> {
    let dir = folder_of(path);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(temp_name(&name));
    let result = (|| {
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(O_NOFOLLOW)
            .open(&tmp)?;
        file.write_all(bytes)?;
        file.set_permissions(fs::Permissions::from_mode(mode))?;
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        // A failed write may be a full disk that killed writers' leftovers
        // help fill: clear them, so the next try may pass.
        remove_stale_temps(dir);
        io_err(format!("cannot write {}", path.display()))(e)
    })
}

/// A temporary of a writer still running is left this long before it
/// counts as stale: a write takes milliseconds, a hung one may be slow.
const LIVE_WRITER_GRACE: Duration = Duration::from_secs(600);

/// The name [`replace_atomic`] gives a temporary: `.<file>.<pid>.<uuid>.tmp`.
fn temp_name(file: &str) -> String {
    format!(
        ".{file}.{}.{}.tmp",
        std::process::id(),
        Uuid::new_v4().simple()
    )
}

/// The writer's pid, when `name` is a temporary of greenroom's own naming.
fn temp_writer(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let mut parts = rest.rsplitn(3, '.');
    let (hex, pid, file) = (parts.next()?, parts.next()?, parts.next()?);
    let ours = hex.len() == 32 && hex.bytes().all(|b| b.is_ascii_hexdigit()) && !file.is_empty();
    ours.then(|| pid.parse().ok()).flatten()
}

/// Whether a process runs, where `/proc` can tell.
fn runs(pid: u32) -> Option<bool> {
    Path::new("/proc/self")
        .exists()
        .then(|| Path::new("/proc").join(pid.to_string()).exists())
}

/// Removes the temporaries of greenroom's own naming in `dir` that no write
/// will ever rename: their writer was killed mid-write (its process is
/// gone), or they are older than a write could take. Anything else is left
/// alone. Returns how many were removed.
pub fn remove_stale_temps(dir: &Path) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let now = SystemTime::now();
    let mut removed = 0;
    for entry in entries.filter_map(Result::ok) {
        let Some(pid) = temp_writer(&entry.file_name().to_string_lossy()) else {
            continue;
        };
        // Never followed: a link or a folder so named is not ours.
        let Ok(meta) = entry.path().symlink_metadata() else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|m| now.duration_since(m).ok())
            .is_some_and(|age| age > LIVE_WRITER_GRACE);
        let gone = pid != std::process::id() && runs(pid) == Some(false);
        if meta.is_file() && (gone || old) && fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_greenroom_temporaries_are_recognised() {
        let name = temp_name("a.json");
        assert_eq!(temp_writer(&name), Some(std::process::id()));
        let hex = "0123456789abcdef0123456789abcdef";
        assert_eq!(temp_writer(&format!(".x.json.42.{hex}.tmp")), Some(42));
        for other in [
            ".x.json.42.tmp".to_owned(),
            format!("x.json.42.{hex}.tmp"),
            format!(".x.json.4a2.{hex}.tmp"),
            format!("..42.{hex}.tmp"),
            format!(".x.json.42.{hex}.tmp.swp"),
            ".notes.tmp".to_owned(),
        ] {
            assert_eq!(temp_writer(&other), None, "{other}");
        }
    }
}
