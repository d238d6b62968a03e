//! File notifications for every folder the catalog reads: no polling of
//! files. The watcher follows folders that do not exist yet, or that are
//! deleted and recreated, by watching their nearest existing ancestor until
//! they appear.
//!
//! Events are delivered as they come (no debounce thread): the event loop
//! coalesces a burst by draining what is pending before it applies them,
//! which keeps a change on screen within milliseconds and costs nothing idle.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use notify::event::{EventKind, ModifyKind};
use notify::{RecommendedWatcher, RecursiveMode, Watcher as _};

use crate::catalog::{WatchMode, WatchTarget};

/// One path that changed (a file, or a folder that appeared or vanished).
pub type FileChange = PathBuf;

#[derive(Debug, Clone, PartialEq, Eq)]
struct Armed {
    mode: WatchMode,
    /// Where the OS watch sits: the target itself, or its nearest existing ancestor.
    at: PathBuf,
}

pub struct Watcher {
    inner: RecommendedWatcher,
    targets: BTreeMap<PathBuf, Armed>,
    /// OS watches: path -> (mode, how many targets rely on it).
    armed: BTreeMap<PathBuf, (RecursiveMode, usize)>,
    failed: Vec<(PathBuf, String)>,
}

/// Whether an event can mean content changed: access events cannot.
fn is_change(kind: &EventKind) -> bool {
    !matches!(
        kind,
        EventKind::Access(_) | EventKind::Modify(ModifyKind::Metadata(_))
    )
}

impl Watcher {
    /// `send` receives every changed path, from the notification thread.
    pub fn new(send: impl Fn(FileChange) + Send + 'static) -> notify::Result<Self> {
        let inner =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| match event {
                Ok(event) if is_change(&event.kind) => event.paths.into_iter().for_each(&send),
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "file watcher error"),
            })?;
        Ok(Self {
            inner,
            targets: BTreeMap::new(),
            armed: BTreeMap::new(),
            failed: Vec::new(),
        })
    }

    /// Adds targets not watched yet. Existing ones are left as they are.
    pub fn add_targets(&mut self, targets: &[WatchTarget]) {
        for t in targets {
            if !self.targets.contains_key(&t.path) {
                let at = nearest_existing(&t.path);
                self.arm(
                    &at,
                    if at == t.path {
                        t.mode
                    } else {
                        WatchMode::Folder
                    },
                );
                self.targets
                    .insert(t.path.clone(), Armed { mode: t.mode, at });
            }
        }
    }

    /// How many folders are being followed.
    pub fn target_count(&self) -> usize {
        self.targets.len()
    }

    /// Looks at changed paths for folders that appeared or vanished and
    /// moves watches accordingly. Returns target folders that just appeared
    /// or vanished: their contents must be read again.
    pub fn reconcile(&mut self, changed: &[PathBuf]) -> Vec<PathBuf> {
        let mut affected: Vec<PathBuf> = Vec::new();
        for path in changed {
            // Targets at or below the changed path (it may be their ancestor).
            affected.extend(
                self.targets
                    .range(path.clone()..)
                    .take_while(|(p, _)| p.starts_with(path))
                    .map(|(p, _)| p.clone()),
            );
            // Targets waiting at the changed path's folder for a child to appear.
            if let Some(parent) = path.parent() {
                affected.extend(
                    self.targets
                        .iter()
                        .filter(|(p, a)| a.at == parent && p.starts_with(path))
                        .map(|(p, _)| p.clone()),
                );
            }
        }
        affected.sort();
        affected.dedup();
        let mut reread = Vec::new();
        for target in affected {
            let Some(armed) = self.targets.get(&target).cloned() else {
                continue;
            };
            let at = nearest_existing(&target);
            let was_there = armed.at == target;
            let is_there = at == target;
            if at != armed.at || (is_there && !target.is_dir()) {
                self.disarm(&armed.at);
                self.arm(
                    &at,
                    if is_there {
                        armed.mode
                    } else {
                        WatchMode::Folder
                    },
                );
                self.targets.insert(
                    target.clone(),
                    Armed {
                        mode: armed.mode,
                        at,
                    },
                );
            } else if is_there {
                // Deleted and recreated between two looks: the old OS watch
                // died with the old folder, so watch the new one.
                let _ = self.inner.unwatch(&target);
                let _ = self.inner.watch(&target, recursive(armed.mode));
            }
            if was_there != is_there || is_there {
                reread.push(target);
            }
        }
        reread
    }

    fn arm(&mut self, path: &Path, mode: WatchMode) {
        let entry = self
            .armed
            .entry(path.to_path_buf())
            .or_insert((recursive(mode), 0));
        entry.1 += 1;
        if entry.1 == 1
            && let Err(e) = self.inner.watch(path, recursive(mode))
        {
            tracing::warn!(path = %path.display(), error = %e, "cannot watch folder");
            self.failed.push((path.to_path_buf(), e.to_string()));
        }
    }

    /// Folders that could not be watched since the last call (the inotify
    /// watch limit, permissions): their changes would go unseen, so the
    /// operator is told.
    pub fn take_failures(&mut self) -> Vec<(PathBuf, String)> {
        std::mem::take(&mut self.failed)
    }

    fn disarm(&mut self, path: &Path) {
        if let Some(entry) = self.armed.get_mut(path) {
            entry.1 -= 1;
            if entry.1 == 0 {
                self.armed.remove(path);
                let _ = self.inner.unwatch(path);
            }
        }
    }
}

fn recursive(mode: WatchMode) -> RecursiveMode {
    match mode {
        WatchMode::Folder => RecursiveMode::NonRecursive,
        WatchMode::Tree => RecursiveMode::Recursive,
    }
}

/// The path itself if it is a folder, else its nearest existing ancestor.
fn nearest_existing(path: &Path) -> PathBuf {
    let mut p = path;
    loop {
        if p.is_dir() {
            return p.to_path_buf();
        }
        match p.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => p = parent,
            _ => return PathBuf::from("/"),
        }
    }
}
