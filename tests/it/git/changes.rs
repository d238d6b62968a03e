//! What git says about a work tree, read from real repositories in temp
//! folders: changed, staged, untracked, renamed and binary files, a
//! detached HEAD, a rebase stopped on a conflict, a 10,000-file tree, and
//! folders that are not (or no longer) repositories.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

mod live;
mod worktrees;

use std::path::Path;
use std::process::Command;

use greenroom::git::{self, Git};
use greenroom::model::{Changes, FileState, GitOperation};

use crate::support::git::{git_in, read, repo_with};

fn file<'a>(c: &'a Changes, path: &str) -> &'a greenroom::model::ChangedFile {
    c.files
        .iter()
        .find(|f| f.path == Path::new(path))
        .unwrap_or_else(|| panic!("no {path} in {:#?}", c.files))
}

#[test]
fn every_kind_of_change_is_counted_and_marked() {
    let dir = tempfile::tempdir().unwrap();
    let root = repo_with(
        dir.path(),
        &[
            ("src/a.rs", "1\n2\n3\n"),
            ("old.txt", "keep\nme\n"),
            ("logo.bin", "x"),
        ],
    );
    std::fs::write(root.join("src/a.rs"), "1\nTWO\n3\n4\n").unwrap(); // unstaged: +2 -1
    std::fs::write(root.join("staged.rs"), "a\nb\n").unwrap();
    git_in(&root, &["add", "staged.rs"]); // staged new: +2
    git_in(&root, &["mv", "old.txt", "new.txt"]); // staged rename
    std::fs::write(root.join("logo.bin"), [0u8, 1, 2, 0, 255]).unwrap(); // binary
    std::fs::write(root.join("notes.md"), "untracked\n").unwrap();

    let c = read(&root);
    assert_eq!(c.problem, None);
    assert_eq!(c.branch.as_deref(), Some("main"));
    assert!(c.head.is_some());
    assert_eq!(c.files_total, 5, "{:#?}", c.files);
    let a = file(&c, "src/a.rs");
    assert_eq!((a.staged, a.unstaged), (None, Some(FileState::Modified)));
    assert_eq!((a.added, a.removed), (2, 1));
    let s = file(&c, "staged.rs");
    assert_eq!(
        (s.staged, s.unstaged, s.added),
        (Some(FileState::Added), None, 2)
    );
    let r = file(&c, "new.txt");
    assert_eq!(r.staged, Some(FileState::Renamed));
    assert_eq!(r.from.as_deref(), Some(Path::new("old.txt")));
    assert!(file(&c, "logo.bin").binary);
    assert!(file(&c, "notes.md").untracked);
    assert_eq!(c.untracked, 1);
    assert_eq!((c.staged.files, c.staged.added), (2, 2));
    assert_eq!(
        (c.unstaged.files, c.unstaged.added, c.unstaged.removed),
        (2, 2, 1)
    );
    assert_eq!(c.compact(), "+2 ~3");

    // Each side's diff, without colour (the view colours it); an untracked
    // file as new.
    let g = Git::new();
    let d = git::file_diff(&g, &root, a, false).unwrap();
    assert!(
        !d.text.contains('\x1b') && d.text.contains("+TWO"),
        "{:?}",
        d.text
    );
    let d = git::file_diff(&g, &root, s, true).unwrap();
    assert!(
        d.text.contains("new file mode") && d.text.contains("+++ b/staged.rs"),
        "{:?}",
        d.text
    );
    assert!(git::file_diff(&g, &root, s, false).unwrap().text.is_empty());
    let d = git::file_diff(&g, &root, file(&c, "notes.md"), false).unwrap();
    assert!(
        d.text.contains("untracked") && d.text.contains("new file"),
        "{:?}",
        d.text
    );
}

#[test]
fn a_branch_without_upstream_is_compared_with_main_and_a_detached_head_has_no_branch() {
    let dir = tempfile::tempdir().unwrap();
    let root = repo_with(dir.path(), &[("a", "1\n")]);
    git_in(&root, &["checkout", "-q", "-b", "feat"]);
    git_in(&root, &["commit", "-q", "--allow-empty", "-m", "one"]);
    git_in(&root, &["commit", "-q", "--allow-empty", "-m", "two"]);
    let c = read(&root);
    let d = c.divergence.expect("against main");
    assert_eq!(
        (d.against.as_str(), d.upstream, d.ahead, d.behind),
        ("main", false, 2, 0)
    );

    git_in(&root, &["checkout", "-q", "--detach", "HEAD~1"]);
    let c = read(&root);
    assert_eq!(c.branch, None);
    assert!(c.head.is_some());
    assert_eq!(c.problem, None);
}

#[test]
fn a_rebase_stopped_on_a_conflict_is_a_marker_not_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    let root = repo_with(dir.path(), &[("a", "base\n")]);
    git_in(&root, &["checkout", "-q", "-b", "feat"]);
    std::fs::write(root.join("a"), "feat\n").unwrap();
    git_in(&root, &["commit", "-q", "-am", "feat"]);
    git_in(&root, &["checkout", "-q", "main"]);
    std::fs::write(root.join("a"), "main\n").unwrap();
    git_in(&root, &["commit", "-q", "-am", "main"]);
    git_in(&root, &["checkout", "-q", "feat"]);
    let out = Command::new("git")
        .args(["-c", "user.email=t@t", "-c", "user.name=t", "-C"])
        .arg(&root)
        .args(["rebase", "main"])
        .output()
        .unwrap();
    assert!(
        !out.status.success(),
        "the rebase should stop on the conflict"
    );
    let c = read(&root);
    assert_eq!(c.operation, Some(GitOperation::Rebase));
    assert_eq!(c.conflicted, 1);
    assert_eq!(file(&c, "a").staged, Some(FileState::Conflicted));
    assert_eq!(c.problem, None);
}

#[test]
fn a_folder_outside_git_is_nothing_and_a_broken_one_a_problem() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain");
    std::fs::create_dir_all(&plain).unwrap();
    assert_eq!(git::discover(&plain), None);

    let broken = dir.path().join("broken");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(broken.join(".git"), "gitdir: /nowhere/at/all\n").unwrap();
    let c = read(&broken);
    assert!(
        c.problem.as_deref().unwrap().contains("not a git folder"),
        "{c:?}"
    );

    let empty_git = dir.path().join("empty");
    std::fs::create_dir_all(empty_git.join(".git")).unwrap();
    let c = read(&empty_git);
    assert!(c.problem.as_deref().unwrap().contains("broken"), "{c:?}");
}

#[test]
fn a_path_that_is_not_utf8_is_shown_safely_and_handed_back_exactly() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let root = repo_with(dir.path(), &[]);
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9\x1b[31m.txt");
    std::fs::write(root.join(name), "x\n").unwrap();
    let c = read(&root);
    assert_eq!(c.files.len(), 1);
    assert_eq!(c.files[0].path.as_os_str(), name);
    let d = git::file_diff(&Git::new(), &root, &c.files[0], false).unwrap();
    assert!(d.text.contains("+x") || d.text.contains("x"), "{d:?}");
}

#[test]
fn a_ten_thousand_file_tree_keeps_a_capped_list_and_every_count() {
    let dir = tempfile::tempdir().unwrap();
    let root = repo_with(dir.path(), &[("README", "r\n")]);
    for d in 0..100 {
        let folder = root.join(format!("d{d}"));
        std::fs::create_dir_all(&folder).unwrap();
        for f in 0..100 {
            std::fs::write(folder.join(format!("f{f}.txt")), "line\n").unwrap();
        }
    }
    git_in(&root, &["add", "-A"]);
    git_in(&root, &["commit", "-q", "-m", "10k"]);
    for d in 0..100 {
        for f in 0..100 {
            std::fs::write(root.join(format!("d{d}/f{f}.txt")), "line\nmore\n").unwrap();
        }
    }
    let started = std::time::Instant::now();
    let c = read(&root);
    eprintln!("10,000 changed files read in {:?}", started.elapsed());
    assert_eq!(c.files_total, 10_000);
    assert_eq!(c.files.len(), git::MAX_FILES);
    assert_eq!((c.unstaged.files, c.unstaged.added), (10_000, 10_000));
    assert_eq!(c.compact(), "~10000");
}
