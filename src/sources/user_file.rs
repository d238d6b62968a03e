//! How greenroom changes a file the user owns and edits (`~/.tmux.conf`,
//! an agent's settings.json), as opposed to its own sidecars: what was
//! there is backed up first; a file made read-only is refused, since a
//! rename would replace it regardless of its mode; a hard-linked file is
//! written in place, since a rename would cut its other names off; an
//! existing file keeps its mode.

use std::fs::{self, OpenOptions};
use std::io::{ErrorKind, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::atomic::write_atomic_mode;

/// Refuses a file the user protected from writing (its owner's write bit
/// off), or one this user cannot write; the reason is one line, and says
/// what to do. A file that is not there is no refusal.
pub fn ensure_writable(path: &Path) -> Result<(), String> {
    let meta = match fs::metadata(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(()),
        other => other.map_err(|e| super::io_reason(&e))?,
    };
    let mode = meta.permissions().mode() & 0o7777;
    // Root may open any file for writing: the mode is the user's word.
    let protected = mode & 0o200 == 0;
    let denied = || {
        OpenOptions::new()
            .write(true)
            .open(path)
            .is_err_and(|e| e.kind() == ErrorKind::PermissionDenied)
    };
    if protected || denied() {
        return Err(format!(
            "is read-only (mode {mode:o}), so greenroom leaves it as it is; \
             make it writable (chmod u+w {}) and run this again; not changed",
            path.display()
        ));
    }
    Ok(())
}

/// Replaces the file's contents with `bytes`. An existing file keeps its
/// mode and, when it has other names (hard links), its inode: it is
/// written in place, which is not atomic, so the caller backs it up
/// first. A new file gets `new_mode`. The caller has called
/// [`ensure_writable`].
pub fn replace(path: &Path, bytes: &[u8], new_mode: u32) -> Result<(), String> {
    let meta = match fs::metadata(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => None,
        other => Some(other.map_err(|e| super::io_reason(&e))?),
    };
    if let Some(meta) = meta.as_ref().filter(|m| m.nlink() > 1) {
        return write_in_place(path, bytes)
            .map_err(|e| format!("cannot be written (it has {} names): {e}", meta.nlink()));
    }
    let mode = meta.map_or(new_mode, |m| m.permissions().mode() & 0o7777);
    write_atomic_mode(path, bytes, mode).map_err(|e| format!("cannot be written: {}", e.source))
}

/// A failed write's reason, with where the file as it was is kept (a write
/// in place that failed half-way leaves the file cut short).
pub fn with_backup(reason: String, backup: Option<&Path>) -> String {
    match backup {
        Some(backup) => format!(
            "{reason}; the file as it was is kept in {}",
            backup.display()
        ),
        None => reason,
    }
}

fn write_in_place(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .truncate(true)
        .custom_flags(super::O_NOFOLLOW)
        .open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Copies `bytes` (the file as it was) to `<file>.greenroom-backup-<UTC>`,
/// with `-<n>` if two runs share a second. Mode 0600: settings often carry
/// tokens in `env`.
pub fn backup(path: &Path, bytes: &[u8]) -> Result<PathBuf, String> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%SZ");
    let base = format!("{name}.greenroom-backup-{stamp}");
    for n in 0..100 {
        let backup = path.with_file_name(match n {
            0 => base.clone(),
            n => format!("{base}-{n}"),
        });
        let failed = |e: std::io::Error| {
            format!(
                "cannot be backed up to {}: {e}; not changed",
                backup.display()
            )
        };
        let mut file = match OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&backup)
        {
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            other => other.map_err(failed)?,
        };
        if let Err(e) = file.write_all(bytes).and_then(|()| file.sync_all()) {
            let _ = fs::remove_file(&backup);
            return Err(failed(e));
        }
        return Ok(backup);
    }
    Err("cannot be backed up: too many backups this second; not changed".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_name_is_in_the_current_folder_and_keeps_its_mode() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("conf");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        replace(&path, b"new", 0o644).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        replace(&dir.path().join("fresh"), b"x", 0o644).unwrap();
        let mode = fs::metadata(dir.path().join("fresh"))
            .unwrap()
            .permissions();
        assert_eq!(mode.mode() & 0o777, 0o644);
    }

    #[test]
    fn a_hard_linked_file_stays_linked_and_a_read_only_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("conf");
        let other = dir.path().join("dotfiles-conf");
        fs::write(&path, "old").unwrap();
        fs::hard_link(&path, &other).unwrap();
        ensure_writable(&path).unwrap();
        replace(&path, b"new", 0o644).unwrap();
        assert_eq!(fs::read_to_string(&other).unwrap(), "new");
        fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).unwrap();
        let refused = ensure_writable(&path).unwrap_err();
        assert!(refused.contains("read-only") && refused.contains("chmod u+w"));
        assert!(ensure_writable(&dir.path().join("none")).is_ok());
    }
}
