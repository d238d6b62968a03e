//! The settings file itself: read it (links followed to their target),
//! merge, back it up, write it (`sources::user_file`).

use std::fs;
use std::io::{ErrorKind, Read};
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{HookAgent, Outcome, merge_install, merge_uninstall, parse_root};
use crate::sources::{MAX_FILE_BYTES, decode_text, io_reason, read_text_file, user_file};

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

/// The settings file as found: decoded text and exact bytes.
struct Current {
    text: String,
    bytes: Vec<u8>,
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
    // The text was read without its byte-order mark; the file keeps it.
    let marked = current
        .as_ref()
        .is_some_and(|c| c.bytes.starts_with("\u{feff}".as_bytes()));
    let merged = merged.map(|text| {
        if marked && !text.starts_with('\u{feff}') {
            format!("\u{feff}{text}")
        } else {
            text
        }
    });
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

/// Backs the current file up (or creates its folder), then replaces it
/// (see `sources::user_file`: a read-only file is refused, a hard-linked
/// one written in place; a new one is 0600, since settings may hold tokens).
fn write(path: &Path, current: Option<&Current>, text: &str) -> Result<Option<PathBuf>, String> {
    user_file::ensure_writable(path)?;
    let backup = match current {
        Some(current) => Some(user_file::backup(path, &current.bytes)?),
        None => {
            create_parent(path)?;
            None
        }
    };
    user_file::replace(path, text.as_bytes(), 0o600)
        .map_err(|e| user_file::with_backup(e, backup.as_deref()))?;
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
    match fs::symlink_metadata(path) {
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
    Ok(Some(Current { text, bytes }))
}

fn same_settings(old: &str, new: &str) -> bool {
    let parse = |t: &str| parse_root(Some(t)).ok().map(Value::Object);
    // Compact text compares key order too, which Value equality ignores.
    let compact = |v: Value| serde_json::to_string(&v).ok();
    parse(old)
        .and_then(compact)
        .is_some_and(|old| parse(new).and_then(compact) == Some(old))
}

/// Folders greenroom creates are private (0700): they hold the operator's
/// agent settings.
pub(super) fn create_parent(path: &Path) -> Result<(), String> {
    let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) else {
        return Ok(());
    };
    let mut builder = fs::DirBuilder::new();
    let result = builder.recursive(true).mode(0o700).create(dir);
    result.map_err(|e| format!("its folder cannot be created: {e}"))
}
