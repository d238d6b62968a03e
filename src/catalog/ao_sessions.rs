//! Agent Orchestrator's sessions in the catalog, by file.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::sources::ao::AoSession;

#[derive(Debug, Default)]
pub(super) struct AoSessions {
    pub(super) sessions: BTreeMap<PathBuf, AoSession>,
}
