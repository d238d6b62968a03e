//! What Codex's own `$CODEX_HOME/config.toml` says about hooks: whether
//! hooks are on at all (`[features] hooks`, once `codex_hooks`), what the
//! operator decided about each hook in `/hooks` (`[hooks.state."<key>"]`:
//! `enabled`, `trusted_hash`), and which project folders they trusted
//! (`[projects."<path>"] trust_level`). Read only: greenroom never writes
//! Codex's trust, which is the operator's decision.
//!
//! Names from codex-rs/config/src/hook_config.rs (`HookStateToml`) and
//! codex-rs/hooks/src/config_rules.rs (`hook_states_from_stack`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use toml::{Table, Value};

use super::read_linked_text_file;

/// One hook's state as the operator left it in Codex's `/hooks`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HookState {
    /// `enabled = false`: the operator turned the hook off.
    pub disabled: bool,
    /// A `trusted_hash` is recorded: the operator trusted the hook as it
    /// was then (Codex compares the hash with the hook's current text).
    pub trusted: bool,
}

/// The parts of Codex's config.toml that decide whether a hook runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CodexHookConfig {
    /// `[features] hooks = false` (or the older `codex_hooks = false`).
    pub hooks_off: bool,
    /// By hook key (`<hooks.json path>:<event>:<group>:<handler>`).
    pub states: HashMap<String, HookState>,
    /// Project folders whose `trust_level` is `trusted`.
    pub trusted_projects: Vec<PathBuf>,
}

impl CodexHookConfig {
    /// Whether `folder`, or a folder it is in, is a trusted project.
    pub fn project_trusted(&self, folder: &Path) -> bool {
        self.trusted_projects.iter().any(|p| folder.starts_with(p))
    }
}

/// Reads `path`; a missing file is Codex's defaults (hooks on, nothing
/// trusted). The error is a reason to show the operator.
pub fn read(path: &Path) -> Result<CodexHookConfig, String> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(CodexHookConfig::default()),
        _ => parse(&read_linked_text_file(path)?),
    }
}

/// Parses config.toml's text; entries of another shape are skipped, as
/// Codex skips them.
pub fn parse(text: &str) -> Result<CodexHookConfig, String> {
    let table: Table = toml::from_str(text).map_err(|e| {
        let first = e.message().lines().next().unwrap_or("").to_owned();
        format!("is not valid TOML ({first})")
    })?;
    let features = table.get("features").and_then(Value::as_table);
    let off = |key: &str| features.and_then(|f| f.get(key)).and_then(Value::as_bool) == Some(false);
    // The canonical key wins over the deprecated alias when both are set.
    let hooks_off = match features
        .and_then(|f| f.get("hooks"))
        .and_then(Value::as_bool)
    {
        Some(on) => !on,
        None => off("codex_hooks"),
    };
    Ok(CodexHookConfig {
        hooks_off,
        states: states(&table),
        trusted_projects: trusted_projects(&table),
    })
}

fn states(table: &Table) -> HashMap<String, HookState> {
    let Some(state) = table
        .get("hooks")
        .and_then(|h| h.get("state"))
        .and_then(Value::as_table)
    else {
        return HashMap::new();
    };
    state
        .iter()
        .filter_map(|(key, value)| {
            let value = value.as_table()?;
            let hook = HookState {
                disabled: value.get("enabled").and_then(Value::as_bool) == Some(false),
                trusted: value
                    .get("trusted_hash")
                    .and_then(Value::as_str)
                    .is_some_and(|h| !h.trim().is_empty()),
            };
            Some((key.trim().to_owned(), hook))
        })
        .collect()
}

fn trusted_projects(table: &Table) -> Vec<PathBuf> {
    let Some(projects) = table.get("projects").and_then(Value::as_table) else {
        return Vec::new();
    };
    projects
        .iter()
        .filter(|(_, v)| v.get("trust_level").and_then(Value::as_str) == Some("trusted"))
        .map(|(path, _)| PathBuf::from(path))
        .filter(|p| p.is_absolute())
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn states_features_and_projects_are_read() {
        let c = parse(
            r#"
model = "gpt-5"
[features]
codex_hooks = false
hooks = true
[hooks.state."/h/hooks.json:stop:0:0"]
trusted_hash = "sha256:abc"
[hooks.state."/h/hooks.json:pre_tool_use:1:0"]
enabled = false
[hooks.state.odd]
enabled = "no"
[projects."/work/app"]
trust_level = "trusted"
[projects."/work/other"]
trust_level = "untrusted"
"#,
        )
        .unwrap();
        assert!(!c.hooks_off, "the canonical key wins");
        let stop = &c.states["/h/hooks.json:stop:0:0"];
        assert!(stop.trusted && !stop.disabled);
        assert!(c.states["/h/hooks.json:pre_tool_use:1:0"].disabled);
        assert_eq!(c.states["odd"], HookState::default());
        assert!(c.project_trusted(Path::new("/work/app/sub")));
        assert!(!c.project_trusted(Path::new("/work/other")));
    }

    #[test]
    fn hooks_can_be_turned_off_by_either_key() {
        assert!(parse("[features]\nhooks = false\n").unwrap().hooks_off);
        assert!(
            parse("[features]\ncodex_hooks = false\n")
                .unwrap()
                .hooks_off
        );
        assert!(!parse("").unwrap().hooks_off);
    }

    #[test]
    fn a_file_that_is_not_toml_is_a_reason() {
        assert!(
            parse("[features\n")
                .unwrap_err()
                .starts_with("is not valid TOML")
        );
    }
}
