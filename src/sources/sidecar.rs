//! greenroom's own record of a session: one JSON file per session in the
//! sidecar folder, named `<uuid>.json`.
//!
//! Several writers race on one file (the TUI, the CLI, many `greenroom
//! report` hook processes), so every change is a read-modify-write under a
//! per-session lock file, and every write is atomic (temp file, fsync,
//! rename): a reader sees the old file or the new one, never a torn one.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions, TryLockError};
use std::io;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

mod archive;
mod atomic;

use atomic::{lock_within, replace_atomic, sync_dir};
pub use atomic::{remove_stale_temps, write_atomic};

use super::snooze::Snooze;
use super::{NOT_REGULAR, O_NOFOLLOW, O_NONBLOCK, read_text_file};
use crate::model::{Activity, Problem, Status};

/// The longest `activity_detail` stored; hooks may send whole messages.
pub const MAX_DETAIL_CHARS: usize = 500;
pub const ARCHIVE_DIR: &str = "archive";
pub const SIDECAR_VERSION: u32 = 1;

/// A tool call as a hook payload named it; both parts cleaned and bounded
/// by the report that wrote them.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ToolCall {
    #[serde(default)]
    pub tool: Option<String>,
    #[serde(default)]
    pub command: Option<String>,
}

/// A git worktree a session was spawned in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Worktree {
    pub repo: PathBuf,
    pub branch: String,
    pub path: PathBuf,
}

/// The sidecar file. Only `id`, `cwd` and `command` are required; fields
/// greenroom does not know are kept in `extra` and written back unchanged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sidecar {
    #[serde(default = "default_version")]
    pub version: u32,
    pub id: Uuid,
    #[serde(default)]
    pub name: String,
    pub cwd: PathBuf,
    pub command: String,
    #[serde(default)]
    pub agent: Option<String>,
    #[serde(default)]
    pub tmux_session: Option<String>,
    #[serde(default = "default_status")]
    pub status: Status,
    #[serde(default)]
    pub exit_status: Option<i32>,
    #[serde(default)]
    pub created_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub restored_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub last_focused_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub last_activity_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub activity: Option<Activity>,
    #[serde(default)]
    pub activity_detail: Option<String>,
    #[serde(default)]
    pub activity_since: Option<DateTime<Utc>>,
    #[serde(default)]
    pub activity_reported_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub current_cwd: Option<PathBuf>,
    #[serde(default)]
    pub agent_session_id: Option<String>,
    #[serde(default)]
    pub transcript_path: Option<PathBuf>,
    #[serde(default)]
    pub worktree: Option<Worktree>,
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    #[serde(default)]
    pub metadata: BTreeMap<String, String>,
    /// The operator's snooze, while one is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snooze: Option<Snooze>,
    /// The tool call the agent holds (PreToolUse, PermissionRequest): what
    /// a waiting session asks about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub activity_tool: Option<ToolCall>,
    /// Set when the activity was recorded by greenroom after it answered a
    /// prompt with this key (the agents fire no hook on a refusal);
    /// cleared by the next hook report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answered_with: Option<String>,
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

fn default_version() -> u32 {
    SIDECAR_VERSION
}

fn default_status() -> Status {
    Status::Dormant
}

impl Sidecar {
    /// A fresh record for a session about to be spawned.
    pub fn new(name: &str, cwd: &Path, command: &str, now: DateTime<Utc>) -> Self {
        Self {
            version: SIDECAR_VERSION,
            id: Uuid::new_v4(),
            name: name.to_owned(),
            cwd: cwd.to_path_buf(),
            command: command.to_owned(),
            agent: None,
            tmux_session: None,
            status: Status::Running,
            exit_status: None,
            created_at: Some(now),
            restored_at: None,
            last_focused_at: None,
            last_activity_at: None,
            activity: None,
            activity_detail: None,
            activity_since: None,
            activity_reported_at: None,
            current_cwd: None,
            agent_session_id: None,
            transcript_path: None,
            worktree: None,
            env: BTreeMap::new(),
            metadata: BTreeMap::new(),
            snooze: None,
            activity_tool: None,
            answered_with: None,
            extra: serde_json::Map::new(),
        }
    }

    /// The name shown to the operator; older or foreign files may lack one.
    pub fn display_name(&self) -> String {
        if self.name.is_empty() {
            self.id.to_string()[..8].to_owned()
        } else {
            self.name.clone()
        }
    }

    /// Parses a sidecar's text; the error is an operator-facing reason.
    pub fn parse(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| format!("is not a valid sidecar: {e}"))
    }

    fn cap_detail(&mut self) {
        let tool = self.activity_tool.as_mut();
        let parts = tool.into_iter().flat_map(|t| [&mut t.tool, &mut t.command]);
        for text in parts.chain([&mut self.activity_detail]).flatten() {
            if let Some((cut, _)) = text.char_indices().nth(MAX_DETAIL_CHARS) {
                text.truncate(cut);
            }
        }
    }
}

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
        replace_atomic(&self.path_for(sidecar.id), &bytes)
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
    for path in paths {
        match read_sidecar_file(&path) {
            Ok(s) => sidecars.push(s),
            Err(p) => problems.push(p),
        }
    }
    (sidecars, problems)
}
