//! What wakes the engine: one channel for the watcher and the git reader,
//! each saying what it has in its own variant.

use std::path::PathBuf;

/// One thing that changed outside the engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// A file or folder the watcher saw change.
    Path(PathBuf),
    /// The git reader finished reads, waiting to be taken
    /// ([`crate::git::Monitor::take_results`]).
    GitResults,
}

/// A path handed in directly (a test, start-up's catch-up) is a file change.
impl From<PathBuf> for Change {
    fn from(path: PathBuf) -> Self {
        Change::Path(path)
    }
}

/// The changed paths of a batch, and whether git results wait among them.
pub(super) fn split(changes: impl IntoIterator<Item = impl Into<Change>>) -> (Vec<PathBuf>, bool) {
    let mut paths = Vec::new();
    let mut git = false;
    for change in changes {
        match change.into() {
            Change::Path(p) => paths.push(p),
            Change::GitResults => git = true,
        }
    }
    (paths, git)
}
