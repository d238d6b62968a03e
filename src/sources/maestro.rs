//! Maestro orchestration state: `<workspace>/<state_dir>/state/active-session.md`
//! and `.../state/archive/*.md`, plus the hook state that names
//! the agent working now.
//!
//! The files are written by models and by hand, so reading is tolerant: every
//! key is optional and mistyped values are noted, not fatal. Where a file
//! disagrees with itself the disagreement is recorded in
//! `Orchestration::contradictions`; nothing is guessed or "fixed".

mod checks;
mod frontmatter;
mod location;
mod mapping;
mod time;
mod values;
mod write;

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{io_reason, read_text_file, read_text_file_if_present};
use crate::model::{Orchestration, Problem};

pub use location::{
    LEGACY_HOOKS_DIR, StateLocation, default_hooks_dir, location_for_workspace, read_active_agent,
    resolve_state_dir,
};
pub use time::parse_time;
pub use write::{archive_state, render_state, write_active_agent, write_state};

/// Where Maestro keeps its state under a workspace unless `MAESTRO_STATE_DIR` says otherwise.
pub const DEFAULT_STATE_DIR: &str = "docs/maestro";

/// The file Maestro keeps the running orchestration in.
const ACTIVE_FILE: &str = "active-session.md";
/// The file in a hook state folder that names the agent working now.
const ACTIVE_AGENT_FILE: &str = "active-agent";

/// Parses a state file's whole text. `Err` is an operator-facing reason.
pub fn parse_state(
    text: &str,
    path: &Path,
    workspace: &Path,
    archived: bool,
) -> Result<Orchestration, String> {
    let block = frontmatter::split(text)?;
    let map = match frontmatter::parse(&block)? {
        Value::Object(map) => map,
        Value::Null => return Err("frontmatter is empty".into()),
        Value::Array(_) => return Err("frontmatter is a list, not a mapping of keys".into()),
        _ => return Err("frontmatter is a single value, not a mapping of keys".into()),
    };
    let (mut orch, listed) = mapping::orchestration(&map);
    orch.path = path.to_path_buf();
    orch.workspace = workspace.to_path_buf();
    orch.archived = archived;
    let found = checks::contradictions(&orch, listed);
    orch.contradictions.extend(found);
    Ok(orch)
}

/// [`read_text_file`] + [`parse_state`]; the error becomes a Problem with the path.
pub fn read_state_file(
    path: &Path,
    workspace: &Path,
    archived: bool,
) -> Result<Orchestration, Problem> {
    read_text_file(path)
        .and_then(|text| parse_state(&text, path, workspace, archived))
        .map_err(|reason| Problem::new(path, reason))
}

/// Reads `active-session.md` (missing is normal: no problem) and, when
/// `include_archive`, every `archive/*.md` (sorted by name). Without an
/// active file, the newest archived one is read in any case: Maestro
/// archives an orchestration the moment it completes, and the session that
/// ran it shows what it finished until a new one starts.
pub fn read_location(
    loc: &StateLocation,
    include_archive: bool,
) -> (Vec<Orchestration>, Vec<Problem>) {
    let mut files = Vec::new();
    let mut problems = Vec::new();
    let mut found = Vec::new();

    let active = loc.state_folder.join(ACTIVE_FILE);
    // Read at once, not looked at first: a missing file is normal, and a
    // dangling link is reported (it is no regular file), not skipped.
    let read = read_text_file_if_present(&active)
        .and_then(|text| {
            text.map(|t| parse_state(&t, &active, &loc.workspace, false))
                .transpose()
        })
        .map_err(|reason| Problem::new(&active, reason));
    let has_active = match read {
        Ok(Some(orch)) => {
            found.push(orch);
            true
        }
        Ok(None) => false,
        Err(problem) => {
            problems.push(problem);
            true
        }
    };
    if include_archive || !has_active {
        match archive_files(&loc.state_folder.join("archive")) {
            Ok(paths) if include_archive => files.extend(paths.into_iter().map(|p| (p, true))),
            Ok(paths) => files.extend(newest(paths).map(|p| (p, true))),
            Err(problem) => problems.push(problem),
        }
    }

    for (path, archived) in files {
        match read_state_file(&path, &loc.workspace, archived) {
            Ok(orch) => found.push(orch),
            Err(problem) => problems.push(problem),
        }
    }
    (found, problems)
}

/// The archive file written last (by modification time, then name).
fn newest(paths: Vec<PathBuf>) -> Option<PathBuf> {
    paths
        .into_iter()
        .filter_map(|p| {
            let meta = fs::symlink_metadata(&p).ok()?;
            Some((meta.modified().ok(), p))
        })
        .max()
        .map(|(_, p)| p)
}

/// The `*.md` entries of the archive folder, sorted by name. A missing folder
/// is normal (nothing archived yet): no problem.
fn archive_files(folder: &Path) -> Result<Vec<PathBuf>, Problem> {
    let entries = match fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Problem::new(folder, io_reason(&e))),
    };
    let mut paths: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|p| p.extension().is_some_and(|ext| ext == "md"))
        .collect();
    paths.sort();
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Orchestration, String> {
        parse_state(text, Path::new("s.md"), Path::new("/ws"), false)
    }

    #[test]
    fn minimal_file_reads_with_every_key_missing() {
        let orch = parse("---\nsession_id: x\n---\n").unwrap();
        assert_eq!(orch.session_id.as_deref(), Some("x"));
        assert_eq!(orch.status, None);
        assert_eq!(orch.token_usage, None);
        assert!(orch.phases.is_empty());
        assert!(orch.contradictions.is_empty());
        assert_eq!(orch.path, Path::new("s.md"));
        assert_eq!(orch.workspace, Path::new("/ws"));
    }

    #[test]
    fn frontmatter_must_be_a_mapping() {
        assert_eq!(parse("---\n---\n").unwrap_err(), "frontmatter is empty");
        assert!(parse("---\n- a\n---\n").unwrap_err().contains("a list"));
        assert!(
            parse("---\nhello\n---\n")
                .unwrap_err()
                .contains("single value")
        );
    }

    #[test]
    fn contradictions_follow_notes_from_reading() {
        let text = "---\nstatus: \\\"completed\\\"\nphases:\n  - id: 1\n    status: pending\n---\n";
        let orch = parse(text).unwrap();
        assert_eq!(orch.status.as_deref(), Some("completed"));
        assert_eq!(orch.contradictions.len(), 2, "{:?}", orch.contradictions);
        assert!(orch.contradictions[0].contains("literal"));
        assert!(orch.contradictions[1].contains("status is completed"));
    }
}
