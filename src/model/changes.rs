//! What git says about a session's work tree: branch, how far it is from
//! its upstream (or base branch), and which files changed. Plain data.

use std::path::PathBuf;

/// Lines added and removed over some files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LineCounts {
    pub files: usize,
    pub added: u64,
    pub removed: u64,
}

/// How one side (index or work tree) changed a file, from git's XY letters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileState {
    Modified,
    Added,
    Deleted,
    Renamed,
    Copied,
    TypeChanged,
    /// Both sides changed it and git could not merge: a conflict.
    Conflicted,
}

impl FileState {
    /// git's own letter for it.
    pub fn letter(self) -> char {
        match self {
            FileState::Modified => 'M',
            FileState::Added => 'A',
            FileState::Deleted => 'D',
            FileState::Renamed => 'R',
            FileState::Copied => 'C',
            FileState::TypeChanged => 'T',
            FileState::Conflicted => 'U',
        }
    }
}

/// One changed file of a work tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangedFile {
    /// Relative to the work tree's top folder, as git printed it (bytes
    /// kept exactly, so it can be handed back to git).
    pub path: PathBuf,
    /// A rename's or copy's source.
    pub from: Option<PathBuf>,
    /// The change recorded in the index (staged), if any.
    pub staged: Option<FileState>,
    /// The change in the work tree not yet staged, if any.
    pub unstaged: Option<FileState>,
    pub untracked: bool,
    /// git calls it binary: no line counts.
    pub binary: bool,
    pub added: u64,
    pub removed: u64,
}

/// A git operation left under way (the work tree is mid-rebase, say).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GitOperation {
    Rebase,
    Merge,
    CherryPick,
    Revert,
    Bisect,
}

impl GitOperation {
    pub fn as_str(self) -> &'static str {
        match self {
            GitOperation::Rebase => "rebase",
            GitOperation::Merge => "merge",
            GitOperation::CherryPick => "cherry-pick",
            GitOperation::Revert => "revert",
            GitOperation::Bisect => "bisect",
        }
    }
}

/// How far a branch is from the one it is compared with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    /// The upstream (`origin/feat`) or, without one, the base branch.
    pub against: String,
    /// True when `against` is the upstream, false for a base branch.
    pub upstream: bool,
    pub ahead: u64,
    pub behind: u64,
}

/// A work tree's state as of one read.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Changes {
    /// The work tree's top folder.
    pub root: PathBuf,
    /// The branch checked out; `None` on a detached HEAD.
    pub branch: Option<String>,
    /// The commit checked out, abbreviated; `None` before the first commit.
    pub head: Option<String>,
    pub divergence: Option<Divergence>,
    pub operation: Option<GitOperation>,
    pub staged: LineCounts,
    pub unstaged: LineCounts,
    pub untracked: usize,
    pub conflicted: usize,
    /// The changed files, at most `git::MAX_FILES` of them.
    pub files: Vec<ChangedFile>,
    /// How many files changed in all (more than `files` holds when capped).
    pub files_total: usize,
    /// How many of `files_total` are new to git (untracked or added).
    pub new_total: usize,
    /// What went wrong reading it (a broken repository, git timing out):
    /// shown as a problem; the rest may be empty.
    pub problem: Option<String>,
    /// A pull request for the branch (`gh pr view`), when known.
    pub pr: Option<PullRequest>,
}

impl Changes {
    /// Files new to git (untracked or staged as added), over all files.
    pub fn new_files(&self) -> usize {
        self.new_total
    }

    /// Files changed but not new.
    pub fn changed_files(&self) -> usize {
        self.files_total.saturating_sub(self.new_total)
    }

    pub fn is_clean(&self) -> bool {
        self.files_total == 0
    }

    /// The compact sidebar column: `+3 ~2` (new files, changed files);
    /// empty for a clean tree.
    pub fn compact(&self) -> String {
        let (new, changed) = (self.new_files(), self.changed_files());
        match (new, changed) {
            (0, 0) => String::new(),
            (n, 0) => format!("+{n}"),
            (0, c) => format!("~{c}"),
            (n, c) => format!("+{n} ~{c}"),
        }
    }
}

/// A pull request as `gh pr view` or Agent Orchestrator reported it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PullRequest {
    pub url: String,
    pub number: Option<u64>,
    pub state: Option<String>,
}
