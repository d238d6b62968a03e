//! `greenroom hooks install|uninstall`: greenroom's entries in an agent's
//! settings.json, merged in or taken out without disturbing anything else.
//!
//! The merge works on parsed JSON and writes it back pretty-printed: the
//! operator's formatting is lost on a real change, but every key, value and
//! order is kept. A file that does not parse, or whose `hooks` has a shape
//! greenroom does not expect, is refused rather than repaired.

use std::fs::{self, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use crate::sources::sidecar::{SidecarError, write_atomic};
use crate::sources::{MAX_FILE_BYTES, decode_text, io_reason, read_text_file};

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
    "SessionStart", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel", "BeforeTool",
    "AfterTool", "PreCompress", "Notification", "SessionEnd",
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
/// `<home>/.claude/settings.json`; project scopes live in `<project>/.<agent>/`.
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

pub fn install(
    path: &Path,
    agent: HookAgent,
    command: &str,
    dry_run: bool,
) -> Result<Outcome, String> {
    apply(path, dry_run, |text| {
        merge_install(text, agent, command).map(Some)
    })
}

/// A missing file has nothing to uninstall: unchanged, empty `new_text`.
pub fn uninstall(path: &Path, agent: HookAgent, dry_run: bool) -> Result<Outcome, String> {
    apply(path, dry_run, |text| {
        text.map(|t| merge_uninstall(t, agent)).transpose()
    })
}

/// The settings file as found: decoded text, exact bytes and mode.
struct Current {
    text: String,
    bytes: Vec<u8>,
    mode: u32,
}

/// `merge` gets the current text and returns None when there is nothing to write.
fn apply(
    path: &Path,
    dry_run: bool,
    merge: impl FnOnce(Option<&str>) -> Result<Option<String>, String>,
) -> Result<Outcome, String> {
    let target = follow_link(path)?;
    let at = |reason: String| format!("{}: {reason}", target.display());
    let current = read_current(&target).map_err(|e| at(format!("{e}; not changed")))?;
    let merged = merge(current.as_ref().map(|c| c.text.as_str())).map_err(at)?;
    // Same settings in another layout is no change: the operator's
    // formatting is not worth a rewrite.
    let changed = merged.as_ref().is_some_and(|new| {
        current
            .as_ref()
            .is_none_or(|c| !same_settings(&c.text, new))
    });
    let new_text = merged.unwrap_or_default();
    let backup = if changed && !dry_run {
        write(&target, current.as_ref(), &new_text).map_err(at)?
    } else {
        None
    };
    Ok(Outcome {
        path: target,
        backup,
        changed,
        new_text,
    })
}

/// Backs the current file up (or creates its folder), then replaces it.
fn write(path: &Path, current: Option<&Current>, text: &str) -> Result<Option<PathBuf>, String> {
    let backup = match current {
        Some(current) => Some(write_backup(path, &current.bytes)?),
        None => {
            create_parent(path)?;
            None
        }
    };
    write_atomic(path, text.as_bytes()).map_err(|e| match e {
        SidecarError::Io { source, .. } => format!("cannot be written: {source}"),
        other => other.to_string(),
    })?;
    // write_atomic leaves 0600; an existing file keeps the operator's mode.
    if let Some(mode) = current.map(|c| c.mode).filter(|&m| m != 0o600) {
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).map_err(|e| {
            format!("was written, but its mode could not be restored to {mode:o}: {e}")
        })?;
    }
    Ok(backup)
}

/// Dotfile managers link settings files: writing to the target keeps the
/// link, where renaming over it would silently cut it.
fn follow_link(path: &Path) -> Result<PathBuf, String> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => fs::canonicalize(path).map_err(|e| {
            let reason = io_reason(&e);
            format!(
                "{}: is a symbolic link whose target {reason}; greenroom does not create files through links",
                path.display()
            )
        }),
        _ => Ok(path.to_path_buf()),
    }
}

fn read_current(path: &Path) -> Result<Option<Current>, String> {
    let meta = match fs::symlink_metadata(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        other => other.map_err(|e| io_reason(&e))?,
    };
    let text = read_text_file(path)?;
    // The backup must hold the exact bytes (BOM included), which the text
    // no longer does; a second read that disagrees means a concurrent write.
    let mut bytes = Vec::new();
    fs::File::open(path)
        .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| io_reason(&e))?;
    if decode_text(bytes.clone()).as_ref() != Ok(&text) {
        return Err("changed while greenroom was reading it; try again".into());
    }
    let mode = meta.permissions().mode() & 0o7777;
    Ok(Some(Current { text, bytes, mode }))
}

fn same_settings(old: &str, new: &str) -> bool {
    let parse = |t: &str| parse_root(Some(t)).ok().map(Value::Object);
    // Compact text compares key order too, which Value equality ignores.
    let compact = |v: Value| serde_json::to_string(&v).ok();
    parse(old)
        .and_then(compact)
        .is_some_and(|old| parse(new).and_then(compact) == Some(old))
}

/// Folders 0700 (DESIGN §7).
fn create_parent(path: &Path) -> Result<(), String> {
    let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) else {
        return Ok(());
    };
    let mut builder = fs::DirBuilder::new();
    let result = builder.recursive(true).mode(0o700).create(dir);
    result.map_err(|e| format!("its folder cannot be created: {e}"))
}

/// `<file>.greenroom-backup-<UTC>`, with `-<n>` if two runs share a second.
/// Mode 0600: settings often carry tokens in `env`.
fn write_backup(path: &Path, bytes: &[u8]) -> Result<PathBuf, String> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%SZ");
    let base = format!("{name}.greenroom-backup-{stamp}");
    for n in 0..100 {
        let backup = path.with_file_name(match n {
            0 => base.clone(),
            n => format!("{base}-{n}"),
        });
        let failed = |e: std::io::Error| {
            format!(
                "cannot be backed up to {}: {e}; not changed",
                backup.display()
            )
        };
        let mut file = match OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&backup)
        {
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            other => other.map_err(failed)?,
        };
        if let Err(e) = file.write_all(bytes).and_then(|()| file.sync_all()) {
            let _ = fs::remove_file(&backup);
            return Err(failed(e));
        }
        return Ok(backup);
    }
    Err("cannot be backed up: too many backups this second; not changed".into())
}
