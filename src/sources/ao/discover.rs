//! Finding Agent Orchestrator session files: a bounded walk that never
//! follows links, and the rules that say which files are sessions.

use std::fs;
use std::path::{Path, PathBuf};

use super::{AoSession, parse_session};
use crate::model::Problem;
use crate::sources::{io_reason, read_text_file};

/// Session files sit at most four levels down; deeper trees are not ao's.
const MAX_DEPTH: usize = 8;
/// Bounds the walk when someone points `--ao-dir` at a huge tree.
const MAX_ENTRIES: usize = 100_000;

/// Finds and reads every session file below `root` (depth capped at
/// [`MAX_DEPTH`], symlinks never followed, at most [`MAX_ENTRIES`] entries).
/// A missing root is normal (ao not installed): empty, no problem. Archived
/// sessions only when `include_archive`.
pub fn read_root(root: &Path, include_archive: bool) -> (Vec<AoSession>, Vec<Problem>) {
    let mut problems = Vec::new();
    let mut sessions = Vec::new();
    for (path, archived) in find_session_files(root, include_archive, &mut problems) {
        match read_text_file(&path).and_then(|text| parse_session(&text, &path, archived)) {
            Ok(session) => sessions.push(session),
            Err(reason) => problems.push(Problem::new(path, reason)),
        }
    }
    sessions.sort_by(|a, b| a.path.cmp(&b.path));
    problems.sort_by(|a, b| a.path.cmp(&b.path));
    (sessions, problems)
}

/// Whether `path` is where a session file lives below `root`, and if so
/// whether it is archived; the watcher asks this for one changed file.
pub fn session_file_kind(root: &Path, path: &Path) -> Option<bool> {
    let name = path.file_name()?.to_string_lossy();
    if is_ignored_name(&name) {
        return None;
    }
    let rel = path.strip_prefix(root).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts
        .iter()
        .any(|p| p == "worktrees" || p.ends_with(".migrated"))
    {
        return None;
    }
    let n = parts.len();
    let parent = |up: usize| n.checked_sub(up + 1).map(|i| parts[i].as_str());
    let in_project = n == 3 && parts[0] == "projects";
    match (parent(1), parent(2)) {
        (Some("sessions"), _) => Some(false),
        (Some("archive"), Some("sessions")) => Some(true),
        (Some("archive"), _) if n == 4 && parts[0] == "projects" => Some(true),
        _ if in_project && name == "orchestrator.json" => Some(false),
        _ => None,
    }
}

/// Reads one session file; `None` when the file is gone.
pub fn read_session_file(path: &Path, archived: bool) -> Option<Result<AoSession, Problem>> {
    if fs::symlink_metadata(path).is_err() {
        return None;
    }
    Some(
        read_text_file(path)
            .and_then(|text| parse_session(&text, path, archived))
            .map_err(|reason| Problem::new(path, reason)),
    )
}

/// The folders that hold session files: what the watcher watches.
pub fn session_folders(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.to_path_buf(), root.join("projects")];
    let subdirs = |dir: &Path| -> Vec<PathBuf> {
        fs::read_dir(dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                    .map(|e| e.path())
                    .collect()
            })
            .unwrap_or_default()
    };
    for project in subdirs(&root.join("projects")) {
        out.push(project.join("sessions"));
        out.push(project.join("archive"));
    }
    for dir in subdirs(root) {
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned());
        if matches!(name.as_deref(), Some("projects" | "worktrees")) {
            continue;
        }
        out.push(dir.join("sessions"));
        out.push(dir.join("sessions").join("archive"));
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Other,
    Sessions,
    Archive,
}

/// Walks the tree without following symlinks: a link is never a folder here,
/// and one where a session file belongs is handed to the reader, which
/// refuses it with a reason the operator sees.
fn find_session_files(
    root: &Path,
    include_archive: bool,
    problems: &mut Vec<Problem>,
) -> Vec<(PathBuf, bool)> {
    let projects = root.join("projects");
    let mut found = Vec::new();
    let mut stack = vec![(root.to_path_buf(), Place::Other, 0)];
    let mut seen = 0usize;
    while let Some((dir, place, depth)) = stack.pop() {
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            // Removed between listing and reading, or no ao at all.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                problems.push(Problem::new(&dir, io_reason(&e)));
                continue;
            }
        };
        let in_project = dir.parent() == Some(projects.as_path());
        for entry in entries {
            seen += 1;
            if seen > MAX_ENTRIES {
                let reason = format!("holds over {MAX_ENTRIES} entries; the rest was not searched");
                problems.push(Problem::new(root, reason));
                return found;
            }
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    problems.push(Problem::new(&dir, io_reason(&e)));
                    continue;
                }
            };
            let name = entry.file_name().to_string_lossy().into_owned();
            if is_ignored_name(&name) {
                continue;
            }
            let path = entry.path();
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if !is_dir {
                if place != Place::Other || (in_project && name == "orchestrator.json") {
                    found.push((path, place == Place::Archive));
                }
                continue;
            }
            let next = match (place, name.as_str()) {
                (Place::Other | Place::Sessions, "sessions") => Some(Place::Sessions),
                // Legacy archives sit in `sessions/archive`, current ones
                // beside `sessions` in the project folder.
                (Place::Sessions, "archive") => include_archive.then_some(Place::Archive),
                (Place::Other, "archive") if in_project => {
                    include_archive.then_some(Place::Archive)
                }
                (Place::Sessions, _) => {
                    problems.push(Problem::new(
                        &path,
                        "is a folder where a session file was expected",
                    ));
                    None
                }
                // Worktrees are whole checkouts: slow to walk, and a repo's
                // own `sessions/` folder is not ao's. `.migrated` folders are
                // the pre-migration copies of sessions that now live in
                // `projects/`.
                (Place::Other, "worktrees") => None,
                (Place::Other, n) if n.ends_with(".migrated") => None,
                (Place::Other, _) => Some(Place::Other),
                (Place::Archive, _) => None,
            };
            if let Some(next) = next.filter(|_| depth < MAX_DEPTH) {
                stack.push((path, next, depth + 1));
            }
        }
    }
    found
}

/// Hidden files, editor backups, and the temp and lock files of atomic writes.
pub(super) fn is_ignored_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    let has =
        |s: &&str| n.ends_with(s) || n.contains(&format!("{s}.")) || n.contains(&format!("{s}-"));
    n.starts_with('.') || n.ends_with('~') || [".tmp", ".lock", ".swp"].iter().any(has)
}
