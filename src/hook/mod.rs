//! Agent hooks: `greenroom report` (payload -> sidecar) and
//! `greenroom hooks install|uninstall` (agent settings files).

pub mod install;
pub mod report;
