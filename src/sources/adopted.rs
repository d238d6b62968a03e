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
use crate::tmux::PaneId;

/// The folder beside the sidecars where adopted records live.
pub const ADOPTED_DIR: &str = "adopted";
/// Metadata: the pane (`%12`) the agent runs in.
pub const PANE_KEY: &str = "tmux_pane";
/// Metadata: the socket of the tmux server the pane belongs to (`$TMUX`'s
/// first field): pane ids are unique only within one server.
pub const SERVER_KEY: &str = "tmux_server";

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
}
