//! Greenroom's own records: the sidecars it wrote for the sessions it
//! started, the archived ones once asked for, and the snoozes the operator
//! set on rows greenroom does not own.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::sources::sidecar::{Sidecar, SidecarStore};
use crate::sources::snooze::Snooze;

#[derive(Debug)]
pub(super) struct Own {
    pub(super) store: SidecarStore,
    /// Live records, by file.
    pub(super) sidecars: BTreeMap<PathBuf, Sidecar>,
    /// Archived records, by their real file.
    pub(super) archived: BTreeMap<PathBuf, Sidecar>,
    /// Archived sidecars are read and followed (with `include_archive`, or
    /// after [`super::Catalog::follow_sidecar_archive`]).
    pub(super) follow_archive: bool,
    /// Snoozes of the rows greenroom does not own (Maestro, AO), by row id.
    pub(super) snoozes: BTreeMap<String, Snooze>,
}

impl Own {
    pub(super) fn new(store: SidecarStore) -> Self {
        Own {
            store,
            sidecars: BTreeMap::new(),
            archived: BTreeMap::new(),
            follow_archive: false,
            snoozes: BTreeMap::new(),
        }
    }
}
