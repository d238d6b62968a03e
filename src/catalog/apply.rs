//! Applying one changed path to the catalog: only the file that changed is
//! read again (or, for a folder that appeared or vanished, that folder).

use std::path::{Path, PathBuf};

use super::maestro_state::LocationChange;
use super::own::OwnPath;
use super::{Catalog, sidecar_cwds};
use crate::sources::sidecar;

/// How far one applied change reaches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Applied {
    /// Nothing the catalog shows changed.
    Unchanged,
    /// Only the rows of these live records (their sidecars' paths) may be
    /// new ([`Catalog::rows_of`]): one of greenroom's records changed and
    /// nothing read beside it (no problem cleared, no folder or transcript
    /// to follow), or a running orchestration moved on that only these
    /// records show.
    Records(Vec<PathBuf>),
    /// Anything else that changed: the rows are built again.
    Other,
}

impl From<bool> for Applied {
    fn from(changed: bool) -> Self {
        if changed {
            Applied::Other
        } else {
            Applied::Unchanged
        }
    }
}

impl Catalog {
    /// Applies one changed path: re-reads just that file (or, for a folder
    /// that appeared or vanished, just that folder). Returns whether what the
    /// catalog shows changed, so the caller redraws only then.
    pub fn apply(&mut self, path: &Path) -> bool {
        self.apply_path(path) != Applied::Unchanged
    }

    /// [`Self::apply`], saying how far the change reaches.
    pub fn apply_path(&mut self, path: &Path) -> Applied {
        match self.own.claims(path) {
            Some(OwnPath::Record { archived: false }) => return self.apply_sidecar(path, false),
            Some(OwnPath::Snoozes) => return Applied::from(self.read_snoozes()),
            Some(OwnPath::Looks) => return Applied::from(self.read_looks()),
            Some(OwnPath::Record { archived: true }) if !self.own.follow_archive => {
                return Applied::Unchanged;
            }
            Some(OwnPath::Record { archived: true }) => return self.apply_sidecar(path, true),
            Some(OwnPath::Folder) | None => {}
        }
        if self.adopted.claims(path) {
            let changed = self
                .adopted
                .apply(path, &mut self.problems, &mut self.usage);
            return Applied::from(changed);
        }
        if self.registry.claims(path) {
            let changed = self
                .registry
                .apply(path, &mut self.problems, &mut self.usage);
            return Applied::from(changed);
        }
        if self.own.claims(path) == Some(OwnPath::Folder) {
            return Applied::from(self.rescan_sidecars());
        }
        if let Some(loc) = self.maestro.location_of(path) {
            return match self.maestro.reread_location(&loc, &mut self.problems) {
                LocationChange::None => Applied::Unchanged,
                LocationChange::Running(before) => self
                    .shown_by(&before)
                    .map_or(Applied::Other, Applied::Records),
                LocationChange::Other => Applied::Other,
            };
        }
        if let Some(changed) = self.usage.transcripts.apply(path) {
            return Applied::from(changed);
        }
        // A new rollout may be a hand-started Codex's and a waiting
        // session's folder's both: each side looks.
        let hand = self.usage.apply_codex_hand(path);
        let spawned = self.usage.apply_codex(path);
        if hand.is_some() || spawned.is_some() {
            return Applied::from(hand == Some(true) || spawned == Some(true));
        }
        if let Some(changed) = self.usage.apply_opencode(path) {
            return Applied::from(changed);
        }
        // What is left of Maestro's: its hooks' records.
        if self.maestro.claims(path) {
            return Applied::from(self.apply_hook_state(path));
        }
        if self.ao.claims(path) {
            return Applied::from(self.ao.apply(path, &mut self.problems));
        }
        Applied::Unchanged
    }

    /// Reads greenroom's snooze file again; a bad one is a problem and
    /// snoozes nothing.
    pub(super) fn read_snoozes(&mut self) -> bool {
        let store = crate::sources::snooze::SnoozeStore::new(self.own.store.dir());
        let path = store.path().to_path_buf();
        let snoozes = match store.load() {
            Ok(s) => {
                self.problems.remove(&path);
                s
            }
            Err(e) => {
                self.problems.insert(path, e);
                Default::default()
            }
        };
        let changed = snoozes != self.own.snoozes;
        self.own.snoozes = snoozes;
        changed
    }

    /// Reads greenroom's looks file again; a bad one is a problem and
    /// records no look (those rows may read ready until the next look).
    pub(super) fn read_looks(&mut self) -> bool {
        let store = crate::sources::looks::LooksStore::new(self.own.store.dir());
        let path = store.path().to_path_buf();
        let looks = match store.load() {
            Ok(l) => {
                self.problems.remove(&path);
                l
            }
            Err(e) => {
                self.problems.insert(path, e);
                Default::default()
            }
        };
        let changed = looks != self.own.looks;
        self.own.looks = looks;
        changed
    }

    fn apply_sidecar(&mut self, path: &Path, archived: bool) -> Applied {
        let map = if archived {
            &mut self.own.archived
        } else {
            &mut self.own.sidecars
        };
        if std::fs::symlink_metadata(path).is_err() {
            let had_problem = self.problems.remove(path).is_some();
            let removed = map.remove(path);
            // Deleted, and not moved to (or from) the archive: its
            // transcripts are no longer followed.
            if let Some(s) = &removed
                && !self.own.holds(s.id)
            {
                self.usage.forget(s.id);
            }
            return Applied::from(removed.is_some() || had_problem);
        }
        match sidecar::read_sidecar_file(path) {
            Ok(s) => {
                let had_problem = self.problems.remove(path).is_some();
                let changed = map.get(path) != Some(&s);
                let cwds: Vec<PathBuf> = sidecar_cwds(&s).map(ToOwned::to_owned).collect();
                let agent_id = s.agent_session_id.clone();
                // Archived sessions keep their spend: their transcripts are followed too.
                let tracked = self.usage.on && self.usage.track(&s);
                map.insert(path.to_path_buf(), s);
                let mut new_state = false;
                for cwd in cwds {
                    new_state |= self.maestro.add_workspace(&cwd, &mut self.problems);
                }
                if let Some(id) = agent_id {
                    new_state |= self.maestro.refresh_active_agent(&id);
                }
                if had_problem || new_state || tracked || (changed && archived) {
                    Applied::Other
                } else if changed {
                    Applied::Records(vec![path.to_path_buf()])
                } else {
                    Applied::Unchanged
                }
            }
            // The last good record stays on screen, with the problem beside it.
            Err(p) => Applied::from(
                self.problems.insert(p.path, p.error.clone()).as_ref() != Some(&p.error),
            ),
        }
    }

    fn rescan_sidecars(&mut self) -> bool {
        let (live, problems) = self.own.store.load_all();
        let before = std::mem::take(&mut self.own.sidecars);
        let dir = self.own.store.dir().to_path_buf();
        self.problems
            .retain(|p, _| p.parent() != Some(dir.as_path()));
        self.add_problems(problems);
        for s in live {
            let path = self.own.store.path_for(s.id);
            for cwd in sidecar_cwds(&s).map(ToOwned::to_owned).collect::<Vec<_>>() {
                self.maestro.add_workspace(&cwd, &mut self.problems);
            }
            self.own.sidecars.insert(path, s);
        }
        before != self.own.sidecars
    }

    fn apply_hook_state(&mut self, path: &Path) -> bool {
        let Some(rel) = self
            .maestro
            .hooks_dirs()
            .find_map(|d| path.strip_prefix(d).ok())
        else {
            return false;
        };
        let Some(id) = rel.components().next() else {
            // The hooks folder itself appeared or vanished: look again for
            // every session that has an agent id.
            let ids: Vec<String> = self
                .own
                .sidecars
                .values()
                .filter_map(|s| s.agent_session_id.clone())
                .collect();
            let mut changed = false;
            for id in ids {
                changed |= self.maestro.refresh_active_agent(&id);
            }
            return changed;
        };
        let id = id.as_os_str().to_string_lossy().into_owned();
        let known = self
            .own
            .sidecars
            .values()
            .any(|s| s.agent_session_id.as_deref() == Some(id.as_str()));
        known && self.maestro.refresh_active_agent(&id)
    }
}
