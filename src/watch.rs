//! File notifications for every folder the catalog reads: no polling of
//! files. The watcher follows folders that do not exist yet, or that are
//! deleted and recreated, by watching their nearest existing ancestor until
//! they appear.
//!
//! A folder can be created and written at once (`mkdir -p`, then an atomic
//! write, milliseconds apart): no event will ever come for what it held
//! before its watch was armed. So every folder that appears is handed back
//! to the caller, after its watch is armed, to be read whole.
//!
//! Events are delivered as they come (no debounce thread): the event loop
//! coalesces a burst by draining what is pending before it applies them,
//! which keeps a change on screen within milliseconds and costs nothing idle.
//! Every OS watch is on one folder (never recursive): a tree is its folder
//! and its direct subfolders, and a symlink is never followed. A tree with
//! more than [`MAX_TREE_CHILDREN`] subfolders is watched at its top only,
//! and the caller is told once ([`Watcher::take_notes`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use notify::event::{EventKind, ModifyKind};
use notify::{RecommendedWatcher, RecursiveMode, Watcher as _};

/// One path that changed (a file, or a folder that appeared or vanished).
pub type FileChange = PathBuf;

mod target;
pub use target::{WatchMode, WatchTarget};

/// A folder that grows deeper while it is being armed is looked at again;
/// this bounds that in case something creates and deletes it endlessly.
const MAX_SETTLE_STEPS: usize = 64;

/// Subfolders watched per tree at most. Each is one inotify watch, and the
/// user's watches are shared by every program they run (`fs.inotify.
/// max_user_watches`: 8,192 on many systems, about 190,000 on others): an
/// agent that makes 200,000 folders in its work tree would take them all,
/// and every other program would get ENOSPC. A real project's top folder
/// has tens of subfolders; past this many, none of the tree's subfolders
/// is watched (its top folder still is, and a work tree's git folder is a
/// target of its own), and deeper saves are seen as an agent's deeper
/// saves always are: when its pane moves.
pub const MAX_TREE_CHILDREN: usize = 2_000;

#[derive(Debug, Clone, PartialEq, Eq)]
struct Armed {
    mode: WatchMode,
    /// Where the OS watch sits: the target itself, or its nearest existing ancestor.
    at: PathBuf,
}

pub struct Watcher {
    inner: RecommendedWatcher,
    targets: BTreeMap<PathBuf, Armed>,
    /// The subfolders watched for tree targets: subfolder -> its tree.
    children: BTreeMap<PathBuf, PathBuf>,
    /// How many subfolders each tree has watched.
    child_counts: BTreeMap<PathBuf, usize>,
    /// Trees found with more than [`MAX_TREE_CHILDREN`] subfolders: watched
    /// at their top only from then on.
    overflowed: BTreeSet<PathBuf>,
    /// OS watches: path -> how many targets rely on it.
    armed: BTreeMap<PathBuf, usize>,
    failed: Vec<(PathBuf, String)>,
    notes: Vec<(PathBuf, String)>,
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
        let handler = move |event: notify::Result<notify::Event>| match event {
            Ok(event) if is_change(&event.kind) => event.paths.into_iter().for_each(&send),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "file watcher error"),
        };
        let config = notify::Config::default().with_follow_symlinks(false);
        let inner = RecommendedWatcher::new(handler, config)?;
        Ok(Self {
            inner,
            targets: BTreeMap::new(),
            children: BTreeMap::new(),
            child_counts: BTreeMap::new(),
            overflowed: BTreeSet::new(),
            armed: BTreeMap::new(),
            failed: Vec::new(),
            notes: Vec::new(),
        })
    }

    /// Adds targets not watched yet (existing ones are left as they are).
    /// Returns the new targets (and tree subfolders) that exist, now that
    /// they are watched: what they hold must be read, since no event will
    /// come for it.
    pub fn add_targets(&mut self, targets: &[WatchTarget]) -> Vec<PathBuf> {
        let mut present = Vec::new();
        for t in targets {
            if self.targets.contains_key(&t.path) {
                continue;
            }
            let at = self.settle(&t.path, None);
            let here = at == t.path;
            self.targets
                .insert(t.path.clone(), Armed { mode: t.mode, at });
            if here {
                present.push(t.path.clone());
                if t.mode == WatchMode::Tree {
                    present.extend(self.arm_children(&t.path));
                }
            }
        }
        present
    }

    /// How many folders are being followed.
    pub fn target_count(&self) -> usize {
        self.targets.len()
    }

    /// How many OS watches sit on `folder` or below it.
    pub fn os_watches_under(&self, folder: &Path) -> usize {
        self.armed
            .range(folder.to_path_buf()..)
            .take_while(|(p, _)| p.starts_with(folder))
            .count()
    }

    /// Looks at changed paths for folders that appeared or vanished and
    /// moves watches accordingly. Returns the folders that just appeared or
    /// vanished, watched again: their contents must be read again.
    pub fn reconcile(&mut self, changed: &[PathBuf]) -> Vec<PathBuf> {
        let mut affected: BTreeSet<PathBuf> = BTreeSet::new();
        let mut tree_entries: BTreeSet<PathBuf> = BTreeSet::new();
        for path in changed {
            // Targets at or below the changed path (it may be their ancestor).
            affected.extend(
                self.targets
                    .range(path.clone()..)
                    .take_while(|(p, _)| p.starts_with(path))
                    .map(|(p, _)| p.clone()),
            );
            // (Those waiting at its folder for it to appear are among them:
            // the map is ordered by component, so a folder's descendants
            // follow it. No scan of every target per change.)
            if let Some(parent) = path.parent()
                && self.is_present_tree(parent)
            {
                tree_entries.insert(path.clone());
            }
        }
        let mut reread = Vec::new();
        for target in affected {
            let Some(armed) = self.targets.get(&target).cloned() else {
                continue;
            };
            let was_there = armed.at == target;
            let at = self.settle(&target, Some(&armed.at));
            let is_there = at == target;
            if was_there && is_there {
                // Deleted and recreated between two looks: the old OS watch
                // died with the old folder, so watch the new one.
                let _ = self.inner.unwatch(&target);
                self.watch_os(&target);
            }
            self.targets.insert(
                target.clone(),
                Armed {
                    mode: armed.mode,
                    at,
                },
            );
            if armed.mode == WatchMode::Tree {
                if is_there {
                    reread.extend(self.arm_children(&target));
                } else {
                    self.disarm_children(&target);
                }
            }
            if was_there || is_there {
                reread.push(target);
            }
        }
        for entry in tree_entries {
            let is_dir = real_dir(&entry);
            match (self.children.contains_key(&entry), is_dir) {
                (false, true) => {
                    if let Some(tree) = entry.parent().map(Path::to_path_buf)
                        && self.room_for(&tree, 1)
                    {
                        self.arm_child(&tree, entry.clone());
                        reread.push(entry);
                    }
                }
                (true, false) => {
                    self.disarm_child(&entry);
                }
                (true, true) => {
                    let _ = self.inner.unwatch(&entry);
                    self.watch_os(&entry);
                }
                (false, false) => {}
            }
        }
        reread.sort();
        reread.dedup();
        reread
    }

    fn is_present_tree(&self, path: &Path) -> bool {
        self.targets
            .get(path)
            .is_some_and(|a| a.mode == WatchMode::Tree && a.at == path)
    }

    /// Arms the nearest existing folder of `target` (moving the watch from
    /// `current`), then looks again: the folder may have grown deeper while
    /// it was armed (`mkdir -p` in progress), and no event would tell.
    /// Returns where the watch sits.
    fn settle(&mut self, target: &Path, current: Option<&Path>) -> PathBuf {
        let mut at = nearest_existing(target);
        if current != Some(at.as_path()) {
            self.arm(&at);
            if let Some(current) = current {
                self.disarm(current);
            }
        }
        for _ in 0..MAX_SETTLE_STEPS {
            let again = nearest_existing(target);
            if again == at {
                break;
            }
            self.arm(&again);
            self.disarm(&at);
            at = again;
        }
        at
    }

    /// Watches a tree's direct subfolders that are not watched yet (never
    /// through a symlink). Returns them: they must be read.
    fn arm_children(&mut self, tree: &Path) -> Vec<PathBuf> {
        // A tree that is itself a link is watched as a folder only.
        if std::fs::symlink_metadata(tree).is_ok_and(|m| m.file_type().is_symlink()) {
            return Vec::new();
        }
        if self.overflowed.contains(tree) {
            return Vec::new();
        }
        let Ok(entries) = std::fs::read_dir(tree) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for e in entries.filter_map(Result::ok) {
            let path = e.path();
            // DirEntry::file_type does not follow links.
            if e.file_type().is_ok_and(|t| t.is_dir()) && !self.children.contains_key(&path) {
                // Counted before any is armed: one past the cap is enough
                // to know, and nothing is armed only to be taken back.
                if !self.room_for(tree, out.len() + 1) {
                    return Vec::new();
                }
                out.push(path);
            }
        }
        for path in &out {
            self.arm_child(tree, path.clone());
        }
        out
    }

    /// Whether `more` subfolders of `tree` may be watched. When not, the
    /// tree is watched at its top only from now on, and that is said once.
    fn room_for(&mut self, tree: &Path, more: usize) -> bool {
        if self.overflowed.contains(tree) {
            return false;
        }
        let have = self.child_counts.get(tree).copied().unwrap_or(0);
        if have + more <= MAX_TREE_CHILDREN {
            return true;
        }
        self.disarm_children(tree);
        self.overflowed.insert(tree.to_path_buf());
        tracing::warn!(
            folder = %tree.display(),
            limit = MAX_TREE_CHILDREN,
            "too many subfolders to watch each: watching the folder itself only"
        );
        self.notes.push((
            tree.to_path_buf(),
            format!(
                "has more than {MAX_TREE_CHILDREN} subfolders, too many to watch each (inotify watches are shared by all your programs): saves below its top folder show when the session's pane moves or git's index changes"
            ),
        ));
        false
    }

    fn arm_child(&mut self, tree: &Path, child: PathBuf) {
        self.arm(&child);
        self.children.insert(child, tree.to_path_buf());
        *self.child_counts.entry(tree.to_path_buf()).or_insert(0) += 1;
    }

    fn disarm_child(&mut self, child: &Path) {
        if let Some(tree) = self.children.remove(child) {
            if let Some(n) = self.child_counts.get_mut(&tree) {
                *n = n.saturating_sub(1);
            }
            self.disarm(child);
        }
    }

    fn disarm_children(&mut self, tree: &Path) {
        let gone: Vec<PathBuf> = self
            .children
            .iter()
            .filter(|(_, t)| t.as_path() == tree)
            .map(|(c, _)| c.clone())
            .collect();
        for child in gone {
            self.children.remove(&child);
            self.disarm(&child);
        }
        self.child_counts.remove(tree);
    }

    fn arm(&mut self, path: &Path) {
        let count = self.armed.entry(path.to_path_buf()).or_insert(0);
        *count += 1;
        if *count == 1 {
            self.watch_os(path);
        }
    }

    fn watch_os(&mut self, path: &Path) {
        if let Err(e) = self.inner.watch(path, RecursiveMode::NonRecursive) {
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

    /// What the operator should know about how a folder is watched, since
    /// the last call, each said once: a tree watched at its top only.
    pub fn take_notes(&mut self) -> Vec<(PathBuf, String)> {
        std::mem::take(&mut self.notes)
    }

    fn disarm(&mut self, path: &Path) {
        if let Some(count) = self.armed.get_mut(path) {
            *count -= 1;
            if *count == 0 {
                self.armed.remove(path);
                let _ = self.inner.unwatch(path);
            }
        }
    }
}

/// A folder, not a link to one.
fn real_dir(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
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
