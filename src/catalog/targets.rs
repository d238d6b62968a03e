//! What the watcher must watch so that every file the catalog reads is seen
//! when it changes: the folders, not the files, because atomic writers
//! replace files by rename.

use std::path::PathBuf;

use super::Catalog;

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

impl Catalog {
    /// Every folder the catalog's files live in, whether or not it exists
    /// yet (the watcher waits for missing ones to appear).
    pub fn watch_targets(&self) -> Vec<WatchTarget> {
        let mut out = vec![
            WatchTarget::folder(self.own.store.dir()),
            WatchTarget::folder(&self.adopted.dir),
        ];
        // Claude Code's own session records: what a Claude Code with no
        // hooks says of itself.
        out.extend(self.registry_dir().map(WatchTarget::folder));
        if self.own.follow_archive {
            out.push(WatchTarget::folder(self.own.store.archive_dir()));
        }
        for folder in self.maestro.locations.keys() {
            out.push(WatchTarget::folder(folder));
            if self.include_archive {
                out.push(WatchTarget::folder(folder.join("archive")));
            }
        }
        out.extend(
            self.usage
                .transcripts
                .folders()
                .into_iter()
                .map(WatchTarget::folder),
        );
        for dir in self.hooks_dirs() {
            out.push(WatchTarget {
                path: dir.clone(),
                mode: WatchMode::Tree,
            });
        }
        out.extend(self.ao.targets());
        out.extend(self.git_watch_targets());
        out.sort();
        out.dedup();
        out
    }
}
