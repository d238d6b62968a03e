//! Reading work trees off the event loop. The engine marks a work tree
//! dirty (its git folder changed, a file in its top folders changed, its
//! session's pane moved); one worker thread reads dirty trees, each at most
//! once per [`MIN_INTERVAL`], and says the results are ready through the
//! engine's channel (`engine::Change::GitResults`). Nothing dirty, nothing
//! runs: the worker sleeps on a condition variable with no timeout.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::{Git, PrCache, Repo, read_changes};
use crate::model::Changes;

/// A work tree is read at most once per this long.
pub const MIN_INTERVAL: Duration = Duration::from_secs(1);

#[derive(Debug)]
struct Tree {
    repo: Repo,
    dirty: bool,
    /// Read once more after the next read: what marked the tree (a pane's
    /// move, tmux keeps whole seconds; a file event) can come just before
    /// the write it announces lands, and then that read misses it.
    again: bool,
    running: bool,
    last_start: Option<Instant>,
}

#[derive(Debug, Default)]
struct Inner {
    trees: HashMap<PathBuf, Tree>,
    results: Vec<(PathBuf, Changes)>,
    /// Read first when several are due (the one the operator looks at).
    focus: Option<PathBuf>,
    stop: bool,
    /// How many reads started (benchmarks and tests look).
    reads: u64,
}

type Shared = Arc<(Mutex<Inner>, Condvar)>;

pub struct Monitor {
    shared: Shared,
}

fn lock(shared: &Shared) -> MutexGuard<'_, Inner> {
    shared.0.lock().unwrap_or_else(|p| p.into_inner())
}

impl Monitor {
    /// Starts the worker; `wake` is called (from the worker) when results wait.
    /// `path` is `$PATH`, for the optional `gh`.
    pub fn start(
        git: Git,
        path: Option<std::ffi::OsString>,
        wake: impl Fn() + Send + 'static,
    ) -> Self {
        let shared: Shared = Arc::default();
        let worker = shared.clone();
        let spawned = std::thread::Builder::new()
            .name("greenroom-git".into())
            .spawn(move || work(&worker, &git, PrCache::new(path.as_deref()), &wake));
        if let Err(e) = spawned {
            tracing::warn!(error = %e, "cannot start the git reader; changes are not shown");
        }
        Self { shared }
    }

    /// Follows a work tree; it is read soon.
    pub fn add(&self, repo: Repo) {
        let mut inner = lock(&self.shared);
        let root = repo.root.clone();
        inner.trees.entry(root).or_insert(Tree {
            repo,
            dirty: true,
            again: false,
            running: false,
            last_start: None,
        });
        self.shared.1.notify_all();
    }

    /// Marks a followed work tree to be read again (within [`MIN_INTERVAL`]
    /// of its last read), and once more after that read settles.
    pub fn mark(&self, root: &Path) {
        let mut inner = lock(&self.shared);
        if let Some(t) = inner.trees.get_mut(root) {
            t.dirty = true;
            t.again = true;
            self.shared.1.notify_all();
        }
    }

    /// The work tree read first when several are due.
    pub fn set_focus(&self, root: Option<PathBuf>) {
        lock(&self.shared).focus = root;
    }

    /// The results finished since the last call, oldest first.
    pub fn take_results(&self) -> Vec<(PathBuf, Changes)> {
        std::mem::take(&mut lock(&self.shared).results)
    }

    /// How many reads have started.
    pub fn reads(&self) -> u64 {
        lock(&self.shared).reads
    }
}

impl Drop for Monitor {
    fn drop(&mut self) {
        lock(&self.shared).stop = true;
        self.shared.1.notify_all();
    }
}

/// The next tree to read now, or how long until one is due.
fn next(inner: &mut Inner, now: Instant) -> Result<(PathBuf, Repo), Option<Duration>> {
    let mut wait: Option<Duration> = None;
    let mut due: Vec<&PathBuf> = Vec::new();
    for (root, t) in &inner.trees {
        if !t.dirty || t.running {
            continue;
        }
        match t
            .last_start
            .map(|s| (s + MIN_INTERVAL).saturating_duration_since(now))
        {
            Some(left) if !left.is_zero() => wait = Some(wait.map_or(left, |w| w.min(left))),
            _ => due.push(root),
        }
    }
    let pick = due
        .iter()
        .find(|r| inner.focus.as_ref() == Some(**r))
        .or(due.first())
        .map(|r| (*r).clone());
    let Some(root) = pick else {
        return Err(wait);
    };
    inner.reads += 1;
    let t = inner.trees.get_mut(&root).ok_or(None)?;
    // A mark asks for one read more, after this one (`Tree::again`).
    t.dirty = std::mem::take(&mut t.again);
    t.running = true;
    t.last_start = Some(now);
    Ok((root, t.repo.clone()))
}

fn work(shared: &Shared, git: &Git, mut prs: PrCache, wake: &dyn Fn()) {
    let mut inner = lock(shared);
    loop {
        if inner.stop {
            return;
        }
        match next(&mut inner, Instant::now()) {
            Ok((root, repo)) => {
                drop(inner);
                let mut changes = read_changes(git, &repo);
                changes.pr = prs.lookup(&changes);
                inner = lock(shared);
                if let Some(t) = inner.trees.get_mut(&root) {
                    t.running = false;
                }
                inner.results.push((root, changes));
                drop(inner);
                wake();
                inner = lock(shared);
            }
            Err(Some(wait)) => {
                inner = shared
                    .1
                    .wait_timeout(inner, wait)
                    .map(|(g, _)| g)
                    .unwrap_or_else(|p| p.into_inner().0);
            }
            Err(None) => {
                inner = shared.1.wait(inner).unwrap_or_else(|p| p.into_inner());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mark is read now and once more after the interval: a write that
    /// lands just after the first read began is not lost.
    #[test]
    fn a_mark_is_read_twice_and_then_nothing_runs() {
        let root = PathBuf::from("/w");
        let repo = Repo {
            root: root.clone(),
            git_dir: root.join(".git"),
            problem: None,
        };
        let mut inner = Inner::default();
        inner.trees.insert(
            root.clone(),
            Tree {
                repo,
                dirty: true,
                again: true,
                running: false,
                last_start: None,
            },
        );
        let t0 = Instant::now();
        let finish = |inner: &mut Inner| {
            if let Some(t) = inner.trees.get_mut(&root) {
                t.running = false;
            }
        };
        assert!(next(&mut inner, t0).is_ok());
        finish(&mut inner);
        assert_eq!(next(&mut inner, t0).err(), Some(Some(MIN_INTERVAL)));
        assert!(next(&mut inner, t0 + MIN_INTERVAL).is_ok());
        finish(&mut inner);
        assert_eq!(next(&mut inner, t0 + MIN_INTERVAL * 3).err(), Some(None));
        assert_eq!(inner.reads, 2);
    }
}
