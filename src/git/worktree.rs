//! The git commands behind sessions' worktrees: made by spawn, made again
//! by restore, removed only when dismissing one greenroom made (the
//! policy lives in `ops/worktree.rs`; this is only git).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use super::{Git, GitError, READ_TIMEOUT, WRITE_TIMEOUT};

/// A question about the repository, read through a private view of it.
fn run(dir: &Path, args: &[&OsStr]) -> Result<String, GitError> {
    Git::new().text(dir, args, READ_TIMEOUT)
}

/// A change to the repository's own folder (see `Git::change`).
fn change(dir: &Path, args: &[&OsStr]) -> Result<(), GitError> {
    Git::new().change(dir, args, WRITE_TIMEOUT).map(drop)
}

/// Fills a worktree made with `--no-checkout`: checked out through a
/// view, so the git folder's `info/attributes` names no filter to run.
fn fill(path: &Path) -> Result<(), GitError> {
    Git::new()
        .run(path, &["reset", "--hard", "--quiet"], WRITE_TIMEOUT)
        .map(drop)
}

/// The top folder of the work tree holding `dir`.
pub fn toplevel(dir: &Path) -> Result<PathBuf, GitError> {
    run(dir, &["rev-parse".as_ref(), "--show-toplevel".as_ref()]).map(PathBuf::from)
}

/// Whether git takes `branch` as a branch name.
pub fn valid_branch(repo: &Path, branch: &str) -> bool {
    !branch.starts_with('-')
        && run(
            repo,
            &[
                "check-ref-format".as_ref(),
                "--branch".as_ref(),
                branch.as_ref(),
            ],
        )
        .is_ok()
}

/// `git worktree add --no-checkout -b <branch> -- <path>`, then filled.
pub fn add_new_branch(repo: &Path, branch: &str, path: &Path) -> Result<(), GitError> {
    let args = [
        "worktree".as_ref(),
        "add".as_ref(),
        "--no-checkout".as_ref(),
        "-b".as_ref(),
        branch.as_ref(),
        "--".as_ref(),
        path.as_os_str(),
    ];
    change(repo, &args)?;
    fill(path)
}

/// `git worktree add --no-checkout -- <path> <branch>` (an existing
/// branch), then filled.
pub fn add_existing(repo: &Path, path: &Path, branch: &str) -> Result<(), GitError> {
    let args = [
        "worktree".as_ref(),
        "add".as_ref(),
        "--no-checkout".as_ref(),
        "--".as_ref(),
        path.as_os_str(),
        branch.as_ref(),
    ];
    change(repo, &args)?;
    fill(path)
}

/// `git worktree prune`: forgets worktrees whose folder is gone.
pub fn prune(repo: &Path) -> Result<(), GitError> {
    change(repo, &["worktree".as_ref(), "prune".as_ref()])
}

/// `git worktree remove --force -- <path>`. git's own check for changes
/// runs a second git in the worktree that reads its git folder unguarded
/// (and misses ignored files), so the caller checks first with
/// [`uncommitted`]; `--force` still refuses a main work tree, a plain
/// folder and a locked worktree.
pub fn remove(repo: &Path, path: &Path) -> Result<(), GitError> {
    let args: [&OsStr; 5] = [
        "worktree".as_ref(),
        "remove".as_ref(),
        "--force".as_ref(),
        "--".as_ref(),
        path.as_os_str(),
    ];
    change(repo, &args)
}

/// `git branch -d <branch>`: git refuses a branch not merged.
pub fn delete_branch(repo: &Path, branch: &str) -> Result<(), GitError> {
    if branch.starts_with('-') {
        return Err(GitError::Failed {
            command: "branch -d".into(),
            message: format!("branch name {branch:?} may not start with '-'"),
        });
    }
    change(
        repo,
        &[
            "branch".as_ref(),
            "-d".as_ref(),
            "--".as_ref(),
            branch.as_ref(),
        ],
    )
}

/// Whether `branch` is merged into the branch checked out in `repo`.
pub fn is_merged(repo: &Path, branch: &str) -> Result<bool, GitError> {
    let refname = format!("refs/heads/{branch}");
    let out = run(
        repo,
        &[
            "branch".as_ref(),
            "--merged".as_ref(),
            "HEAD".as_ref(),
            "--format=%(refname)".as_ref(),
        ],
    )?;
    Ok(out.lines().any(|l| l == refname))
}

/// At most this many files are named; the count covers them all.
pub const MAX_LISTED: usize = 20;

/// What removing a work tree would lose: changed, untracked and ignored
/// files (an ignored `.env` or local database is work too).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Uncommitted {
    /// The first [`MAX_LISTED`], each as `changed PATH`, `untracked PATH`
    /// or `ignored PATH` (a folder ends in `/` and stands for all it holds).
    pub listed: Vec<String>,
    pub total: usize,
}

impl Uncommitted {
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The list on one line: `ignored .env, untracked notes.md and 3 more`.
    pub fn summary(&self) -> String {
        let mut text = self.listed.join(", ");
        let more = self.total.saturating_sub(self.listed.len());
        if more > 0 {
            text.push_str(&format!(" and {more} more"));
        }
        text
    }
}

/// What in the work tree at `path` is not committed, ignored files
/// included; a worktree with submodules counts as holding work, since
/// their own work trees are not looked into.
pub fn uncommitted(path: &Path) -> Result<Uncommitted, GitError> {
    let out = Git::new().run(
        path,
        &[
            "status",
            "--porcelain",
            "-z",
            "--ignored",
            "--untracked-files=normal",
            "--ignore-submodules=dirty",
        ],
        READ_TIMEOUT,
    )?;
    let mut found = parse_porcelain(&out.stdout);
    if std::fs::symlink_metadata(path.join(".gitmodules")).is_ok() {
        found.total += 1;
        if found.listed.len() < MAX_LISTED {
            found.listed.push("submodules (not looked into)".into());
        }
    }
    Ok(found)
}

/// `status --porcelain -z`: `XY PATH`, a rename's source in the next
/// record.
fn parse_porcelain(out: &[u8]) -> Uncommitted {
    let mut found = Uncommitted::default();
    let mut records = out.split(|b| *b == 0).filter(|r| !r.is_empty());
    while let Some(record) = records.next() {
        let (Some(xy), Some(path)) = (record.get(..2), record.get(3..)) else {
            continue;
        };
        if matches!(xy[0], b'R' | b'C') {
            records.next();
        }
        let kind = match xy {
            b"??" => "untracked",
            b"!!" => "ignored",
            _ => "changed",
        };
        found.total += 1;
        if found.listed.len() < MAX_LISTED {
            found
                .listed
                .push(format!("{kind} {}", super::show_path(path)));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_work_is_named_and_counted() {
        let found =
            parse_porcelain(b" M src/a.rs\0R  new\0old\0?? notes.md\0!! .env\0!! target/\0");
        assert_eq!(
            found.listed,
            [
                "changed src/a.rs",
                "changed new",
                "untracked notes.md",
                "ignored .env",
                "ignored target/"
            ]
        );
        assert_eq!(found.total, 5);
        assert_eq!(
            found.summary(),
            "changed src/a.rs, changed new, untracked notes.md, ignored .env, ignored target/"
        );
    }
}
