//! A work tree's state from `git status --porcelain=v2 --branch -z` and
//! `git diff --numstat -z` (staged and unstaged), parsed with limits: a
//! 10,000-file change keeps at most [`MAX_FILES`] entries and every count.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use super::numstat::{self, Numstat};
use super::{Git, GitError, READ_TIMEOUT, Repo};
use crate::model::{ChangedFile, Changes, Divergence, FileState, LineCounts};

/// The changed files kept for the list; the counts cover every file.
pub const MAX_FILES: usize = 2_000;

/// Reads the whole state of `repo`'s work tree: the status, then the line
/// counts; without an upstream, ahead/behind against the base branch.
pub fn read_changes(git: &Git, repo: &Repo) -> Changes {
    let mut changes = Changes {
        root: repo.root.clone(),
        operation: repo.operation(),
        ..Changes::default()
    };
    if let Some(problem) = &repo.problem {
        changes.problem = Some(problem.clone());
        return changes;
    }
    let args = [
        "status",
        "--porcelain=v2",
        "--branch",
        "-z",
        "--untracked-files=all",
        "--ignore-submodules=dirty",
    ];
    let out = match git.run(&repo.root, &args, READ_TIMEOUT) {
        Ok(out) => out,
        Err(e) => {
            changes.problem = Some(e.to_string());
            return changes;
        }
    };
    let status = parse_status(&out.stdout);
    changes.branch = status.branch;
    changes.head = status.head;
    changes.divergence = status.divergence;
    let numstat = |cached: bool| -> Result<Vec<Numstat>, GitError> {
        let mut args = vec![
            "diff",
            "--numstat",
            "-z",
            "-M",
            "--no-ext-diff",
            "--no-textconv",
            "--ignore-submodules=dirty",
        ];
        if cached {
            args.push("--cached");
        }
        git.run(&repo.root, &args, READ_TIMEOUT)
            .map(|o| numstat::parse(&o.stdout))
    };
    // No index or no commit yet: `diff --cached` has nothing to compare.
    let staged = if changes.head.is_some() {
        numstat(true)
    } else {
        Ok(Vec::new())
    };
    let unstaged = numstat(false);
    let (staged, unstaged) = match (staged, unstaged) {
        (Ok(s), Ok(u)) => (s, u),
        (Err(e), _) | (_, Err(e)) => {
            changes.problem = Some(e.to_string());
            (Vec::new(), Vec::new())
        }
    };
    apply_counts(&mut changes, status.files, &staged, &unstaged, status.total);
    if out.truncated {
        changes.problem =
            Some("git status printed more than greenroom reads; counts are partial".into());
    }
    if changes.divergence.is_none()
        && let Some(branch) = changes.branch.clone()
    {
        changes.divergence = base_divergence(git, repo, &branch);
    }
    changes
}

fn apply_counts(
    changes: &mut Changes,
    mut files: Vec<ChangedFile>,
    staged: &[Numstat],
    unstaged: &[Numstat],
    total: Totals,
) {
    let index = |list: &[Numstat]| -> HashMap<Vec<u8>, (Option<u64>, Option<u64>)> {
        list.iter()
            .map(|n| (n.path.clone(), (n.added, n.removed)))
            .collect()
    };
    let (si, ui) = (index(staged), index(unstaged));
    for f in &mut files {
        let key = f.path.as_os_str().as_bytes();
        for map in [&si, &ui] {
            if let Some((a, r)) = map.get(key) {
                match (a, r) {
                    (Some(a), Some(r)) => {
                        f.added += a;
                        f.removed += r;
                    }
                    _ => f.binary = true,
                }
            }
        }
    }
    let sum = |list: &[Numstat]| LineCounts {
        files: list.len(),
        added: list.iter().filter_map(|n| n.added).sum(),
        removed: list.iter().filter_map(|n| n.removed).sum(),
    };
    changes.staged = sum(staged);
    changes.unstaged = sum(unstaged);
    changes.untracked = total.untracked;
    changes.conflicted = total.conflicted;
    changes.files_total = total.files;
    changes.new_total = total.new;
    changes.files = files;
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Totals {
    files: usize,
    new: usize,
    untracked: usize,
    conflicted: usize,
}

#[derive(Debug, Default)]
struct Status {
    branch: Option<String>,
    head: Option<String>,
    divergence: Option<Divergence>,
    files: Vec<ChangedFile>,
    total: Totals,
}

fn state(letter: u8) -> Option<FileState> {
    Some(match letter {
        b'M' => FileState::Modified,
        b'A' => FileState::Added,
        b'D' => FileState::Deleted,
        b'R' => FileState::Renamed,
        b'C' => FileState::Copied,
        b'T' => FileState::TypeChanged,
        _ => return None,
    })
}

fn path_of(bytes: &[u8]) -> PathBuf {
    PathBuf::from(OsStr::from_bytes(bytes))
}

/// The fields of a record, split on single spaces; the last one (a path)
/// keeps its spaces.
fn fields(record: &[u8], n: usize) -> Option<Vec<&[u8]>> {
    let parts: Vec<&[u8]> = record.splitn(n, |b| *b == b' ').collect();
    (parts.len() == n).then_some(parts)
}

fn parse_status(out: &[u8]) -> Status {
    let mut s = Status::default();
    let mut upstream: Option<String> = None;
    let mut records = out.split(|b| *b == 0).filter(|r| !r.is_empty());
    while let Some(record) = records.next() {
        let text = || String::from_utf8_lossy(record);
        let mut file = None;
        match record.first() {
            Some(b'#') => {
                let line = text();
                let mut words = line.splitn(3, ' ').skip(1);
                let (key, value) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
                let value = crate::display::safe(value);
                match key {
                    "branch.oid" if value != "(initial)" => {
                        s.head = Some(value.chars().take(12).collect());
                    }
                    "branch.head" if value != "(detached)" => s.branch = Some(value),
                    "branch.upstream" => upstream = Some(value),
                    "branch.ab" => {
                        let mut n = value
                            .split(' ')
                            .map(|v| v.trim_start_matches(['+', '-']).parse::<u64>().unwrap_or(0));
                        if let Some(against) = upstream.clone() {
                            s.divergence = Some(Divergence {
                                against,
                                upstream: true,
                                ahead: n.next().unwrap_or(0),
                                behind: n.next().unwrap_or(0),
                            });
                        }
                    }
                    _ => {}
                }
            }
            Some(b'1') => {
                if let Some(f) = fields(record, 9) {
                    file = Some(entry(f[1], f[8], None));
                }
            }
            Some(b'2') => {
                let from = records.next();
                if let Some(f) = fields(record, 10) {
                    file = Some(entry(f[1], f[9], from));
                }
            }
            Some(b'u') => {
                if let Some(f) = fields(record, 11) {
                    let mut e = entry(b"..", f[10], None);
                    e.staged = Some(FileState::Conflicted);
                    s.total.conflicted += 1;
                    file = Some(e);
                }
            }
            Some(b'?') => {
                let path = record.get(2..).unwrap_or_default();
                let mut e = entry(b"..", path, None);
                e.untracked = true;
                s.total.untracked += 1;
                file = Some(e);
            }
            _ => {}
        }
        if let Some(f) = file {
            s.total.files += 1;
            if f.untracked || f.staged == Some(FileState::Added) {
                s.total.new += 1;
            }
            if s.files.len() < MAX_FILES {
                s.files.push(f);
            }
        }
    }
    s
}

fn entry(xy: &[u8], path: &[u8], from: Option<&[u8]>) -> ChangedFile {
    ChangedFile {
        path: path_of(path),
        from: from.map(path_of),
        staged: xy.first().copied().and_then(state),
        unstaged: xy.get(1).copied().and_then(state),
        untracked: false,
        binary: false,
        added: 0,
        removed: 0,
    }
}

/// Ahead/behind against the repository's base branch, for a branch with no
/// upstream: `origin/HEAD`'s branch, else `main`, else `master` — whichever
/// exists first and is not the branch itself.
fn base_divergence(git: &Git, repo: &Repo, branch: &str) -> Option<Divergence> {
    let refs = git
        .text(
            &repo.root,
            &[
                "for-each-ref",
                "--format=%(refname:short)\t%(symref:short)",
                "refs/remotes/origin/HEAD",
                "refs/heads/main",
                "refs/heads/master",
            ],
            READ_TIMEOUT,
        )
        .ok()?;
    let mut candidates: Vec<String> = Vec::new();
    for line in refs.lines() {
        let (name, target) = line.split_once('\t').unwrap_or((line, ""));
        let name = if target.is_empty() { name } else { target };
        candidates.push(name.to_owned());
    }
    // origin/HEAD first, then main, then master (for-each-ref sorts by name).
    candidates.sort_by_key(|c| (!c.starts_with("origin/"), c != "main"));
    let base = candidates
        .into_iter()
        .find(|c| c != branch && c.as_str() != format!("origin/{branch}"))?;
    if base.starts_with('-') {
        return None;
    }
    let range = format!("{base}...HEAD");
    let counts = git
        .text(
            &repo.root,
            &["rev-list", "--left-right", "--count", &range, "--"],
            READ_TIMEOUT,
        )
        .ok()?;
    let mut n = counts
        .split_whitespace()
        .map(|v| v.parse::<u64>().unwrap_or(0));
    let behind = n.next()?;
    let ahead = n.next()?;
    Some(Divergence {
        against: crate::display::safe(&base),
        upstream: false,
        ahead,
        behind,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_branch_upstream_and_every_kind_of_record() {
        let out = b"# branch.oid 0123456789abcdef0123\0# branch.head feat/x\0# branch.upstream origin/feat/x\0# branch.ab +3 -1\0\
1 .M N... 100644 100644 100644 aaa bbb src/a b.rs\0\
2 R. N... 100644 100644 100644 aaa bbb R100 new.rs\0old.rs\0\
u UU N... 100644 100644 100644 100644 a b c conflict.rs\0\
? new file\0";
        let s = parse_status(out);
        assert_eq!(s.branch.as_deref(), Some("feat/x"));
        assert_eq!(s.head.as_deref(), Some("0123456789ab"));
        let d = s.divergence.unwrap();
        assert_eq!(
            (d.against.as_str(), d.ahead, d.behind, d.upstream),
            ("origin/feat/x", 3, 1, true)
        );
        assert_eq!(s.files.len(), 4);
        assert_eq!(s.files[0].path, PathBuf::from("src/a b.rs"));
        assert_eq!(s.files[0].unstaged, Some(FileState::Modified));
        assert_eq!(s.files[0].staged, None);
        assert_eq!(s.files[1].from, Some(PathBuf::from("old.rs")));
        assert_eq!(s.files[1].staged, Some(FileState::Renamed));
        assert_eq!(s.files[2].staged, Some(FileState::Conflicted));
        assert!(s.files[3].untracked);
        assert_eq!(
            s.total,
            Totals {
                files: 4,
                new: 1,
                untracked: 1,
                conflicted: 1
            }
        );
    }

    #[test]
    fn a_detached_head_has_no_branch_and_garbage_is_skipped() {
        let s = parse_status(b"# branch.oid abc\0# branch.head (detached)\0zzz\x001 short\0");
        assert_eq!(s.branch, None);
        assert_eq!(s.head.as_deref(), Some("abc"));
        assert!(s.files.is_empty());
    }

    #[test]
    fn the_list_is_capped_and_the_counts_are_not() {
        let mut out = Vec::new();
        for i in 0..MAX_FILES + 10 {
            out.extend_from_slice(format!("? f{i}\0").as_bytes());
        }
        let s = parse_status(&out);
        assert_eq!(s.files.len(), MAX_FILES);
        assert_eq!(s.total.files, MAX_FILES + 10);
    }
}
