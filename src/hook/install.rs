//! `greenroom hooks install|uninstall`: greenroom's entries in an agent's
//! hook settings (Claude Code's and Gemini CLI's settings.json, Codex's
//! hooks.json), merged in or taken out without disturbing anything else;
//! for OpenCode, which has plugins rather than hook settings, greenroom's
//! own plugin file (`opencode_plugin.rs`).
//!
//! The merge edits the text itself (`splice.rs`): greenroom's entries are
//! the only bytes that change, so the operator's values (numbers no float
//! holds, duplicate keys), line endings and indentation stay as written.
//! A file that does not parse, or whose `hooks` has a shape greenroom does
//! not expect, is refused rather than repaired.

pub mod codex_trust;
pub mod opencode_plugin;
mod settings_file;
mod splice;

use std::path::{Path, PathBuf};

pub use settings_file::{install, uninstall};

use serde_json::{Map, Value, json};

/// Claude Code and Codex count hook timeouts in seconds, Gemini CLI in
/// milliseconds.
const CLAUDE_TIMEOUT_SECS: u64 = 5;
const CODEX_TIMEOUT_SECS: u64 = 5;
/// Codex CLI 0.169.0 cuts a SessionEnd hook's timeout to 3 s, and warns at
/// every start when it had to.
const CODEX_SESSION_END_TIMEOUT_SECS: u64 = 3;
const GEMINI_TIMEOUT_MS: u64 = 5000;
/// Gemini CLI matches `hooksConfig.disabled` and `/hooks disable` on this.
const GEMINI_NAME: &str = "greenroom";

#[rustfmt::skip]
const CLAUDE_EVENTS: &[&str] = &[
    "SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure",
    "Notification", "PermissionRequest", "Stop", "StopFailure", "SubagentStart",
    "SubagentStop", "PreCompact", "SessionEnd",
];
#[rustfmt::skip]
const GEMINI_EVENTS: &[&str] = &[
    "SessionStart", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel",
    "BeforeToolSelection", "BeforeTool", "AfterTool", "PreCompress", "Notification", "SessionEnd",
];
/// Codex's events that say what its session does (`HookEventsToml` in
/// codex-rs/config/src/hook_config.rs; SessionEnd, which Codex CLI 0.169.0
/// sends when it ends, is newer than that file; its PreCompact and
/// PostCompact say nothing greenroom shows).
#[rustfmt::skip]
pub const CODEX_EVENTS: &[&str] = &[
    "SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse", "Stop",
    "SessionEnd",
];
/// OpenCode's bus events greenroom's plugin reports (`Event` in OpenCode
/// 1.18's SDK, `@opencode-ai/sdk` types.gen.d.ts); the plugin's own list
/// is kept the same by a test.
#[rustfmt::skip]
pub const OPENCODE_EVENTS: &[&str] = &[
    "session.created", "session.status", "session.idle", "session.error", "permission.asked",
    "permission.replied", "question.asked", "question.replied", "question.rejected",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HookAgent {
    Claude,
    Gemini,
    Codex,
    Opencode,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum HookScope {
    #[default]
    User,
    Project,
}

/// What an install or uninstall did (or, on a dry run, would do).
#[derive(Debug)]
pub struct Outcome {
    /// The file written: the link's target when the settings path is a link.
    pub path: PathBuf,
    pub backup: Option<PathBuf>,
    pub changed: bool,
    /// The merged settings; empty when uninstalling from a missing file.
    pub new_text: String,
}

/// claude user: `$CLAUDE_CONFIG_DIR/settings.json` if agent_dir given else
/// `<home>/.claude/settings.json`; gemini user: `<home>/.gemini/settings.json`
/// (the caller passes `GEMINI_CLI_HOME` as home when set, as Gemini CLI
/// reads it); codex user: `$CODEX_HOME/hooks.json` if agent_dir given else
/// `<home>/.codex/hooks.json`; opencode user: the plugin in
/// `$XDG_CONFIG_HOME/opencode` if agent_dir given else
/// `<home>/.config/opencode`; project scopes live in `<project>/.<agent>/`.
pub fn settings_path(
    agent: HookAgent,
    scope: HookScope,
    home: &Path,
    agent_dir: Option<&Path>,
    project: &Path,
) -> PathBuf {
    let user_dir = |name: &str| agent_dir.map_or_else(|| home.join(name), Path::to_path_buf);
    let dir = match (agent, scope) {
        (HookAgent::Claude, HookScope::User) => user_dir(".claude"),
        (HookAgent::Claude, HookScope::Project) => project.join(".claude"),
        (HookAgent::Gemini, HookScope::User) => home.join(".gemini"),
        (HookAgent::Gemini, HookScope::Project) => project.join(".gemini"),
        (HookAgent::Codex, HookScope::User) => user_dir(".codex"),
        (HookAgent::Codex, HookScope::Project) => project.join(".codex"),
        (HookAgent::Opencode, HookScope::User) => {
            agent_dir.map_or_else(|| home.join(".config/opencode"), Path::to_path_buf)
        }
        (HookAgent::Opencode, HookScope::Project) => project.join(".opencode"),
    };
    match agent {
        HookAgent::Opencode => opencode_plugin::plugin_path(&dir),
        HookAgent::Codex => dir.join("hooks.json"),
        HookAgent::Claude | HookAgent::Gemini => dir.join("settings.json"),
    }
}

/// The events greenroom hooks for an agent.
pub fn events(agent: HookAgent) -> &'static [&'static str] {
    match agent {
        HookAgent::Claude => CLAUDE_EVENTS,
        HookAgent::Gemini => GEMINI_EVENTS,
        HookAgent::Codex => CODEX_EVENTS,
        HookAgent::Opencode => OPENCODE_EVENTS,
    }
}

/// Installs greenroom's hooks running `exe report`: entries in a settings
/// file, or for OpenCode greenroom's plugin file.
pub fn install_hooks(
    path: &Path,
    agent: HookAgent,
    exe: &Path,
    dry_run: bool,
) -> Result<Outcome, String> {
    match agent {
        HookAgent::Opencode => opencode_plugin::install(path, exe, dry_run),
        _ => install(path, agent, &hook_command(exe), dry_run),
    }
}

/// Takes greenroom's hooks out again (see [`install_hooks`]).
pub fn uninstall_hooks(path: &Path, agent: HookAgent, dry_run: bool) -> Result<Outcome, String> {
    match agent {
        HookAgent::Opencode => opencode_plugin::uninstall(path, dry_run),
        _ => uninstall(path, agent, dry_run),
    }
}

/// Events whose matcher filters anything. Elsewhere a matcher is ignored
/// (Claude, Codex: `matcher_pattern_for_event` in codex-rs/hooks) or
/// compared as an exact string (Gemini), so none is written.
fn takes_matcher(agent: HookAgent, event: &str) -> bool {
    match agent {
        HookAgent::Claude => !matches!(event, "UserPromptSubmit" | "Stop"),
        HookAgent::Gemini => matches!(event, "BeforeTool" | "AfterTool"),
        HookAgent::Codex => matches!(
            event,
            "SessionStart" | "PreToolUse" | "PermissionRequest" | "PostToolUse"
        ),
        HookAgent::Opencode => false,
    }
}

/// The matcher group greenroom owns in one event's list.
fn greenroom_group(agent: HookAgent, event: &str, command: &str) -> Value {
    let hook = match agent {
        // OpenCode's hooks are a plugin, never settings entries: its arm
        // is here only because the match names every agent.
        HookAgent::Claude | HookAgent::Opencode => {
            json!({"type": "command", "command": command, "timeout": CLAUDE_TIMEOUT_SECS})
        }
        HookAgent::Codex => {
            let timeout = match event {
                "SessionEnd" => CODEX_SESSION_END_TIMEOUT_SECS,
                _ => CODEX_TIMEOUT_SECS,
            };
            json!({"type": "command", "command": command, "timeout": timeout})
        }
        HookAgent::Gemini => json!({
            "name": GEMINI_NAME,
            "type": "command",
            "command": command,
            "timeout": GEMINI_TIMEOUT_MS,
            "description": "Reports session activity to the greenroom dashboard",
        }),
    };
    if takes_matcher(agent, event) {
        json!({"matcher": "*", "hooks": [hook]})
    } else {
        json!({"hooks": [hook]})
    }
}

/// Pure merge: the new settings text. Idempotent; replaces an older
/// greenroom entry (another binary path) where it stood. Only greenroom's
/// entries change (`splice.rs`); a file with no settings yet is written anew.
pub fn merge_install(
    existing: Option<&str>,
    agent: HookAgent,
    command: &str,
) -> Result<String, String> {
    parse_root(existing)?;
    match existing.filter(|t| has_object(Some(t))) {
        Some(text) => splice::install(text, agent, command),
        None => {
            let hooks: Map<String, Value> = events(agent)
                .iter()
                .map(|&e| (e.to_owned(), json!([greenroom_group(agent, e, command)])))
                .collect();
            render(&json!({ "hooks": hooks }))
        }
    }
}

/// Pure removal of greenroom's entries, from every event (an older greenroom
/// may have hooked events this one does not).
pub fn merge_uninstall(existing: &str, agent: HookAgent) -> Result<String, String> {
    parse_root(Some(existing))?;
    if !has_object(Some(existing)) {
        return Ok(existing.to_owned());
    }
    splice::uninstall(existing, agent)
}

/// Whether the text holds a JSON value at all (an empty file holds none).
fn has_object(text: Option<&str>) -> bool {
    text.is_some_and(|t| !t.trim_start_matches('\u{feff}').trim().is_empty())
}

/// The refusal for `hooks` (event "") or `hooks.<event>` holding a JSON `kind`.
fn wrong_type(event: &str, kind: &str) -> String {
    let (key, expected) = match event {
        "" => ("\"hooks\"".to_owned(), "an object of events"),
        _ => (format!("\"hooks\".\"{event}\""), "a list of hook groups"),
    };
    format!("has {key} as a JSON {kind}, where {expected} is expected; not changed")
}

fn parse_root(text: Option<&str>) -> Result<Map<String, Value>, String> {
    let text = text.map(|t| t.strip_prefix('\u{feff}').unwrap_or(t));
    // An empty file (from `touch`) holds no settings to lose.
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        return Ok(Map::new());
    };
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(format!(
            "holds a JSON {}, where settings must be a JSON object; not changed",
            kind_of(&other)
        )),
        Err(e) => Err(parse_reason(text, &e)),
    }
}

fn parse_reason(text: &str, e: &serde_json::Error) -> String {
    let (line, column) = (e.line(), e.column());
    let at_error = text
        .lines()
        .nth(line.saturating_sub(1))
        .and_then(|l| l.get(column.saturating_sub(1)..))
        .unwrap_or("");
    let what = if e.is_eof() {
        format!("is truncated: the JSON ends early (line {line}, column {column})")
    } else if at_error.starts_with('/') {
        // Gemini CLI accepts comments; rewriting would drop them.
        format!("has a comment at line {line}, which greenroom could not keep")
    } else {
        format!("is not valid JSON ({e})")
    };
    format!("{what}; greenroom does not rewrite a file it cannot parse; not changed")
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "object",
    }
}

fn render(value: &Value) -> Result<String, String> {
    serde_json::to_string_pretty(value)
        .map(|text| text + "\n")
        .map_err(|e| format!("cannot be written as JSON: {e}"))
}

/// Whether a hook command is greenroom's: program file name `greenroom`,
/// first argument `report`, read with shell quoting rules.
pub fn is_greenroom_command(command: &str) -> bool {
    match first_words(command, 2).as_slice() {
        [program, arg] => {
            arg == "report"
                && Path::new(program)
                    .file_name()
                    .is_some_and(|n| n == "greenroom")
        }
        _ => false,
    }
}

/// The first `n` words of a POSIX shell command, quotes and escapes removed.
/// Enough to recognise greenroom's own command, not a shell parser.
fn first_words(command: &str, n: usize) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        if c.is_whitespace() {
            words.extend(word.take());
            if words.len() == n {
                break;
            }
            continue;
        }
        let word = word.get_or_insert_default();
        match c {
            '\'' => word.extend(chars.by_ref().take_while(|&c| c != '\'')),
            '"' => {
                while let Some(c) = chars.next().filter(|&c| c != '"') {
                    match (c, (c == '\\').then(|| chars.next()).flatten()) {
                        (_, Some(e @ ('"' | '\\' | '$' | '`'))) => word.push(e),
                        (c, e) => word.extend(std::iter::once(c).chain(e)),
                    }
                }
            }
            '\\' => word.extend(chars.next().filter(|&e| e != '\n')),
            c => word.push(c),
        }
    }
    words.extend(word);
    words
}

/// `<exe> report`, the path single-quoted unless every character is one a
/// shell never interprets (the agents run hook commands through a shell).
pub fn hook_command(exe: &Path) -> String {
    let path = exe.to_string_lossy();
    let plain = !path.is_empty()
        && path
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+,:@%".contains(c));
    if plain {
        format!("{path} report")
    } else {
        format!("'{}' report", path.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod agents_tests {
    use clap::ValueEnum;

    /// The rows' advice names exactly the agents `--agent` takes.
    #[test]
    fn the_advice_names_the_agents_hooks_install_takes() {
        let names: Vec<String> = super::HookAgent::value_variants()
            .iter()
            .filter_map(|a| a.to_possible_value())
            .map(|v| v.get_name().to_owned())
            .collect();
        assert_eq!(names, crate::model::AGENTS_WITH_HOOKS);
    }
}
