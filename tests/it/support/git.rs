//! Real git repositories in temp folders, made and read as the tests need
//! them: git run with a fixed identity and `main` as the first branch.

use std::path::{Path, PathBuf};
use std::process::Command;

use greenroom::git::{self, Git};
use greenroom::model::Changes;

/// Runs git in `dir`; panics with its output on failure; its stdout.
pub fn git_in(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.email=t@t",
            "-c",
            "user.name=t",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// A repository on `main` with `files` committed.
pub fn repo_with(dir: &Path, files: &[(&str, &str)]) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    git_in(dir, &["init", "-q"]);
    for (path, body) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, body).unwrap();
    }
    git_in(dir, &["add", "-A"]);
    git_in(dir, &["commit", "-q", "--allow-empty", "-m", "init"]);
    dir.to_path_buf()
}

/// What greenroom's git reader says about the repository at `dir`.
pub fn read(dir: &Path) -> Changes {
    let repo = git::discover(dir).expect("a repository");
    git::read_changes(&Git::new(), &repo)
}
