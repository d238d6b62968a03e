//! The live catalog: the catalog, the file watcher and the tmux poll put
//! together. The dashboard's event loop (and the tests) drive it: file
//! changes and poll ticks go in, "something changed" comes out.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use crate::catalog::{Applied, Catalog, StatusUpdate};
use crate::model::Status;
use crate::sources::sidecar::{SidecarError, SidecarStore};
use crate::tmux::{ServerState, Tmux};
use crate::watch::{FileChange, Watcher};
use uuid::Uuid;

mod tmux_state;

/// Set when a batch of status writes had one fail in a way that may pass
/// (a full disk, a busy lock): until a batch lands whole, every poll decides
/// the writes again even if tmux says nothing new. Process-wide, because
/// the dashboard writes off its loop with only the store in hand.
static STATUS_RETRY: AtomicBool = AtomicBool::new(false);

/// Statuses an action decided but could not record (a kill on a full
/// disk): tmux alone would later call that session Dormant, so the status
/// writes retried each poll write this one in its place until it lands.
static OWED: Mutex<BTreeMap<Uuid, Status>> = Mutex::new(BTreeMap::new());

fn owed() -> std::sync::MutexGuard<'static, BTreeMap<Uuid, Status>> {
    OWED.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Remembers that sidecar `id` should record `status`, which a write just
/// failed to record; the status writes that follow carry it.
pub fn owe_status(id: Uuid, status: Status) {
    owed().insert(id, status);
    STATUS_RETRY.store(true, Ordering::Relaxed);
}

/// Whether a status is still owed: the next poll decides the writes again.
pub(crate) fn owes_statuses() -> bool {
    !owed().is_empty()
}

/// Records statuses in the sidecars, each under its lock.
pub fn write_statuses(store: &SidecarStore, updates: &[StatusUpdate]) {
    let mut retry = false;
    for u in updates {
        let intended = owed().get(&u.id).cloned();
        let (status, exit_status) = match &intended {
            Some(status) => (status.clone(), None),
            None => (u.status.clone(), u.exit_status),
        };
        let result = store.update(u.id, STATUS_WRITE_WAIT, |s| {
            if s.status != u.was {
                return false;
            }
            s.status = status;
            s.exit_status = exit_status;
            true
        });
        match result {
            // Written, or the file moved on (a restore): nothing is owed.
            Ok(_) | Err(SidecarError::NotFound(..)) if intended.is_some() => {
                owed().remove(&u.id);
            }
            Ok(_) => {}
            Err(e) => {
                retry |= matches!(e, SidecarError::Io { .. } | SidecarError::LockTimeout(..));
                tracing::warn!(id = %u.id, error = %e, "cannot record status");
            }
        }
    }
    STATUS_RETRY.store(retry, Ordering::Relaxed);
}

/// What start-up recovery did: records whose tmux session still runs
/// (adopted), records of sessions that are gone (now dormant), and records
/// whose folder is gone (archived, where they went).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Recovery {
    pub adopted: usize,
    pub dormant: usize,
    pub archived: Vec<PathBuf>,
}

/// New rows after a change: every row, or only those of records that
/// changed alone ([`Catalog::rows_of`]).
#[derive(Debug)]
pub enum NewRows {
    All(Vec<crate::model::Session>),
    Changed(Vec<crate::model::Session>),
}

pub struct Engine {
    pub catalog: Catalog,
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
}

const STATUS_WRITE_WAIT: Duration = Duration::from_millis(500);
/// New folders found while reading new folders: a bound, not a limit met in practice.
const MAX_NEW_FOLDER_ROUNDS: usize = 8;

/// What the engine reads from the settings: the catalog's, and `$PATH`
/// (where git's helpers are found). `config` builds it.
#[derive(Debug, Clone)]
pub struct Settings {
    pub catalog: crate::catalog::Settings,
    pub path: Option<std::ffi::OsString>,
}

impl Engine {
    /// Loads every source and starts watching; `send` receives file changes
    /// from the notification thread. `settings` is what `config` builds
    /// (`&Config` will do).
    pub fn start(
        settings: impl Into<Settings>,
        include_archive: bool,
        send: impl Fn(FileChange) + Send + 'static,
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
        send: impl Fn(FileChange) + Send + 'static,
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
        let watcher =
            Watcher::new(move |change| (send.lock().unwrap_or_else(|p| p.into_inner()))(change))?;
        let loaded_at = std::time::SystemTime::now();
        let tmux = Tmux::new(catalog.tmux_socket.clone());
        let catalog = Catalog::load(catalog, include_archive);
        let git = crate::git::Monitor::start(crate::git::Git::new(), path, move || {
            (wake.lock().unwrap_or_else(|p| p.into_inner()))(PathBuf::from(
                crate::git::RESULTS_READY,
            ))
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
    fn discover_work_trees(
        &mut self,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Vec<crate::model::Session> {
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

    /// Applies a batch of changed paths. Returns whether the rows changed.
    pub fn apply_changes(&mut self, paths: Vec<PathBuf>) -> bool {
        self.apply_changes_rows(paths, chrono::Utc::now()).is_some()
    }

    /// As [`Self::apply_changes`], handing back the rows when they changed
    /// (built once, after the last change was applied) at `now`: all of
    /// them, or when only records changed whose rows reach no other (a
    /// sidecar rewritten, the common case) just those, for the caller to
    /// swap into the rows it holds from the last build.
    pub fn apply_changes_rows(
        &mut self,
        mut paths: Vec<PathBuf>,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Option<NewRows> {
        let results = PathBuf::from(crate::git::RESULTS_READY);
        let before = paths.len();
        paths.retain(|p| *p != results);
        let git_changed = paths.len() != before && self.take_git_results();
        for p in &paths {
            if let Some(root) = self.catalog.work_tree_of(p) {
                self.git.mark(root);
            }
        }
        if paths.is_empty() {
            return git_changed.then(|| NewRows::All(self.catalog.rows(now)));
        }
        paths.sort();
        paths.dedup();
        let mut reread = self.watcher.reconcile(&paths);
        reread.retain(|p| paths.binary_search(p).is_err());
        let mut changed = false;
        // The rows after the last change applied, once built.
        let mut rows = None;
        let mut pending: Vec<PathBuf> = paths.iter().chain(&reread).cloned().collect();
        let mut grew = paths.iter().any(|p| p.is_dir());
        // Records that changed alone, while nothing else did.
        let mut records = Some(Vec::new());
        // Reading a folder can bring new folders to watch (a new session's
        // Maestro state, a new AO project), and a folder watched for the
        // first time must be read once armed: repeat until nothing new.
        for round in 0..MAX_NEW_FOLDER_ROUNDS {
            let before = self.catalog.watch_targets_len_hint();
            let mut applied = false;
            for path in pending.drain(..) {
                match self.catalog.apply_path(&path) {
                    Applied::Unchanged => {}
                    Applied::Records(changed) => {
                        applied = true;
                        if let Some(r) = &mut records {
                            r.extend(changed);
                        }
                    }
                    Applied::Other => {
                        applied = true;
                        records = None;
                    }
                }
            }
            if round > 0 || git_changed {
                records = None;
            }
            if applied {
                changed = true;
                if let Some(r) = &mut records {
                    // A record rewritten and its orchestration moved on, say.
                    r.sort();
                    r.dedup();
                }
                rows = match records.as_deref() {
                    Some(r) => self.catalog.rows_of(r, now).map(NewRows::Changed),
                    None => None,
                };
                if rows.is_none() {
                    rows = Some(NewRows::All(self.discover_work_trees(now)));
                }
            }
            if self.catalog.watch_targets_len_hint() == before && !grew {
                break;
            }
            grew = false;
            pending = self.watcher.add_targets(&self.catalog.watch_targets());
            if pending.is_empty() {
                break;
            }
            records = None;
        }
        // Arming new folders, or re-arming one that vanished, may fail.
        if self.note_watch_failures() {
            changed = true;
            rows = None;
        }
        if !(changed || git_changed) {
            return None;
        }
        Some(rows.unwrap_or_else(|| NewRows::All(self.catalog.rows(now))))
    }

    fn note_watch_failures(&mut self) -> bool {
        let failures = self.watcher.take_failures();
        let notes = self.watcher.take_notes();
        let any = !failures.is_empty() || !notes.is_empty();
        for (path, error) in failures {
            let reason = format!("cannot be watched ({error}); changes here may go unseen");
            self.catalog.note_problem(path, reason);
        }
        for (path, note) in notes {
            self.catalog.note_problem(path, note);
        }
        any
    }

    pub fn store(&self) -> &SidecarStore {
        &self.store
    }

    /// Start-up recovery: adopt live sessions, mark the rest dormant, and
    /// move records whose folder is gone to the archive. Needs tmux's answer;
    /// without tmux nothing is changed.
    pub fn recover(&mut self) -> Recovery {
        let (report, statuses) = self.recover_deferred();
        write_statuses(&self.store, &statuses);
        report
    }

    /// As [`Self::recover`], but hands back the status writes, for the
    /// dashboard to do after its first frame, off its loop: after a reboot
    /// every session turns dormant, and 1,000 fsyncs would hold the first
    /// frame for a third of a second (10,000: seconds). The rows say
    /// dormant already; the files follow.
    pub fn recover_deferred(&mut self) -> (Recovery, Vec<StatusUpdate>) {
        let state = self.tmux.poll();
        let live: Option<std::collections::BTreeSet<String>> = match &state {
            ServerState::Running(map) => Some(map.keys().cloned().collect()),
            ServerState::NoServer => Some(Default::default()),
            ServerState::NotInstalled | ServerState::Error(_) => None,
        };
        let mut report = Recovery::default();
        let Some(live) = live else {
            return (report, Vec::new());
        };
        let sidecars: Vec<_> = self.catalog.sidecars().cloned().collect();
        let mut gone = Vec::new();
        for s in sidecars {
            let is_live = s.tmux_session.as_ref().is_some_and(|n| live.contains(n));
            if is_live {
                report.adopted += 1;
                continue;
            }
            // A worktree whose folder is gone can be recreated from its
            // branch on restore, as long as its repository is still there.
            let recoverable = s.worktree.as_ref().is_some_and(|w| w.repo.is_dir());
            if !s.cwd.is_dir() && !recoverable {
                match self.store.archive(s.id) {
                    Ok(to) => {
                        report.archived.push(to);
                        gone.push(self.store.path_for(s.id));
                    }
                    Err(e) => tracing::warn!(id = %s.id, error = %e, "cannot archive"),
                }
                continue;
            }
            if matches!(s.status, Status::Running | Status::Unknown(_)) {
                report.dormant += 1;
            }
        }
        // Adopted and dormant statuses are written by the regular path.
        let (_, statuses) = self.set_tmux_deferred(state, chrono::Utc::now());
        // Records of agents greenroom did not start, whose pane has closed.
        for path in self.catalog.stale_adopted() {
            if let Err(e) = std::fs::remove_file(&path) {
                tracing::warn!(path = %path.display(), error = %e, "cannot remove a stale record");
            }
            if let (Some(dir), Some(stem)) = (path.parent(), path.file_stem()) {
                let _ = std::fs::remove_file(dir.join(format!(".{}.lock", stem.to_string_lossy())));
            }
            gone.push(path);
        }
        self.apply_changes(gone);
        (report, statuses)
    }
}
