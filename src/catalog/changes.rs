//! The git work trees the sessions are in: found by looking for `.git`
//! above each session's folder (no git process), followed by the watcher
//! (the git folder; the top folder and its direct subfolders), and what the
//! last read said, attached to the rows. Reading is the engine's
//! (`git::Monitor`, off the event loop).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{WatchMode, WatchTarget};
use crate::git::{self, Repo};
use crate::model::{Changes, Session};

#[derive(Debug, Default)]
pub(super) struct GitTrees {
    /// A session folder -> the top folder of its work tree (`None`: not in one).
    cwds: HashMap<PathBuf, Option<PathBuf>>,
    /// A work tree's top folder -> its repository and last read.
    trees: HashMap<PathBuf, (Repo, Option<Arc<Changes>>)>,
}

impl GitTrees {
    pub(super) fn len(&self) -> usize {
        self.trees.len()
    }

    /// Each work tree's git folder, and its top folder with its direct
    /// subfolders.
    pub(super) fn targets(&self) -> impl Iterator<Item = WatchTarget> + '_ {
        self.trees.iter().flat_map(|(root, (repo, _))| {
            [
                WatchTarget::folder(&repo.git_dir),
                WatchTarget {
                    path: root.clone(),
                    mode: WatchMode::Tree,
                },
            ]
        })
    }
}

impl GitTrees {
    /// Looks for the work tree of every row's folder not looked at yet.
    /// Returns the work trees found for the first time, to be read.
    pub(super) fn discover(&mut self, rows: &[Session]) -> Vec<Repo> {
        let mut found = Vec::new();
        let mut cwds: Vec<&Path> = rows
            .iter()
            .filter(|r| !r.archived && !self.cwds.contains_key(&r.cwd))
            .map(|r| r.cwd.as_path())
            .collect();
        cwds.sort();
        cwds.dedup();
        // Each folder's ancestors looked at for `.git`: at start-up, for
        // every session at once, on every core.
        let repos =
            crate::sources::parallel::map(&cwds, |cwd| (cwd.to_path_buf(), git::discover(cwd)));
        for (cwd, repo) in repos {
            let root = repo.as_ref().map(|r| r.root.clone());
            self.cwds.insert(cwd, root.clone());
            if let (Some(repo), Some(root)) = (repo, root)
                && !self.trees.contains_key(&root)
            {
                self.trees.insert(root, (repo.clone(), None));
                found.push(repo);
            }
        }
        found
    }

    /// The work tree a changed path belongs to: an entry of its git
    /// folder, or a file in its top folders.
    pub(super) fn tree_of(&self, path: &Path) -> Option<&Path> {
        self.trees.iter().find_map(|(root, (repo, _))| {
            let in_git_dir = path == repo.git_dir || path.parent() == Some(&repo.git_dir);
            (in_git_dir || path.starts_with(root)).then_some(root.as_path())
        })
    }

    /// The work tree of a session's folder, if it is in one.
    pub(super) fn tree_for(&self, cwd: &Path) -> Option<&Path> {
        self.cwds.get(cwd)?.as_deref()
    }

    /// Records a read. Returns whether what the rows show changed.
    pub(super) fn set_changes(&mut self, root: &Path, changes: Changes) -> bool {
        let Some((_, last)) = self.trees.get_mut(root) else {
            return false;
        };
        if last.as_deref() == Some(&changes) {
            return false;
        }
        *last = Some(Arc::new(changes));
        true
    }

    /// Work trees git could not read (a broken repository), by top folder.
    pub(super) fn problems(&self) -> impl Iterator<Item = crate::model::Problem> + '_ {
        self.trees.iter().filter_map(|(root, (_, last))| {
            let p = last.as_ref()?.problem.as_ref()?;
            Some(crate::model::Problem::new(root, format!("git: {p}")))
        })
    }

    pub(super) fn attach(&self, rows: &mut [Session]) {
        // No work tree at all: no lookup of every row's folder.
        if self.trees.is_empty() {
            return;
        }
        for row in rows.iter_mut().filter(|r| !r.archived) {
            let last = self
                .tree_for(&row.cwd)
                .and_then(|root| self.trees.get(root))
                .and_then(|(_, last)| last.clone());
            if let Some(c) = &last
                && let Some(branch) = &c.branch
            {
                row.branch = Some(branch.clone());
            }
            row.changes = last;
        }
    }
}
