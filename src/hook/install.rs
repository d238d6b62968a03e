//! `greenroom hooks install|uninstall`: greenroom's entries in an agent's
//! settings.json, merged in or taken out without disturbing anything else.
//!
//! The merge works on parsed JSON and writes it back pretty-printed: the
//! operator's formatting is lost on a real change, but every key, value and
//! order is kept. A file that does not parse, or whose `hooks` has a shape
//! greenroom does not expect, is refused rather than repaired.

mod settings_file;

use std::path::{Path, PathBuf};

pub use settings_file::{install, uninstall};

use serde_json::{Map, Value, json};

/// Claude Code counts hook timeouts in seconds, Gemini CLI in milliseconds.
const CLAUDE_TIMEOUT_SECS: u64 = 5;
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

/// claude user: `$CLAUDE_CONFIG_DIR/settings.json` if claude_dir given else
/// `<home>/.claude/settings.json`; gemini user: `<home>/.gemini/settings.json`
/// (the caller passes `GEMINI_CLI_HOME` as home when set, as Gemini CLI
/// reads it); project scopes live in `<project>/.<agent>/`.
pub fn settings_path(
    agent: HookAgent,
    scope: HookScope,
    home: &Path,
    claude_dir: Option<&Path>,
    project: &Path,
) -> PathBuf {
    let dir = match (agent, scope) {
        (HookAgent::Claude, HookScope::User) => {
            claude_dir.map_or_else(|| home.join(".claude"), Path::to_path_buf)
        }
        (HookAgent::Claude, HookScope::Project) => project.join(".claude"),
        (HookAgent::Gemini, HookScope::User) => home.join(".gemini"),
        (HookAgent::Gemini, HookScope::Project) => project.join(".gemini"),
    };
    dir.join("settings.json")
}

/// The events greenroom hooks for an agent.
pub fn events(agent: HookAgent) -> &'static [&'static str] {
    match agent {
        HookAgent::Claude => CLAUDE_EVENTS,
        HookAgent::Gemini => GEMINI_EVENTS,
    }
}

/// Events whose matcher filters anything. Elsewhere a matcher is ignored
/// (Claude) or compared as an exact string (Gemini), so none is written.
fn takes_matcher(agent: HookAgent, event: &str) -> bool {
    match agent {
        HookAgent::Claude => !matches!(event, "UserPromptSubmit" | "Stop"),
        HookAgent::Gemini => matches!(event, "BeforeTool" | "AfterTool"),
    }
}

/// The matcher group greenroom owns in one event's list.
fn greenroom_group(agent: HookAgent, event: &str, command: &str) -> Value {
    let hook = match agent {
        HookAgent::Claude => {
            json!({"type": "command", "command": command, "timeout": CLAUDE_TIMEOUT_SECS})
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
/// greenroom entry (another binary path) where it stood.
pub fn merge_install(
    existing: Option<&str>,
    agent: HookAgent,
    command: &str,
) -> Result<String, String> {
    let mut root = parse_root(existing)?;
    let hooks = hooks_object(root.entry("hooks").or_insert_with(|| json!({})))?;
    for &event in events(agent) {
        let list = hooks.entry(event).or_insert_with(|| json!([]));
        match list {
            Value::Array(list) => place_group(list, greenroom_group(agent, event, command)),
            other => return Err(wrong_type(event, other)),
        }
    }
    render(&Value::Object(root))
}

/// Pure removal of greenroom's entries, from every event (an older greenroom
/// may have hooked events this one does not).
pub fn merge_uninstall(existing: &str, agent: HookAgent) -> Result<String, String> {
    let mut root = parse_root(Some(existing))?;
    let Some(hooks) = root.get_mut("hooks") else {
        return render(&Value::Object(root));
    };
    let hooks = hooks_object(hooks)?;
    let misfit = |e: &&str| {
        hooks
            .get(*e)
            .filter(|v| !v.is_array())
            .map(|v| wrong_type(e, v))
    };
    if let Some(reason) = events(agent).iter().find_map(misfit) {
        return Err(reason);
    }
    let mut removed = false;
    hooks.retain(|_, value| {
        // Other keys (Gemini's old `enabled` / `disabled`) are not events.
        let Value::Array(list) = value else {
            return true;
        };
        let emptied = strip_list(list).is_some() && list.is_empty();
        removed |= emptied;
        !emptied
    });
    if removed && hooks.is_empty() {
        root.retain(|key, _| key != "hooks");
    }
    render(&Value::Object(root))
}

/// Puts `group` where greenroom's first entry stood (after its group if that
/// keeps other hooks), so a re-install neither moves nor duplicates it.
fn place_group(list: &mut Vec<Value>, group: Value) {
    let at = strip_list(list).unwrap_or(list.len());
    list.insert(at, group);
}

/// Removes greenroom's hooks from a list of groups, dropping the groups this
/// empties; returns the index just past where the first one was removed.
fn strip_list(list: &mut Vec<Value>) -> Option<usize> {
    let mut first = None;
    for group in std::mem::take(list) {
        let (group, removed) = strip_group(group);
        list.extend(group);
        if removed && first.is_none() {
            first = Some(list.len());
        }
    }
    first
}

/// The group without greenroom's hooks (None if that emptied it) and whether
/// any were removed. A group already empty, or of another shape, is kept.
fn strip_group(mut group: Value) -> (Option<Value>, bool) {
    let Some(hooks) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
        return (Some(group), false);
    };
    let before = hooks.len();
    hooks.retain(|hook| {
        !hook
            .get("command")
            .and_then(Value::as_str)
            .is_some_and(is_greenroom_command)
    });
    match hooks.len() {
        n if n == before => (Some(group), false),
        0 => (None, true),
        _ => (Some(group), true),
    }
}

fn hooks_object(hooks: &mut Value) -> Result<&mut Map<String, Value>, String> {
    match hooks {
        Value::Object(map) => Ok(map),
        other => Err(wrong_type("", other)),
    }
}

/// The refusal for `hooks` (event "") or `hooks.<event>` holding `value`.
fn wrong_type(event: &str, value: &Value) -> String {
    let (key, expected) = match event {
        "" => ("\"hooks\"".to_owned(), "an object of events"),
        _ => (format!("\"hooks\".\"{event}\""), "a list of hook groups"),
    };
    let kind = kind_of(value);
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
