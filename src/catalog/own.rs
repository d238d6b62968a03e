//! Greenroom's own records: the sidecars it wrote for the sessions it
//! started, the archived ones once asked for, and the snoozes the operator
//! set on (and the looks they gave) rows greenroom does not own.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::WatchTarget;
use crate::sources::sidecar::{self, Sidecar, SidecarStore};
use crate::sources::snooze::Snooze;

#[derive(Debug)]
pub(super) struct Own {
    pub(super) store: SidecarStore,
    /// Live records, by file.
    pub(super) sidecars: BTreeMap<PathBuf, Sidecar>,
    /// Archived records, by their real file.
    pub(super) archived: BTreeMap<PathBuf, Sidecar>,
    /// Archived sidecars are read and followed (with `include_archive`, or
    /// after [`super::Catalog::follow_sidecar_archive`]).
    pub(super) follow_archive: bool,
    /// Snoozes of the rows greenroom does not own (Maestro, AO), by row id.
    pub(super) snoozes: BTreeMap<String, Snooze>,
    /// When the operator last looked at each row greenroom does not own.
    pub(super) looks: crate::sources::looks::Looks,
}

/// Which of greenroom's own files a changed path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum OwnPath {
    /// A record, live or archived.
    Record { archived: bool },
    /// The snooze file.
    Snoozes,
    /// The looks file.
    Looks,
    /// The records' folder itself (it appeared or went).
    Folder,
}

/// When the operator last looked at a row greenroom does not own: the
/// later of greenroom's looks file and tmux's own attach time.
pub(super) fn looked_at(
    looks: &crate::sources::looks::Looks,
    id: &str,
    tmux_attached: Option<chrono::DateTime<chrono::Utc>>,
) -> Option<chrono::DateTime<chrono::Utc>> {
    crate::health::last_focus(looks.get(id).copied(), tmux_attached)
}

impl Own {
    /// Whether (and as what) a changed path is greenroom's own to read.
    pub(super) fn claims(&self, path: &Path) -> Option<OwnPath> {
        let parent = path.parent().unwrap_or(Path::new(""));
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        if parent == self.store.dir() && sidecar::is_sidecar_name(&name) {
            return Some(OwnPath::Record { archived: false });
        }
        if parent == self.store.dir() && name == crate::sources::snooze::SNOOZE_FILE {
            return Some(OwnPath::Snoozes);
        }
        if parent == self.store.dir() && name == crate::sources::looks::LOOKS_FILE {
            return Some(OwnPath::Looks);
        }
        if parent == self.store.archive_dir() && sidecar::is_sidecar_name(&name) {
            return Some(OwnPath::Record { archived: true });
        }
        (path == self.store.dir()).then_some(OwnPath::Folder)
    }

    /// The records' folder, and the archive's once it is followed.
    pub(super) fn targets(&self) -> Vec<WatchTarget> {
        let mut out = vec![WatchTarget::folder(self.store.dir())];
        if self.follow_archive {
            out.push(WatchTarget::folder(self.store.archive_dir()));
        }
        out
    }

    /// Whether a record of this session is held, live or archived (a
    /// session moving to the archive is one for a moment).
    pub(super) fn holds(&self, id: uuid::Uuid) -> bool {
        self.sidecars
            .values()
            .chain(self.archived.values())
            .any(|s| s.id == id)
    }

    pub(super) fn new(store: SidecarStore) -> Self {
        Own {
            store,
            sidecars: BTreeMap::new(),
            archived: BTreeMap::new(),
            follow_archive: false,
            snoozes: BTreeMap::new(),
            looks: Default::default(),
        }
    }
}
