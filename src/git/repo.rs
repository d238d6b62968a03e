//! Finding the repository a folder belongs to, without running git: the
//! nearest `.git` above it, a folder or (for a worktree) a file naming its
//! git folder. That folder holds `HEAD` and `index`, which the watcher
//! follows.

use std::path::{Path, PathBuf};

use crate::model::GitOperation;

/// A `.git` file is one line; anything larger is not one.
const MAX_GITFILE: u64 = 4096;

/// A work tree and its git folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repo {
    /// The work tree's top folder (where `.git` is).
    pub root: PathBuf,
    /// The folder holding this work tree's `HEAD` and `index`.
    pub git_dir: PathBuf,
    /// Why the repository cannot be read (a `.git` file naming nothing).
    pub problem: Option<String>,
}

impl Repo {
    /// The operation left under way, from the files git keeps for it.
    pub fn operation(&self) -> Option<GitOperation> {
        let has = |name: &str| std::fs::symlink_metadata(self.git_dir.join(name)).is_ok();
        if has("rebase-merge") || has("rebase-apply") {
            Some(GitOperation::Rebase)
        } else if has("MERGE_HEAD") {
            Some(GitOperation::Merge)
        } else if has("CHERRY_PICK_HEAD") {
            Some(GitOperation::CherryPick)
        } else if has("REVERT_HEAD") {
            Some(GitOperation::Revert)
        } else if has("BISECT_LOG") {
            Some(GitOperation::Bisect)
        } else {
            None
        }
    }
}

/// The repository `dir` is in; `None` outside any (or for a folder that
/// does not exist).
pub fn discover(dir: &Path) -> Option<Repo> {
    if !dir.is_dir() {
        return None;
    }
    for root in dir.ancestors() {
        let dot_git = root.join(".git");
        let Ok(meta) = std::fs::symlink_metadata(&dot_git) else {
            continue;
        };
        let mut repo = Repo {
            root: root.to_path_buf(),
            git_dir: dot_git.clone(),
            problem: None,
        };
        if meta.is_dir() {
            if !dot_git.join("HEAD").is_file() {
                repo.problem = Some(format!(
                    "{} has no HEAD: a broken repository",
                    crate::display::safe_path(&dot_git)
                ));
            }
            return Some(repo);
        }
        if !meta.is_file() {
            repo.problem = Some(format!(
                "{} is not a folder or a file",
                crate::display::safe_path(&dot_git)
            ));
            return Some(repo);
        }
        match read_gitfile(&dot_git) {
            Ok(git_dir) => {
                if !git_dir.join("HEAD").is_file() {
                    repo.problem = Some(format!(
                        "{} names {}, which is not a git folder",
                        crate::display::safe_path(&dot_git),
                        crate::display::safe_path(&git_dir)
                    ));
                }
                repo.git_dir = git_dir;
            }
            Err(reason) => repo.problem = Some(reason),
        }
        return Some(repo);
    }
    None
}

/// A `.git` file: `gitdir: <path>`, relative to the file's folder if not absolute.
fn read_gitfile(path: &Path) -> Result<PathBuf, String> {
    use std::io::Read;
    let shown = crate::display::safe_path(path);
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let mut text = String::new();
    file.take(MAX_GITFILE)
        .read_to_string(&mut text)
        .map_err(|_| format!("{shown} is not a gitdir file"))?;
    let target = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("gitdir:"))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| format!("{shown} does not say `gitdir: <folder>`"))?;
    let target = Path::new(target);
    let base = path.parent().unwrap_or(Path::new("/"));
    Ok(if target.is_absolute() {
        target.to_path_buf()
    } else {
        base.join(target)
    })
}
