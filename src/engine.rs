//! The live catalog: the catalog, the file watcher and the tmux poll put
//! together. The dashboard's event loop (and the tests) drive it: file
//! changes, git results and poll ticks go in, "something changed" comes
//! out. The catalog is the engine's own: callers ask the engine for rows,
//! problems and what tmux said.

use std::path::PathBuf;

use crate::catalog::Catalog;
use crate::model::{Problem, Session};
use crate::sources::sidecar::SidecarStore;
use crate::tmux::{ServerState, Tmux};
use crate::watch::Watcher;

mod apply;
mod change;
mod recover;
mod screens;
mod status_writes;
mod tmux_state;

pub use change::Change;
pub use recover::Recovery;
pub use screens::{SCREEN_EVERY, Seen, capture_screens, read_agent_screens};
use status_writes::STATUS_RETRY;
pub(crate) use status_writes::owes_statuses;
pub use status_writes::{owe_status, write_statuses};

/// New rows after a change: every row, or only those of records that
/// changed alone ([`Catalog::rows_of`]).
#[derive(Debug)]
pub enum NewRows {
    All(Vec<Session>),
    Changed(Vec<Session>),
}

pub struct Engine {
    catalog: Catalog,
    watcher: Watcher,
    tmux: Tmux,
    store: SidecarStore,
    /// When loading began: files changed after it are read again once the
    /// watches are armed, so nothing written in between is missed.
    loaded_at: std::time::SystemTime,
    watching: bool,
    /// Reads the work trees off the loop (see `git/monitor.rs`).
    git: crate::git::Monitor,
    /// Each tmux session's last pane activity: a pane that moved may have
    /// saved a file deeper than the watched top folders of its work tree.
    pane_activity: std::collections::HashMap<String, Option<chrono::DateTime<chrono::Utc>>>,
    /// When each Codex pane's screen was last captured (see `screens.rs`).
    screen_looks: screens::LastLooks,
}

/// What the engine reads from the settings: the catalog's, and `$PATH`
/// (where git's helpers are found). `config` builds it.
#[derive(Debug, Clone)]
pub struct Settings {
    pub catalog: crate::catalog::Settings,
    pub path: Option<std::ffi::OsString>,
}

impl Engine {
    /// Loads every source and starts watching; `send` receives file changes
    /// from the notification thread and git's "results ready" from its reader.
    /// `settings` is what `config` builds (`&Config` will do).
    pub fn start(
        settings: impl Into<Settings>,
        include_archive: bool,
        send: impl Fn(Change) + Send + 'static,
    ) -> notify::Result<Self> {
        let mut engine = Self::load(settings, include_archive, send)?;
        engine.watch();
        Ok(engine)
    }

    /// Loads every source without watching yet, so a first frame can be
    /// drawn before the (slower) watches are armed with [`Self::watch`].
    pub fn load(
        settings: impl Into<Settings>,
        include_archive: bool,
        send: impl Fn(Change) + Send + 'static,
    ) -> notify::Result<Self> {
        let Settings { catalog, path } = settings.into();
        let store = SidecarStore::new(&catalog.sidecar_dir);
        // Watched from the start, so the first session spawned is seen.
        if let Err(e) = store.ensure_dir() {
            tracing::warn!(error = %e, "cannot create the sidecar folder");
        }
        // A writer killed mid-write (kill -9) leaves its temporary behind.
        crate::sources::sidecar::remove_stale_temps(store.dir());
        // The watcher and the git reader share the one way in to the loop.
        let send = std::sync::Arc::new(std::sync::Mutex::new(send));
        let wake = send.clone();
        let watcher = Watcher::new(move |path| {
            (send.lock().unwrap_or_else(|p| p.into_inner()))(Change::Path(path))
        })?;
        let loaded_at = std::time::SystemTime::now();
        let tmux = Tmux::new(catalog.tmux_socket.clone());
        let catalog = Catalog::load(catalog, include_archive);
        let git = crate::git::Monitor::start(crate::git::Git::new(), path, move || {
            (wake.lock().unwrap_or_else(|p| p.into_inner()))(Change::GitResults)
        });
        let mut engine = Self {
            catalog,
            watcher,
            tmux,
            store,
            loaded_at,
            watching: false,
            git,
            pane_activity: Default::default(),
            screen_looks: Default::default(),
        };
        let _ = engine.discover_work_trees(chrono::Utc::now());
        Ok(engine)
    }

    /// Arms the watches, then reads again whatever changed since loading
    /// began. Returns whether the rows changed.
    pub fn watch(&mut self) -> bool {
        if self.watching {
            return false;
        }
        self.watching = true;
        let usage = self.catalog.load_usage();
        let targets = self.catalog.watch_targets();
        self.watcher.add_targets(&targets);
        let failed = self.note_watch_failures();
        let mut changed_since = Vec::new();
        for t in &targets {
            let Ok(entries) = std::fs::read_dir(&t.path) else {
                continue;
            };
            for e in entries.filter_map(Result::ok) {
                let recent = e
                    .metadata()
                    .and_then(|m| m.modified())
                    // File times come from a coarse clock: allow a second.
                    .is_ok_and(|m| m + std::time::Duration::from_secs(1) >= self.loaded_at);
                if recent {
                    changed_since.push(e.path());
                }
            }
        }
        // Deleted between loading and arming: no event will come for them.
        changed_since.extend(
            self.catalog
                .known_files()
                .into_iter()
                .filter(|p| std::fs::symlink_metadata(p).is_err()),
        );
        let caught_up = !changed_since.is_empty() && self.apply_changes(changed_since);
        usage || caught_up || failed
    }

    pub fn tmux(&self) -> &Tmux {
        &self.tmux
    }

    pub fn watched_folders(&self) -> usize {
        self.watcher.target_count()
    }

    /// How many OS (inotify) watches sit on `folder` or below it.
    pub fn os_watches_under(&self, folder: &std::path::Path) -> usize {
        self.watcher.os_watches_under(folder)
    }

    /// The rows now, and the work trees of rows not seen before followed
    /// (they are read soon). The rows are handed back: building a thousand
    /// costs milliseconds, and the caller shows these same ones.
    pub(super) fn discover_work_trees(
        &mut self,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Vec<Session> {
        let rows = self.catalog.rows(now);
        for repo in self.catalog.discover_work_trees(&rows) {
            self.git.add(repo);
        }
        rows
    }

    /// Reads the work tree of a session's folder again soon (the Changes
    /// tab opened on it, say), before any other due.
    pub fn refresh_changes(&mut self, cwd: &std::path::Path) {
        let root = self.catalog.work_tree_for(cwd).map(ToOwned::to_owned);
        if let Some(root) = &root {
            self.git.mark(root);
        }
        self.git.set_focus(root);
    }

    /// How many work-tree reads have started (benchmarks look).
    pub fn git_reads(&self) -> u64 {
        self.git.reads()
    }

    /// Takes the git reads finished. Returns whether the rows changed.
    fn take_git_results(&mut self) -> bool {
        let mut changed = false;
        for (root, changes) in self.git.take_results() {
            changed |= self.catalog.set_changes(&root, changes);
        }
        changed
    }

    /// The rows, in sidebar order, at `now` (no IO).
    pub fn rows(&self, now: chrono::DateTime<chrono::Utc>) -> Vec<Session> {
        self.catalog.rows(now)
    }

    /// Whether the clock alone may change the rows at `now` (see
    /// [`Catalog::clock_moves_rows`]).
    pub fn clock_moves_rows(&self, now: chrono::DateTime<chrono::Utc>) -> bool {
        self.catalog.clock_moves_rows(now)
    }

    /// Every problem the sources and the watcher found, ordered by path.
    pub fn problems(&self) -> Vec<Problem> {
        self.catalog.problems()
    }

    /// What tmux said at the last poll, if it has been asked.
    pub fn tmux_state(&self) -> Option<&ServerState> {
        self.catalog.tmux_state()
    }

    /// Where sessions were looked for, for the empty state.
    pub fn looked_in(&self) -> Vec<PathBuf> {
        self.catalog.looked_in()
    }

    /// Reads greenroom's own archived records and follows them from now on
    /// (see [`Catalog::follow_sidecar_archive`]).
    pub fn follow_sidecar_archive(&mut self) -> bool {
        self.catalog.follow_sidecar_archive()
    }

    /// Starts following token usage (see [`Catalog::load_usage`]).
    pub fn load_usage(&mut self) -> bool {
        self.catalog.load_usage()
    }

    pub fn store(&self) -> &SidecarStore {
        &self.store
    }
}
