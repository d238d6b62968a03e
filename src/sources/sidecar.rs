//! greenroom's own record of a session: one JSON file per session in the
//! sidecar folder, named `<uuid>.json`.
//!
//! Several writers race on one file (the TUI, the CLI, many `greenroom
//! report` hook processes), so every change is a read-modify-write under a
//! per-session lock file, and every write is atomic (temp file, fsync,
//! rename): a reader sees the old file or the new one, never a torn one.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::Utc;
use uuid::Uuid;

mod archive;
mod record;

use super::atomic::{WriteError, lock_within, replace_atomic, sync_dir};
pub use super::atomic::{remove_stale_temps, write_atomic, write_atomic_mode};
pub use record::{MAX_OPTIONS, Sidecar, ToolCall, Worktree};

use super::{NOT_REGULAR, O_NOFOLLOW, O_NONBLOCK, read_text_file};
use crate::model::Problem;

/// The longest `activity_detail` stored; hooks may send whole messages.
pub const MAX_DETAIL_CHARS: usize = 500;
pub const ARCHIVE_DIR: &str = "archive";
pub const SIDECAR_VERSION: u32 = 1;

#[derive(Debug, thiserror::Error)]
pub enum SidecarError {
    #[error("no session {0} in {1}")]
    NotFound(Uuid, PathBuf),
    #[error("{path}: {reason}")]
    Unreadable { path: PathBuf, reason: String },
    #[error("a sidecar for {0} already exists")]
    AlreadyExists(Uuid),
    #[error("timed out after {0:?} waiting for the lock on session {1}")]
    LockTimeout(Duration, Uuid),
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: io::Error,
    },
}

impl From<WriteError> for SidecarError {
    fn from(e: WriteError) -> Self {
        SidecarError::Io {
            context: e.context,
            source: e.source,
        }
    }
}

fn io_err(context: impl Into<String>) -> impl FnOnce(io::Error) -> SidecarError {
    move |source| SidecarError::Io {
        context: context.into(),
        source,
    }
}

/// The sidecar folder.
#[derive(Debug, Clone)]
pub struct SidecarStore {
    dir: PathBuf,
}

impl SidecarStore {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn archive_dir(&self) -> PathBuf {
        self.dir.join(ARCHIVE_DIR)
    }

    pub fn path_for(&self, id: Uuid) -> PathBuf {
        self.dir.join(format!("{id}.json"))
    }

    fn lock_path(&self, id: Uuid) -> PathBuf {
        self.dir.join(format!(".{id}.lock"))
    }

    /// Creates the folder (and its archive) private to the user.
    pub fn ensure_dir(&self) -> Result<(), SidecarError> {
        for dir in [self.dir.clone(), self.archive_dir()] {
            fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(&dir)
                .map_err(io_err(format!("cannot create {}", dir.display())))?;
        }
        Ok(())
    }

    /// Every live sidecar, and a problem for each file that cannot be used.
    pub fn load_all(&self) -> (Vec<Sidecar>, Vec<Problem>) {
        load_folder(&self.dir)
    }

    /// Dismissed sidecars. An `archive` that is a symbolic link is not
    /// followed: it is a problem.
    pub fn load_archived(&self) -> (Vec<Sidecar>, Vec<Problem>) {
        let (files, problems) = self.load_archived_files();
        (files.into_iter().map(|(_, s)| s).collect(), problems)
    }

    pub fn read(&self, id: Uuid) -> Result<Sidecar, SidecarError> {
        let path = self.path_for(id);
        if fs::symlink_metadata(&path).is_err() {
            return Err(SidecarError::NotFound(id, self.dir.clone()));
        }
        read_sidecar_file(&path).map_err(|p| SidecarError::Unreadable {
            path: p.path,
            reason: p.error,
        })
    }

    /// Writes a new sidecar; refuses to replace an existing one.
    pub fn create(&self, sidecar: &Sidecar) -> Result<(), SidecarError> {
        self.ensure_dir()?;
        let _lock = self.lock(sidecar.id, Duration::from_secs(5))?;
        if fs::symlink_metadata(self.path_for(sidecar.id)).is_ok() {
            return Err(SidecarError::AlreadyExists(sidecar.id));
        }
        self.write_unlocked(sidecar)
    }

    /// Read-modify-write under the session's lock. Nothing is written when
    /// `change` returns false, so steady-state callers cause no file events.
    pub fn update(
        &self,
        id: Uuid,
        lock_wait: Duration,
        change: impl FnOnce(&mut Sidecar) -> bool,
    ) -> Result<Sidecar, SidecarError> {
        let lock = self.lock_existing(id, lock_wait)?;
        let mut sidecar = match self.read(id) {
            Err(e @ SidecarError::NotFound(..)) => {
                // Archived while this waited: leave no lock behind it.
                let _ = fs::remove_file(self.lock_path(id));
                return Err(e);
            }
            other => other?,
        };
        if change(&mut sidecar) {
            self.replace_unlocked(&sidecar)?;
            // The rename is what readers and racing writers see; making it
            // durable needs no lock, so others may go on meanwhile.
            drop(lock);
            sync_dir(&self.dir).map_err(io_err(format!("cannot sync {}", self.dir.display())))?;
        }
        Ok(sidecar)
    }

    /// Moves a sidecar to `archive/`: dismissed sessions are kept, not deleted.
    pub fn archive(&self, id: Uuid) -> Result<PathBuf, SidecarError> {
        self.ensure_dir()?;
        let _lock = self.lock_existing(id, Duration::from_secs(5))?;
        let from = self.path_for(id);
        if fs::symlink_metadata(&from).is_err() {
            return Err(SidecarError::NotFound(id, self.dir.clone()));
        }
        let archive = self.real_archive_dir()?;
        let mut to = archive.join(format!("{id}.json"));
        if fs::symlink_metadata(&to).is_ok() {
            let stamp = Utc::now().format("%Y%m%dT%H%M%S%.3fZ");
            to = archive.join(format!("{id}.{stamp}.json"));
        }
        fs::rename(&from, &to).map_err(io_err(format!("cannot move {}", from.display())))?;
        // The lock file has no further use once the session is archived.
        let _ = fs::remove_file(self.lock_path(id));
        Ok(to)
    }

    /// The lock of a session that has a sidecar here. A lock file is made
    /// only then: a report naming any folder and any id leaves nothing.
    fn lock_existing(&self, id: Uuid, wait: Duration) -> Result<File, SidecarError> {
        if fs::symlink_metadata(self.path_for(id)).is_err() {
            return Err(SidecarError::NotFound(id, self.dir.clone()));
        }
        self.lock(id, wait)
    }

    /// Takes the session's lock, waiting at most `wait`. A waiter blocks in
    /// the kernel (`flock`) rather than sleeping and retrying, so it is
    /// woken as soon as the holder is done instead of sleeping through the
    /// release while newcomers take the lock.
    fn lock(&self, id: Uuid, wait: Duration) -> Result<File, SidecarError> {
        let path = self.lock_path(id);
        let not_regular = || SidecarError::Unreadable {
            path: path.clone(),
            reason: NOT_REGULAR.into(),
        };
        // A FIFO planted as the lock would block the open (and with it
        // every status write): the open never blocks, and only a regular
        // file is used.
        if fs::symlink_metadata(&path).is_ok_and(|m| !m.is_file()) {
            return Err(not_regular());
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .custom_flags(O_NOFOLLOW | O_NONBLOCK)
            .open(&path)
            .map_err(io_err(format!("cannot open lock {}", path.display())))?;
        if !file.metadata().is_ok_and(|m| m.is_file()) {
            return Err(not_regular());
        }
        let cannot_lock = |e| io_err(format!("cannot lock {}", path.display()))(e);
        match file.try_lock() {
            Ok(()) => return Ok(file),
            Err(TryLockError::WouldBlock) => {}
            Err(TryLockError::Error(e)) => return Err(cannot_lock(e)),
        }
        match lock_within(file, wait) {
            Ok(Some(file)) => Ok(file),
            Ok(None) => Err(SidecarError::LockTimeout(wait, id)),
            Err(e) => Err(cannot_lock(e)),
        }
    }

    fn write_unlocked(&self, sidecar: &Sidecar) -> Result<(), SidecarError> {
        self.replace_unlocked(sidecar)?;
        sync_dir(&self.dir).map_err(io_err(format!("cannot sync {}", self.dir.display())))
    }

    /// Encodes and renames the new file into place; the caller holds the lock.
    fn replace_unlocked(&self, sidecar: &Sidecar) -> Result<(), SidecarError> {
        let mut sidecar = sidecar.clone();
        sidecar.cap_detail();
        let mut bytes = serde_json::to_vec_pretty(&sidecar).map_err(|e| SidecarError::Io {
            context: "cannot encode sidecar".into(),
            source: io::Error::other(e),
        })?;
        bytes.push(b'\n');
        Ok(replace_atomic(&self.path_for(sidecar.id), &bytes)?)
    }
}

/// Reads one sidecar file, checking that its id matches its name.
pub fn read_sidecar_file(path: &Path) -> Result<Sidecar, Problem> {
    let problem = |reason: String| Problem::new(path, reason);
    let text = read_text_file(path).map_err(problem)?;
    let sidecar = Sidecar::parse(&text).map_err(problem)?;
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    // Archived copies may carry a timestamp after the id.
    let file_id = stem.split('.').next().unwrap_or(stem);
    if file_id != sidecar.id.to_string() {
        return Err(problem(format!(
            "its id {} does not match its file name",
            sidecar.id
        )));
    }
    Ok(sidecar)
}

/// Whether a folder entry is a sidecar file (not a temp, lock or hidden file).
pub fn is_sidecar_name(name: &str) -> bool {
    !name.starts_with('.') && name.ends_with(".json")
}

fn load_folder(dir: &Path) -> (Vec<Sidecar>, Vec<Problem>) {
    let mut sidecars = Vec::new();
    let mut problems = Vec::new();
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return (sidecars, problems),
        Err(e) => {
            problems.push(Problem::new(dir, super::io_reason(&e)));
            return (sidecars, problems);
        }
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| is_sidecar_name(&e.file_name().to_string_lossy()))
        .map(|e| e.path())
        .collect();
    paths.sort();
    for read in super::parallel::map(&paths, |p| read_sidecar_file(p)) {
        match read {
            Ok(s) => sidecars.push(s),
            Err(p) => problems.push(p),
        }
    }
    (sidecars, problems)
}
