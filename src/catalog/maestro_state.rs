//! Maestro state in the catalog: the workspaces sessions run in, their
//! state folders (read in parallel at start-up), and the agent Maestro's
//! hooks name as working now.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{ACTIVE_SESSION_FILE, Problems, WatchMode, WatchTarget};
use crate::model::{Orchestration, Problem};
use crate::sources::maestro::{self, StateLocation};

/// What the catalog read of Maestro: the workspaces sessions run in, the
/// state folders followed, the orchestrations they hold.
#[derive(Debug)]
pub(super) struct MaestroState {
    /// Where Maestro keeps a workspace's state (its `--state-dir` default).
    state_dir: String,
    /// Where Maestro's hooks record the working agent: the configured (or
    /// per-user default) folder first, then Maestro 1.4.0's own default.
    hooks_dirs: Vec<PathBuf>,
    pub(super) include_archive: bool,
    /// Workspace (a session's cwd or a --state-dir) -> its active state file.
    pub(super) workspaces: HashMap<PathBuf, PathBuf>,
    /// State folder -> its location; the keys are what the watcher watches.
    pub(super) locations: BTreeMap<PathBuf, StateLocation>,
    /// Hashed, not ordered: rows look these up for every session, often.
    pub(super) states: HashMap<PathBuf, Arc<Orchestration>>,
    /// State folder -> its newest archived state file: the orchestration its
    /// session finished, shown until a new one starts.
    pub(super) finished: HashMap<PathBuf, PathBuf>,
    /// Workspaces the operator named (--state-dir): their orchestrations are
    /// rows of their own when no session claims them. A workspace known
    /// only as a session's folder goes with that session (dismissed, say).
    pub(super) named: HashSet<PathBuf>,
    /// State folder -> the state files and problems last read from it.
    pub(super) folder_paths: HashMap<PathBuf, Vec<PathBuf>>,
    /// Agent session id -> the agent Maestro's hooks say is working.
    pub(super) active_agents: BTreeMap<String, String>,
}

impl MaestroState {
    pub(super) fn new(config: &super::Settings, include_archive: bool) -> Self {
        let main = config.maestro_hooks_dir.clone();
        let legacy = config.maestro_hooks_legacy.iter().filter(|l| **l != main);
        let hooks_dirs = std::iter::once(main.clone())
            .chain(legacy.cloned())
            .collect();
        MaestroState {
            state_dir: config.maestro_state_dir.clone(),
            hooks_dirs,
            include_archive,
            workspaces: HashMap::new(),
            locations: BTreeMap::new(),
            states: HashMap::new(),
            finished: HashMap::new(),
            named: HashSet::new(),
            folder_paths: HashMap::new(),
            active_agents: BTreeMap::new(),
        }
    }

    /// Registers a session folder; reads its Maestro state the first time.
    /// Returns whether anything new was read.
    pub(super) fn add_workspace(&mut self, cwd: &Path, problems: &mut Problems) -> bool {
        if self.workspaces.contains_key(cwd) {
            return false;
        }
        let loc = maestro::location_for_workspace(cwd, &self.state_dir);
        self.workspaces.insert(
            cwd.to_path_buf(),
            loc.state_folder.join(ACTIVE_SESSION_FILE),
        );
        self.add_location(loc, problems)
    }

    pub(super) fn add_location(&mut self, loc: StateLocation, problems: &mut Problems) -> bool {
        if self.locations.contains_key(&loc.state_folder) {
            return false;
        }
        let changed = self.read_location(&loc, problems);
        self.locations.insert(loc.state_folder.clone(), loc);
        changed
    }

    /// (Re)reads one state folder: what it holds replaces what it held.
    /// Returns whether the states or problems there changed.
    pub(super) fn read_location(&mut self, loc: &StateLocation, problems: &mut Problems) -> bool {
        self.reread_location(loc, problems) != LocationChange::None
    }

    /// [`Self::read_location`], saying what changed.
    pub(super) fn reread_location(
        &mut self,
        loc: &StateLocation,
        problems: &mut Problems,
    ) -> LocationChange {
        let read = maestro::read_location(loc, self.include_archive);
        self.install_location(loc, read, problems)
    }

    /// Puts what one state folder holds in place of what it held.
    pub(super) fn install_location(
        &mut self,
        loc: &StateLocation,
        (states, found): (Vec<Orchestration>, Vec<Problem>),
        problems: &mut Problems,
    ) -> LocationChange {
        let folder = loc.state_folder.clone();
        // Only this folder's entries are touched: the index says which they are.
        let mut before = Vec::new();
        for path in self.folder_paths.remove(&folder).unwrap_or_default() {
            let state = self.states.remove(&path);
            let problem = problems.remove(&path);
            before.push((path, state, problem));
        }
        let mut paths: Vec<PathBuf> = Vec::with_capacity(states.len() + found.len());
        for p in found {
            paths.push(p.path.clone());
            problems.insert(p.path, p.error);
        }
        for o in states {
            paths.push(o.path.clone());
            // A state read again unchanged keeps its Arc: the kept rows
            // know orchestrations by pointer.
            let same = before
                .iter()
                .find_map(|(p, was, _)| was.as_ref().filter(|w| *p == o.path && ***w == o));
            let state = same.cloned().unwrap_or_else(|| Arc::new(o));
            self.states.insert(state.path.clone(), state);
        }
        paths.sort();
        paths.dedup();
        let after: Vec<_> = paths
            .iter()
            .map(|p| {
                (
                    p.clone(),
                    self.states.get(p).cloned(),
                    problems.get(p).cloned(),
                )
            })
            .collect();
        before.sort_by(|a, b| a.0.cmp(&b.0));
        let previous = self.finished.get(&folder).cloned();
        let newest = paths
            .iter()
            .filter_map(|p| self.states.get(p))
            .filter(|o| o.archived)
            .max_by(|a, b| {
                a.updated_at
                    .cmp(&b.updated_at)
                    .then_with(|| a.path.cmp(&b.path))
            })
            .map(|o| o.path.clone());
        let same_finished = newest == previous;
        match newest {
            Some(path) => self.finished.insert(folder.clone(), path),
            None => self.finished.remove(&folder),
        };
        self.folder_paths.insert(folder, paths);
        LocationChange::between(&before, &after, same_finished)
    }

    /// The state folder a path belongs to: the folder itself, its active
    /// file, its archive folder or an archived `*.md`. Other names there
    /// (the writers' temp files) change nothing greenroom reads: reading the
    /// folder again for them would parse the state twice per write.
    pub(super) fn location_of(&self, path: &Path) -> Option<StateLocation> {
        if let Some(loc) = self.locations.get(path) {
            return Some(loc.clone());
        }
        let parent = path.parent()?;
        let name = path.file_name()?;
        if name == ACTIVE_SESSION_FILE || name == "archive" {
            return self.locations.get(parent).cloned();
        }
        let in_archive = parent.file_name().is_some_and(|n| n == "archive");
        if in_archive && path.extension().is_some_and(|e| e == "md") {
            return self.locations.get(parent.parent()?).cloned();
        }
        None
    }

    /// Whether a changed path is Maestro's to read: a state folder's, or
    /// one of its hooks' records.
    pub(super) fn claims(&self, path: &Path) -> bool {
        self.location_of(path).is_some() || self.hooks_dirs().any(|d| path.starts_with(d))
    }

    /// The state folders (and their archives, when shown) and the hooks'
    /// folders, whether or not they exist yet.
    pub(super) fn targets(&self) -> Vec<WatchTarget> {
        let mut out = Vec::new();
        for folder in self.locations.keys() {
            out.push(WatchTarget::folder(folder));
            if self.include_archive {
                out.push(WatchTarget::folder(folder.join("archive")));
            }
        }
        for dir in self.hooks_dirs() {
            out.push(WatchTarget {
                path: dir.clone(),
                mode: WatchMode::Tree,
            });
        }
        out
    }

    /// Where Maestro's hooks record the working agent, main folder first.
    pub(super) fn hooks_dirs(&self) -> impl Iterator<Item = &PathBuf> {
        self.hooks_dirs.iter()
    }

    pub(super) fn refresh_active_agent(&mut self, agent_session_id: &str) -> bool {
        let now = self
            .hooks_dirs()
            .find_map(|dir| maestro::read_active_agent(dir, agent_session_id));
        let before = match now {
            Some(agent) => self
                .active_agents
                .insert(agent_session_id.to_owned(), agent.clone()),
            None => self.active_agents.remove(agent_session_id),
        };
        before != self.active_agents.get(agent_session_id).cloned()
    }
}

/// What reading a state folder again changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum LocationChange {
    None,
    /// Only what these running orchestrations say (as they were before):
    /// the same files, each running before and after, no problem come or
    /// gone, the same one finished. Which session shows which
    /// orchestration is as it was, so only the rows that show these are
    /// new.
    Running(Vec<Arc<Orchestration>>),
    /// Anything else: files or problems come or gone, one started or
    /// finished.
    Other,
}

/// One state file as read: its path, its orchestration, its problem.
type Entry = (PathBuf, Option<Arc<Orchestration>>, Option<String>);

impl LocationChange {
    fn between(before: &[Entry], after: &[Entry], same_finished: bool) -> Self {
        if before == after {
            return LocationChange::None;
        }
        if before.len() != after.len() || !same_finished {
            return LocationChange::Other;
        }
        let mut running = Vec::new();
        for (b, a) in before.iter().zip(after) {
            if b == a {
                continue;
            }
            let (Some(was), Some(is)) = (&b.1, &a.1) else {
                return LocationChange::Other;
            };
            if b.0 != a.0 || b.2 != a.2 || was.archived || is.archived {
                return LocationChange::Other;
            }
            running.push(was.clone());
        }
        LocationChange::Running(running)
    }
}

type LocationRead = (Vec<Orchestration>, Vec<Problem>);

/// Reads state folders on every core; results come back in input order.
pub(super) fn read_locations_parallel(
    locations: &[StateLocation],
    include_archive: bool,
) -> Vec<(StateLocation, LocationRead)> {
    // Each with its folder: a reader that panicked leaves its part out.
    crate::sources::parallel::map(locations, |l| {
        (l.clone(), maestro::read_location(l, include_archive))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(file: &str, phase: i64, archived: bool) -> Entry {
        let o = Orchestration {
            path: PathBuf::from(file),
            current_phase: Some(crate::model::PhaseId::Number(phase)),
            archived,
            ..Orchestration::default()
        };
        (PathBuf::from(file), Some(Arc::new(o)), None)
    }

    #[test]
    fn only_a_running_orchestration_moving_on_is_running() {
        let before = vec![entry("a.md", 1, false), entry("archive/x.md", 3, true)];
        assert_eq!(
            LocationChange::between(&before, &before.clone(), true),
            LocationChange::None
        );
        let moved = vec![entry("a.md", 2, false), before[1].clone()];
        match LocationChange::between(&before, &moved, true) {
            LocationChange::Running(was) => {
                assert_eq!(was.len(), 1);
                assert!(Arc::ptr_eq(&was[0], before[0].1.as_ref().unwrap()));
            }
            other => panic!("{other:?}"),
        }
        // Another newest finished one, an archived one rewritten, a file
        // come, a problem come: which row shows what may change.
        assert_eq!(
            LocationChange::between(&before, &moved, false),
            LocationChange::Other
        );
        let rewritten = vec![before[0].clone(), entry("archive/x.md", 4, true)];
        assert_eq!(
            LocationChange::between(&before, &rewritten, true),
            LocationChange::Other
        );
        let more = vec![moved[0].clone(), moved[1].clone(), entry("b.md", 1, false)];
        assert_eq!(
            LocationChange::between(&before, &more, true),
            LocationChange::Other
        );
        let mut broken = moved.clone();
        broken[0].2 = Some("is not valid YAML".into());
        assert_eq!(
            LocationChange::between(&before, &broken, true),
            LocationChange::Other
        );
        let finished = vec![entry("a.md", 2, true), before[1].clone()];
        assert_eq!(
            LocationChange::between(&before, &finished, true),
            LocationChange::Other
        );
    }
}
