//! What the watcher must watch so that every file the catalog reads is seen
//! when it changes: the folders, not the files, because atomic writers
//! replace files by rename.

use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WatchMode {
    /// The folder's own entries.
    Folder,
    /// The folder and its direct subfolders (never through a symlink).
    Tree,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WatchTarget {
    pub path: PathBuf,
    pub mode: WatchMode,
}

impl WatchTarget {
    pub fn folder(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            mode: WatchMode::Folder,
        }
    }
}
