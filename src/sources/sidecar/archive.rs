//! The archive of dismissed records (`<sidecar_dir>/archive/`): only ever a
//! real folder, read with each record's own file, and the way back: restore
//! of an archived session moves its newest archived copy to the live folder.

use std::fs;
use std::path::PathBuf;
use std::time::Duration;

use uuid::Uuid;

use super::{Sidecar, SidecarError, SidecarStore, io_err, is_sidecar_name, read_sidecar_file};
use crate::model::Problem;

impl SidecarStore {
    /// The archive folder, if it is a real folder: a symbolic link there
    /// would move records (and read them) wherever it points.
    pub(super) fn real_archive_dir(&self) -> Result<PathBuf, SidecarError> {
        let dir = self.archive_dir();
        match fs::symlink_metadata(&dir) {
            Ok(m) if m.is_dir() => Ok(dir),
            Ok(m) => Err(SidecarError::Unreadable {
                path: dir,
                reason: if m.file_type().is_symlink() {
                    "is a symbolic link, which greenroom does not follow; make it a folder".into()
                } else {
                    "is not a folder".into()
                },
            }),
            Err(e) => Err(io_err(format!("cannot read {}", dir.display()))(e)),
        }
    }

    /// Every archived record with the file it is in (a session dismissed
    /// twice has two), and a problem for each file that cannot be used.
    pub fn load_archived_files(&self) -> (Vec<(PathBuf, Sidecar)>, Vec<Problem>) {
        let dir = match self.real_archive_dir() {
            Ok(dir) => dir,
            Err(SidecarError::Unreadable { path, reason }) => {
                return (Vec::new(), vec![Problem::new(path, reason)]);
            }
            Err(_) => return (Vec::new(), Vec::new()),
        };
        let Ok(entries) = fs::read_dir(&dir) else {
            return (Vec::new(), Vec::new());
        };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .filter(|e| is_sidecar_name(&e.file_name().to_string_lossy()))
            .map(|e| e.path())
            .collect();
        paths.sort();
        let (mut found, mut problems) = (Vec::new(), Vec::new());
        for path in paths {
            match read_sidecar_file(&path) {
                Ok(s) => found.push((path, s)),
                Err(p) => problems.push(p),
            }
        }
        (found, problems)
    }

    /// The newest archived copy of session `id`: `<id>.json` is the first
    /// dismissal, `<id>.<stamp>.json` the later ones (stamps sort by time).
    pub fn archived_path(&self, id: Uuid) -> Result<PathBuf, SidecarError> {
        let dir = self.real_archive_dir()?;
        let entries =
            fs::read_dir(&dir).map_err(io_err(format!("cannot read {}", dir.display())))?;
        let plain = format!("{id}.json");
        let stamped = format!("{id}.");
        let newest = entries
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| *n == plain || (n.starts_with(&stamped) && n.ends_with(".json")))
            // The plain name sorts after the stamped ones ('j' > digits): rank it first.
            .max_by_key(|n| (*n != plain, n.clone()));
        match newest {
            Some(name) => Ok(dir.join(name)),
            None => Err(SidecarError::NotFound(id, dir)),
        }
    }

    /// The newest archived copy of session `id`, read like a live one.
    pub fn read_archived(&self, id: Uuid) -> Result<Sidecar, SidecarError> {
        read_sidecar_file(&self.archived_path(id)?).map_err(|p| SidecarError::Unreadable {
            path: p.path,
            reason: p.error,
        })
    }

    /// Moves the newest archived copy of session `id` back to the live
    /// folder. Refuses when a live record of that id exists.
    pub fn unarchive(&self, id: Uuid) -> Result<PathBuf, SidecarError> {
        let _lock = self.lock(id, Duration::from_secs(5))?;
        let to = self.path_for(id);
        if fs::symlink_metadata(&to).is_ok() {
            return Err(SidecarError::AlreadyExists(id));
        }
        let from = self.archived_path(id)?;
        fs::rename(&from, &to).map_err(io_err(format!("cannot move {}", from.display())))?;
        Ok(to)
    }
}
