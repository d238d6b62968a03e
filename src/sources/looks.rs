//! When the operator last looked at a row greenroom does not own: a
//! hand-started agent's pane, a Maestro or Agent Orchestrator session.
//! greenroom's own sessions keep it in their sidecar (`last_focused_at`);
//! these keep it in greenroom's own small state file, `.looks.json` in the
//! sidecar folder (a hidden name, never read as a sidecar, watched with the
//! folder), so a restart of the dashboard does not make every finished
//! turn "ready" again: `{"version": 1, "looks": {ROW_ID: TIME}}`.

use std::collections::BTreeMap;
use std::path::Path;

use chrono::{DateTime, Utc};

use super::keyed_store::{KeyedStore, Kind};
use super::sidecar::SidecarError;

/// The state file's name in the sidecar folder.
pub const LOOKS_FILE: &str = ".looks.json";
/// The most looks the file keeps: the oldest go first. More than this in a
/// file is not greenroom's writing.
pub const MAX_LOOKS: usize = 2_000;

const KIND: Kind = Kind {
    file: LOOKS_FILE,
    field: "looks",
    noun: "looks file",
    max: MAX_LOOKS,
};

/// When the operator last looked at each row, by row id.
pub type Looks = BTreeMap<String, DateTime<Utc>>;

/// greenroom's state file of looks at the rows it does not own.
#[derive(Debug, Clone)]
pub struct LooksStore(KeyedStore<DateTime<Utc>>);

impl LooksStore {
    pub fn new(sidecar_dir: &Path) -> Self {
        Self(KeyedStore::new(sidecar_dir, &KIND))
    }

    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// The looks; a missing file is none, a bad one is the reason.
    pub fn load(&self) -> Result<Looks, String> {
        self.0.load()
    }

    /// Records a look at one row, keeping the newest [`MAX_LOOKS`]. The
    /// file is replaced atomically; a bad file is replaced rather than kept,
    /// since it holds nothing but looks.
    pub fn record(&self, id: &str, at: DateTime<Utc>) -> Result<(), SidecarError> {
        self.0.update(|looks| {
            let newer = looks.get(id).is_none_or(|was| at > *was);
            if newer {
                looks.insert(id.to_owned(), at);
            }
            keep_newest(looks);
        })
    }
}

/// Drops the oldest looks past [`MAX_LOOKS`]: a row looked at that long
/// ago is long gone or long seen.
fn keep_newest(looks: &mut Looks) {
    if looks.len() <= MAX_LOOKS {
        return;
    }
    let mut times: Vec<DateTime<Utc>> = looks.values().copied().collect();
    times.sort_unstable_by(|a, b| b.cmp(a));
    let cut = times[MAX_LOOKS - 1];
    looks.retain(|_, at| *at >= cut);
    // Ties at the cut: drop by id until the bound holds.
    while looks.len() > MAX_LOOKS {
        let Some(id) = looks
            .iter()
            .find(|(_, at)| **at == cut)
            .map(|(id, _)| id.clone())
        else {
            break;
        };
        looks.remove(&id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_look_round_trips_and_only_a_newer_one_replaces_it() {
        let dir = tempfile::tempdir().unwrap();
        let store = LooksStore::new(dir.path());
        let now = Utc::now();
        store.record("%3", now).unwrap();
        assert_eq!(store.load().unwrap().get("%3"), Some(&now));
        store
            .record("%3", now - chrono::TimeDelta::minutes(1))
            .unwrap();
        assert_eq!(store.load().unwrap().get("%3"), Some(&now));
    }

    #[test]
    fn the_file_keeps_the_newest_looks_only() {
        let dir = tempfile::tempdir().unwrap();
        let store = LooksStore::new(dir.path());
        let t0 = Utc::now();
        let mut looks = Looks::new();
        for n in 0..MAX_LOOKS {
            looks.insert(
                format!("row-{n}"),
                t0 + chrono::TimeDelta::seconds(n as i64),
            );
        }
        let text = serde_json::json!({"version": 1, "looks": looks}).to_string();
        std::fs::write(store.path(), text).unwrap();
        store
            .record("new", t0 + chrono::TimeDelta::days(1))
            .unwrap();
        let looks = store.load().unwrap();
        assert_eq!(looks.len(), MAX_LOOKS);
        assert!(looks.contains_key("new"));
        assert!(!looks.contains_key("row-0"), "the oldest went");
    }

    #[test]
    fn a_bad_file_is_a_reason_and_is_replaced_on_the_next_look() {
        let dir = tempfile::tempdir().unwrap();
        let store = LooksStore::new(dir.path());
        std::fs::write(store.path(), "{not json").unwrap();
        assert!(store.load().unwrap_err().contains("not a valid looks file"));
        store.record("x", Utc::now()).unwrap();
        assert_eq!(store.load().unwrap().len(), 1);
    }
}
