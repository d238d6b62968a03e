//! Records of agents greenroom did not start, written by their hooks
//! (`greenroom report` run in a tmux pane without `GREENROOM_SESSION_ID`).
//!
//! They are sidecars in their own folder, `<sidecar dir>/adopted/`, so
//! they get the same atomic writes, locks and limits; they are marked
//! adopted, are never restored or dismissed, and name their pane (and its
//! server) instead of a tmux session. One record per pane: another agent
//! session in the same pane (the agent restarted, or a different agent)
//! replaces what the record said.

use std::path::{Path, PathBuf};

use uuid::Uuid;

use super::sidecar::Sidecar;
use crate::model::PaneId;

/// The folder beside the sidecars where adopted records live.
pub const ADOPTED_DIR: &str = "adopted";
/// Metadata: the pane (`%12`) the agent runs in.
pub const PANE_KEY: &str = "tmux_pane";
/// Metadata: the socket of the tmux server the pane belongs to (`$TMUX`'s
/// first field): pane ids are unique only within one server.
pub const SERVER_KEY: &str = "tmux_server";
/// Metadata: the pids of the process that wrote the last report and of its
/// ancestors, nearest first, space-separated. `TMUX_PANE` is only what the
/// reporter's environment says; the catalog believes it when the pane's
/// own process is among these (the reporter runs inside that pane).
pub const REPORTER_KEY: &str = "reported_from";

/// The metadata value for a reporter's ancestry.
pub fn reporter_text(pids: &[u32]) -> String {
    let words: Vec<String> = pids.iter().map(u32::to_string).collect();
    words.join(" ")
}

/// The reporter's ancestry an adopted record holds: at most
/// [`procs::MAX_ANCESTRY`](super::procs::MAX_ANCESTRY) pids, whatever the
/// file says; empty when it holds none (a record from an older greenroom).
pub fn reporter_of(s: &Sidecar) -> Vec<u32> {
    s.metadata
        .get(REPORTER_KEY)
        .map(|text| {
            text.split(' ')
                .take(super::procs::MAX_ANCESTRY)
                .filter_map(|w| w.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

pub fn adopted_dir(sidecar_dir: &Path) -> PathBuf {
    sidecar_dir.join(ADOPTED_DIR)
}

/// The record's id for a pane of a server: the same pane always has the
/// same file, whichever hook reports first.
pub fn record_id(server: &str, pane: &PaneId) -> Uuid {
    // FNV-1a: stable across builds (std's hasher is not promised to be).
    fn fnv(seed: u64, bytes: &[u8]) -> u64 {
        bytes.iter().fold(seed, |h, b| {
            (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
    }
    let key = format!("{server}\0{}", pane.as_str());
    let high = fnv(0xcbf2_9ce4_8422_2325, key.as_bytes());
    let low = fnv(0x8422_2325_cbf2_9ce4, key.as_bytes());
    uuid::Builder::from_custom_bytes(((u128::from(high) << 64) | u128::from(low)).to_be_bytes())
        .into_uuid()
}

/// The pane an adopted record names, if it names a valid one.
pub fn pane_of(s: &Sidecar) -> Option<PaneId> {
    s.metadata.get(PANE_KEY).and_then(|p| PaneId::parse(p))
}

/// The server socket an adopted record names.
pub fn server_of(s: &Sidecar) -> Option<&str> {
    s.metadata.get(SERVER_KEY).map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_id_per_pane_and_server() {
        let p = |s| PaneId::parse(s).unwrap();
        let a = record_id("/tmp/tmux-1000/default", &p("%1"));
        assert_eq!(a, record_id("/tmp/tmux-1000/default", &p("%1")));
        assert_ne!(a, record_id("/tmp/tmux-1000/default", &p("%10")));
        assert_ne!(a, record_id("/tmp/tmux-1000/other", &p("%1")));
    }

    #[test]
    fn a_reporters_ancestry_is_read_back_bounded() {
        let mut s = Sidecar::new("claude", Path::new("/w"), "", chrono::Utc::now());
        assert!(reporter_of(&s).is_empty());
        s.metadata
            .insert(REPORTER_KEY.into(), reporter_text(&[42, 7, 1]));
        assert_eq!(reporter_of(&s), [42, 7, 1]);
        s.metadata.insert(REPORTER_KEY.into(), "9 x -1  3".into());
        assert_eq!(reporter_of(&s), [9, 3]);
        s.metadata
            .insert(REPORTER_KEY.into(), reporter_text(&vec![5; 1000]));
        assert_eq!(reporter_of(&s).len(), crate::sources::procs::MAX_ANCESTRY);
    }
}
