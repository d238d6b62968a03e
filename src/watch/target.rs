//! What the watcher is asked to watch: a folder, and how deep.

use std::path::PathBuf;

/// How much of a folder is watched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WatchMode {
    /// The folder's own entries.
    Folder,
    /// The folder and its direct subfolders (never through a symlink).
    Tree,
}

/// A folder to watch, as the catalog asks for it.
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
