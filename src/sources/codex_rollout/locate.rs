//! Finding the rollout of a Codex session greenroom started, when no hook
//! named it: Codex files it under the day it began
//! (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-YYYY-MM-DDTHH-MM-SS-<id>.jsonl`,
//! local time), and its first line (`session_meta`) names its folder.
//! Codex writes the file only once the first prompt is sent, so before
//! that there is nothing to find. (It then holds the file open while it
//! runs: a Codex started by hand is matched to its rollout that way,
//! exactly, in `catalog/usage/codex_hand.rs`; a session greenroom started
//! is matched here, by folder and start, before its pane is probed.)

use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Days, Local, NaiveDateTime, Timelike, Utc};

use super::{Record, is_rollout, parse_line};

/// Days looked in: the session's first and the ones after it, up to this many.
const MAX_DAYS: u64 = 3;
/// Rollouts looked at in one day's folder.
const MAX_PER_DAY: usize = 4096;
/// The most of a rollout's first line read (its `session_meta` carries
/// Codex's whole base instructions, some tens of KiB).
const MAX_META_BYTES: u64 = 1024 * 1024;

/// The first rollout begun at or after `since` whose session ran in `cwd`
/// (or, with `id`, the one of that session), that `taken` does not claim.
pub fn locate(
    codex_home: &Path,
    cwd: &Path,
    since: DateTime<Utc>,
    id: Option<&str>,
    taken: &dyn Fn(&Path) -> bool,
) -> Option<PathBuf> {
    // The name's time is to the second: a start in the same second counts.
    let first = since.with_timezone(&Local).naive_local();
    let first = first.with_nanosecond(0).unwrap_or(first);
    day_folders(codex_home, since)
        .iter()
        .find_map(|dir| in_day(dir, cwd, first, id, taken))
}

/// The day folders a rollout begun at or after `since` may be in, up to
/// today (at most [`MAX_DAYS`]): what to watch while it is not written.
pub fn day_folders(codex_home: &Path, since: DateTime<Utc>) -> Vec<PathBuf> {
    let today = Local::now().date_naive();
    let mut day = since.with_timezone(&Local).date_naive();
    let mut out = Vec::new();
    for _ in 0..MAX_DAYS {
        if day > today {
            break;
        }
        out.push(day_folder(codex_home, day));
        match day.checked_add_days(Days::new(1)) {
            Some(next) => day = next,
            None => break,
        }
    }
    out
}

fn day_folder(codex_home: &Path, day: chrono::NaiveDate) -> PathBuf {
    codex_home
        .join("sessions")
        .join(day.format("%Y/%m/%d").to_string())
}

fn in_day(
    dir: &Path,
    cwd: &Path,
    since: NaiveDateTime,
    id: Option<&str>,
    taken: &dyn Fn(&Path) -> bool,
) -> Option<PathBuf> {
    let mut names: Vec<(NaiveDateTime, PathBuf)> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .take(MAX_PER_DAY)
        .map(|e| e.path())
        .filter(|p| is_rollout(p))
        .filter_map(|p| Some((begun(&p)?, p)))
        .collect();
    names.sort();
    names
        .into_iter()
        .filter(|(at, p)| match id {
            Some(id) => name_has_id(p, id),
            None => *at >= since,
        })
        .map(|(_, p)| p)
        .find(|p| !taken(p) && meta_cwd(p).is_some_and(|c| c == cwd))
}

/// When a rollout began, by its name (`rollout-2026-12-02T11-43-37-<id>`).
fn begun(path: &Path) -> Option<NaiveDateTime> {
    let name = path.file_name()?.to_str()?;
    let stamp = name.strip_prefix("rollout-")?.get(..19)?;
    NaiveDateTime::parse_from_str(stamp, "%Y-%m-%dT%H-%M-%S").ok()
}

fn name_has_id(path: &Path, id: &str) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.strip_suffix(".jsonl")
        .is_some_and(|n| n.ends_with(&format!("-{id}")))
}

/// The folder a rollout's first line names; no link is followed and no
/// more than [`MAX_META_BYTES`] read.
fn meta_cwd(path: &Path) -> Option<PathBuf> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(crate::sources::O_NOFOLLOW)
        .open(path)
        .ok()?;
    let mut line = Vec::new();
    BufReader::new(file.take(MAX_META_BYTES))
        .read_until(b'\n', &mut line)
        .ok()?;
    match parse_line(&line)? {
        Record::Meta { cwd, .. } => cwd,
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rollout(home: &Path, at: &str, id: &str, cwd: &str) -> PathBuf {
        let day = format!("{}/{}/{}", &at[..4], &at[5..7], &at[8..10]);
        let dir = home.join("sessions").join(day);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("rollout-{at}-{id}.jsonl"));
        let meta = format!(r#"{{"type":"session_meta","payload":{{"id":"{id}","cwd":"{cwd}"}}}}"#);
        std::fs::write(&path, format!("{meta}\n")).unwrap();
        path
    }

    fn local(at: &str) -> DateTime<Utc> {
        NaiveDateTime::parse_from_str(at, "%Y-%m-%dT%H-%M-%S")
            .unwrap()
            .and_local_timezone(Local)
            .unwrap()
            .with_timezone(&Utc)
    }

    #[test]
    fn the_first_rollout_in_the_folder_after_the_start_not_taken() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        let now = Local::now().format("%Y-%m-%dT%H-%M-%S").to_string();
        let before = rollout(home, "2020-01-01T00-00-00", "old", "/w/a");
        let other = rollout(home, &now, "a-other", "/w/b");
        let mine = rollout(home, &now, "b-mine", "/w/a");
        let since = local(&now);
        let none = |_: &Path| false;
        assert_eq!(
            locate(home, Path::new("/w/a"), since, None, &none),
            Some(mine.clone())
        );
        assert_eq!(
            locate(home, Path::new("/w/b"), since, None, &none),
            Some(other)
        );
        let taken = |p: &Path| p == mine;
        assert_eq!(locate(home, Path::new("/w/a"), since, None, &taken), None);
        // By id: that session's file, whatever its time.
        let old = local("2020-01-01T00-00-00");
        assert_eq!(
            locate(home, Path::new("/w/a"), old, Some("old"), &none),
            Some(before)
        );
        assert_eq!(locate(home, Path::new("/w/c"), since, None, &none), None);
        assert_eq!(
            locate(&home.join("nothing"), Path::new("/w/a"), since, None, &none),
            None
        );
    }

    #[test]
    fn names_and_first_lines_that_are_not_rollouts_are_passed_over() {
        assert_eq!(begun(Path::new("rollout-bad.jsonl")), None);
        assert!(begun(Path::new("rollout-2026-12-02T11-43-37-x.jsonl")).is_some());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rollout-2026-12-02T11-43-37-x.jsonl");
        std::fs::write(&path, "{not json\n").unwrap();
        assert_eq!(meta_cwd(&path), None);
        std::fs::write(&path, format!("{}\n", "x".repeat(100))).unwrap();
        assert_eq!(meta_cwd(&path), None);
    }
}
