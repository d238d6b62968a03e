//! Being written by the hooks-install work; this placeholder only declares
//! the API so the rest of the crate compiles meanwhile.
#![allow(dead_code, unused_variables)]
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HookAgent {
    Claude,
    Gemini,
}
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum HookScope {
    #[default]
    User,
    Project,
}
#[derive(Debug)]
pub struct Outcome {
    pub path: PathBuf,
    pub backup: Option<PathBuf>,
    pub changed: bool,
    pub new_text: String,
}
pub fn settings_path(a: HookAgent, s: HookScope, home: &Path, c: Option<&Path>, p: &Path) -> PathBuf {
    home.join("settings.json")
}
pub fn hook_command(exe: &Path) -> String {
    format!("{} report", exe.display())
}
pub fn install(path: &Path, a: HookAgent, command: &str, dry_run: bool) -> Result<Outcome, String> {
    Err("not yet".into())
}
pub fn uninstall(path: &Path, a: HookAgent, dry_run: bool) -> Result<Outcome, String> {
    Err("not yet".into())
}
