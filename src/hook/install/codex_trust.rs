//! Whether Codex will run greenroom's hooks once they are in hooks.json.
//!
//! Codex runs a hook that is not managed by an administrator only once the
//! operator trusted that exact hook in its `/hooks` view; it records the
//! trust in `$CODEX_HOME/config.toml` under `[hooks.state."<key>"]` as a
//! hash of the hook, and skips a new or changed hook without a word
//! (codex-rs/hooks/src/engine/discovery.rs, `hook_trust_status`). The hash
//! is Codex's to compute, so greenroom only reads whether trust is
//! recorded, and says what the operator must do.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{CODEX_EVENTS, is_greenroom_command};
use crate::sources::codex_config::{self, CodexHookConfig};

/// What Codex will do with greenroom's hooks, most blocking first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// `[features] hooks = false` in the config file.
    HooksOff,
    /// Project hooks, in a folder Codex was not told to trust.
    ProjectUntrusted(PathBuf),
    /// This many of greenroom's hooks are turned off in `/hooks`.
    Disabled(usize),
    /// This many are new, changed or never trusted.
    Pending(usize),
    Trusted,
    /// The config file could not be read: why.
    Unknown(String),
}

/// Where Codex's own config file is: beside the user's hooks.json.
pub fn config_path(codex_home: &Path) -> PathBuf {
    codex_home.join("config.toml")
}

/// The verdict for the hooks.json at `hooks_path` holding `hooks_text`;
/// `changed` says greenroom's entries were just written anew (trust given
/// to what stood there before no longer holds). `project` is the folder of
/// a project-scope install.
pub fn verdict(
    hooks_path: &Path,
    hooks_text: &str,
    changed: bool,
    config: &Path,
    project: Option<&Path>,
) -> Verdict {
    let settings = match codex_config::read(config) {
        Ok(s) => s,
        Err(reason) => return Verdict::Unknown(reason),
    };
    judge(
        &settings,
        &hook_keys(hooks_path, hooks_text),
        changed,
        project,
    )
}

fn judge(
    settings: &CodexHookConfig,
    keys: &[String],
    changed: bool,
    project: Option<&Path>,
) -> Verdict {
    if settings.hooks_off {
        return Verdict::HooksOff;
    }
    if let Some(folder) = project.filter(|p| !settings.project_trusted(p)) {
        return Verdict::ProjectUntrusted(folder.to_path_buf());
    }
    let state = |k: &String| settings.states.get(k).cloned().unwrap_or_default();
    let disabled = keys.iter().filter(|k| state(k).disabled).count();
    if disabled > 0 {
        return Verdict::Disabled(disabled);
    }
    let pending = match changed {
        true => keys.len(),
        false => keys.iter().filter(|k| !state(k).trusted).count(),
    };
    match pending {
        0 => Verdict::Trusted,
        n => Verdict::Pending(n),
    }
}

/// The one line `hooks install` prints about it.
pub fn line(verdict: &Verdict, config: &Path) -> String {
    let config = config.display();
    match verdict {
        Verdict::HooksOff => format!(
            "Codex will not run them: its hooks are turned off in {config} ([features] hooks = false)"
        ),
        Verdict::ProjectUntrusted(folder) => format!(
            "Codex will not run them until you trust {}: it reads a project's .codex/ only in a trusted project (it asks when it starts there)",
            folder.display()
        ),
        Verdict::Disabled(n) => format!(
            "Codex will not run {n} of them: they are disabled in Codex's /hooks; enable them there"
        ),
        Verdict::Pending(n) => format!(
            "Codex will not run them until you trust them: start codex, type /hooks and trust greenroom's {n} hooks there"
        ),
        Verdict::Trusted => "Codex will run them: you trusted them in its /hooks".into(),
        Verdict::Unknown(reason) => {
            format!("cannot tell whether Codex will run them: {config} {reason}")
        }
    }
}

/// Codex's key for each of greenroom's hooks in the file:
/// `<hooks.json path>:<event in snake case>:<group index>:<hook index>`
/// (`hook_key` in codex-rs/hooks/src/lib.rs). Codex resolves its home
/// folder, so the path is the folder's real one where it can be found.
pub fn hook_keys(hooks_path: &Path, hooks_text: &str) -> Vec<String> {
    let Ok(root) = serde_json::from_str::<Value>(hooks_text.trim_start_matches('\u{feff}')) else {
        return Vec::new();
    };
    let source = hooks_path
        .parent()
        .and_then(|d| std::fs::canonicalize(d).ok())
        .zip(hooks_path.file_name())
        .map_or_else(|| hooks_path.to_path_buf(), |(d, f)| d.join(f));
    let mut keys = Vec::new();
    for &event in CODEX_EVENTS {
        let groups = root
            .get("hooks")
            .and_then(|h| h.get(event))
            .and_then(Value::as_array);
        for (g, group) in groups.into_iter().flatten().enumerate() {
            let hooks = group.get("hooks").and_then(Value::as_array);
            for (h, hook) in hooks.into_iter().flatten().enumerate() {
                let command = hook.get("command").and_then(Value::as_str);
                if command.is_some_and(is_greenroom_command) {
                    keys.push(format!("{}:{}:{g}:{h}", source.display(), snake(event)));
                }
            }
        }
    }
    keys
}

/// `PermissionRequest` -> `permission_request` (`hook_event_key_label`).
fn snake(event: &str) -> String {
    let mut out = String::new();
    for (i, c) in event.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const FILE: &str = r#"{"hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "say done"}]},
                 {"hooks": [{"type": "command", "command": "/bin/greenroom report"}]}],
        "PermissionRequest": [{"matcher": "*", "hooks": [
            {"type": "command", "command": "audit"},
            {"type": "command", "command": "/bin/greenroom report"}]}]
    }}"#;

    #[test]
    fn keys_are_codex_s_own() {
        let keys = hook_keys(Path::new("/no/such/home/hooks.json"), FILE);
        assert_eq!(
            keys,
            [
                "/no/such/home/hooks.json:permission_request:0:1",
                "/no/such/home/hooks.json:stop:1:0"
            ]
        );
    }

    #[test]
    fn verdicts_go_from_most_blocking() {
        let keys = vec!["a".to_owned(), "b".to_owned()];
        let toml = |t: &str| codex_config::parse(t).unwrap();
        let trusted =
            "[hooks.state.a]\ntrusted_hash = \"x\"\n[hooks.state.b]\ntrusted_hash = \"y\"\n";
        assert_eq!(judge(&toml(""), &keys, false, None), Verdict::Pending(2));
        assert_eq!(judge(&toml(trusted), &keys, false, None), Verdict::Trusted);
        assert_eq!(
            judge(&toml(trusted), &keys, true, None),
            Verdict::Pending(2)
        );
        let disabled = format!("{trusted}enabled = false\n");
        assert_eq!(
            judge(&toml(&disabled), &keys, false, None),
            Verdict::Disabled(1)
        );
        let off = format!("[features]\nhooks = false\n{trusted}");
        assert!(matches!(
            judge(&toml(&off), &keys, false, None),
            Verdict::HooksOff
        ));
        let project = Path::new("/work/app");
        assert_eq!(
            judge(&toml(trusted), &keys, false, Some(project)),
            Verdict::ProjectUntrusted(project.to_path_buf())
        );
        let with_project = format!("{trusted}[projects.\"/work\"]\ntrust_level = \"trusted\"\n");
        assert_eq!(
            judge(&toml(&with_project), &keys, false, Some(project)),
            Verdict::Trusted
        );
    }
}
