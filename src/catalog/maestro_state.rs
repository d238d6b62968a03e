//! Maestro state in the catalog: the workspaces sessions run in, their
//! state folders (read in parallel at start-up), and the agent Maestro's
//! hooks name as working now.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{ACTIVE_SESSION_FILE, Catalog, rows};
use crate::model::{Orchestration, Problem};
use crate::sources::maestro::{self, StateLocation};

impl Catalog {
    /// Registers a session folder; reads its Maestro state the first time.
    /// Returns whether anything new was read.
    pub(super) fn add_workspace(&mut self, cwd: &Path) -> bool {
        if self.workspaces.contains_key(cwd) {
            return false;
        }
        let loc = maestro::location_for_workspace(cwd, &self.config.maestro_state_dir);
        self.workspaces.insert(
            cwd.to_path_buf(),
            loc.state_folder.join(ACTIVE_SESSION_FILE),
        );
        self.add_location(loc)
    }

    pub(super) fn add_location(&mut self, loc: StateLocation) -> bool {
        if self.locations.contains_key(&loc.state_folder) {
            return false;
        }
        let changed = self.read_location(&loc);
        self.locations.insert(loc.state_folder.clone(), loc);
        changed
    }

    /// (Re)reads one state folder: what it holds replaces what it held.
    /// Returns whether the states or problems there changed.
    pub(super) fn read_location(&mut self, loc: &StateLocation) -> bool {
        let read = maestro::read_location(loc, self.include_archive);
        self.install_location(loc, read)
    }

    /// Puts what one state folder holds in place of what it held.
    pub(super) fn install_location(
        &mut self,
        loc: &StateLocation,
        (states, problems): (Vec<Orchestration>, Vec<Problem>),
    ) -> bool {
        let folder = loc.state_folder.clone();
        // Only this folder's entries are touched: the index says which they are.
        let mut before = Vec::new();
        for path in self.folder_paths.remove(&folder).unwrap_or_default() {
            let state = self.maestro.remove(&path);
            let problem = self.problems.remove(&path);
            before.push((path, state, problem));
        }
        let mut paths: Vec<PathBuf> = Vec::with_capacity(states.len() + problems.len());
        for p in problems {
            paths.push(p.path.clone());
            self.problems.insert(p.path, p.error);
        }
        for o in states {
            paths.push(o.path.clone());
            self.maestro.insert(o.path.clone(), Arc::new(o));
        }
        paths.sort();
        paths.dedup();
        let after: Vec<_> = paths
            .iter()
            .map(|p| {
                (
                    p.clone(),
                    self.maestro.get(p).cloned(),
                    self.problems.get(p).cloned(),
                )
            })
            .collect();
        before.sort_by(|a, b| a.0.cmp(&b.0));
        let changed = before != after;
        let newest = paths
            .iter()
            .filter_map(|p| self.maestro.get(p))
            .filter(|o| o.archived)
            .max_by(|a, b| {
                let updated = |o: &Orchestration| o.updated.as_deref().and_then(rows::parse_time);
                updated(a)
                    .cmp(&updated(b))
                    .then_with(|| a.path.cmp(&b.path))
            })
            .map(|o| o.path.clone());
        match newest {
            Some(path) => self.finished.insert(folder.clone(), path),
            None => self.finished.remove(&folder),
        };
        self.folder_paths.insert(folder, paths);
        changed
    }

    /// Where Maestro's hooks record the working agent: the configured (or
    /// per-user default) folder first, then Maestro 1.4.0's own default.
    pub(super) fn hooks_dirs(&self) -> impl Iterator<Item = &PathBuf> {
        let main = &self.config.maestro_hooks_dir;
        std::iter::once(main).chain(
            self.config
                .maestro_hooks_legacy
                .iter()
                .filter(move |l| *l != main),
        )
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

type LocationRead = (Vec<Orchestration>, Vec<Problem>);

/// Reads state folders on every core; results come back in input order.
pub(super) fn read_locations_parallel(
    locations: Vec<StateLocation>,
    include_archive: bool,
) -> Vec<(StateLocation, LocationRead)> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8);
    if threads < 2 || locations.len() < 64 {
        return locations
            .into_iter()
            .map(|l| {
                let read = maestro::read_location(&l, include_archive);
                (l, read)
            })
            .collect();
    }
    let chunk = locations.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = locations
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|l| (l.clone(), maestro::read_location(l, include_archive)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| {
                // A reader that panicked is a bug; its folders are simply not shown.
                h.join().unwrap_or_default()
            })
            .collect()
    })
}
