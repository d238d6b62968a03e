//! Snoozes: "not now" from the operator, until a time or until something
//! new happens. A greenroom session keeps its snooze in its sidecar;
//! Maestro's, Agent Orchestrator's and hand-started agents' rows (whose
//! files greenroom never writes; the last by their pane) keep theirs in
//! greenroom's own small state file, `.snoozes.json`
//! in the sidecar folder (a hidden name, so it is never read as a sidecar,
//! and watched with the folder): `{"version": 1, "snoozes": {ROW_ID: SNOOZE}}`.

use std::collections::BTreeMap;
use std::path::Path;

use chrono::{DateTime, Utc};

use super::keyed_store::{KeyedStore, Kind};
use super::sidecar::SidecarError;

/// The state file's name in the sidecar folder.
pub const SNOOZE_FILE: &str = ".snoozes.json";

const KIND: Kind = Kind {
    file: SNOOZE_FILE,
    field: "snoozes",
    noun: "snooze file",
    // More than this many snoozes in the file is not greenroom's writing.
    max: 10_000,
};

pub use crate::model::Snooze;

/// greenroom's state file of snoozes for the rows it does not own.
#[derive(Debug, Clone)]
pub struct SnoozeStore(KeyedStore<Snooze>);

impl SnoozeStore {
    pub fn new(sidecar_dir: &Path) -> Self {
        Self(KeyedStore::new(sidecar_dir, &KIND))
    }

    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// The snoozes; a missing file is none, a bad one is the reason.
    pub fn load(&self) -> Result<BTreeMap<String, Snooze>, String> {
        self.0.load()
    }

    /// Sets (Some) or removes (None) one row's snooze, dropping those that
    /// ran out. The file is replaced atomically; a bad file is replaced
    /// rather than kept, since it holds nothing but snoozes.
    pub fn set(
        &self,
        id: &str,
        snooze: Option<Snooze>,
        now: DateTime<Utc>,
    ) -> Result<(), SidecarError> {
        self.0.update(|snoozes| {
            snoozes.retain(|_, s| s.until > now);
            match snooze {
                Some(s) => snoozes.insert(id.to_owned(), s),
                None => snoozes.remove(id),
            };
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Health;

    #[test]
    fn set_and_clear_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let store = SnoozeStore::new(dir.path());
        let now = Utc::now();
        let s = Snooze {
            until: now + chrono::TimeDelta::minutes(30),
            at: now,
            health: Health::Waiting,
        };
        store.set("ao-1", Some(s), now).unwrap();
        assert_eq!(store.load().unwrap().get("ao-1"), Some(&s));
        store.set("ao-1", None, now).unwrap();
        assert!(store.load().unwrap().is_empty());
    }

    #[test]
    fn a_bad_file_is_a_reason_and_is_replaced_on_the_next_set() {
        let dir = tempfile::tempdir().unwrap();
        let store = SnoozeStore::new(dir.path());
        std::fs::write(store.path(), "{not json").unwrap();
        assert!(
            store
                .load()
                .unwrap_err()
                .contains("not a valid snooze file")
        );
        store.set("x", None, Utc::now()).unwrap();
        assert!(store.load().unwrap().is_empty());
    }
}
