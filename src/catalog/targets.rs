//! What the watcher must watch so that every file the catalog reads is seen
//! when it changes: the folders, not the files, because atomic writers
//! replace files by rename.

use super::{Catalog, WatchMode, WatchTarget};
use crate::sources::ao;

impl Catalog {
    /// Every folder the catalog's files live in, whether or not it exists
    /// yet (the watcher waits for missing ones to appear).
    pub fn watch_targets(&self) -> Vec<WatchTarget> {
        let mut out = vec![
            WatchTarget::folder(self.store.dir()),
            WatchTarget::folder(&self.adopted_dir),
        ];
        // Claude Code's own session records: what a Claude Code with no
        // hooks says of itself.
        out.extend(self.registry_dir().map(WatchTarget::folder));
        if self.sidecar_archive {
            out.push(WatchTarget::folder(self.store.archive_dir()));
        }
        for folder in self.locations.keys() {
            out.push(WatchTarget::folder(folder));
            if self.include_archive {
                out.push(WatchTarget::folder(folder.join("archive")));
            }
        }
        out.extend(
            self.transcripts
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
        if let Some(root) = &self.config.ao_dir {
            out.extend(
                ao::session_folders(root)
                    .into_iter()
                    .map(WatchTarget::folder),
            );
        }
        out.extend(self.git_watch_targets());
        out.sort();
        out.dedup();
        out
    }
}
