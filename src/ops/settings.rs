//! What starting and restoring sessions read from the settings. `config`
//! builds it (ops does not know `Config`).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::PathBuf;

use crate::model::AgentPreset;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launching {
    pub sidecar_dir: PathBuf,
    /// Default session names are `<name_prefix>-<n>`.
    pub name_prefix: String,
    pub agents: BTreeMap<String, AgentPreset>,
    /// `$PATH` and `$HOME`, where a preset's program is looked for.
    pub path: Option<OsString>,
    pub home: Option<PathBuf>,
}
