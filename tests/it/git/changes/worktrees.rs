//! `greenroom dismiss ID --remove-worktree`: the worktree greenroom made
//! goes with the session, its branch too when merged; uncommitted changes
//! need a second confirmation; nothing else is ever removed.

use std::path::Path;

use crate::support::World;
use crate::support::actions::{
    Greenroom, branch_exists, git_repo, path_str, server, sidecar_files,
};

fn spawn_in_worktree(gr: &Greenroom, repo: &Path, name: &str, branch: &str) {
    gr.ok(&[
        "spawn",
        "-n",
        name,
        "--cwd",
        path_str(repo),
        "--worktree",
        branch,
        "--",
        "sleep 600",
    ]);
    gr.ok(&["kill", "-y", name]);
}

#[test]
fn a_clean_worktree_and_its_merged_branch_go_with_the_session() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let repo = git_repo(&world.path("src/api"));
    spawn_in_worktree(&gr, &repo, "wt", "feat");
    let path = world.path("src/api-feat");
    assert!(path.is_dir());

    let out = gr.ok(&["dismiss", "-y", "wt", "--remove-worktree"]);
    assert!(out.contains("removed the worktree"), "{out}");
    assert!(out.contains("deleted the merged branch feat"), "{out}");
    assert!(!path.exists());
    assert!(!branch_exists(&repo, "feat"));
    assert!(sidecar_files(&world).is_empty());
}

#[test]
fn uncommitted_changes_need_a_second_confirmation_and_an_unmerged_branch_stays() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let repo = git_repo(&world.path("src/api"));
    spawn_in_worktree(&gr, &repo, "wt", "feat");
    let path = world.path("src/api-feat");
    super::git_in(&path, &["commit", "-q", "--allow-empty", "-m", "work"]);
    std::fs::write(path.join("notes.md"), "not committed\n").unwrap();

    let err = gr.refused(&["dismiss", "-y", "wt", "--remove-worktree"]);
    assert!(
        err.contains("has uncommitted changes (untracked notes.md); nothing was dismissed"),
        "{err}"
    );
    assert!(path.join("notes.md").is_file());
    assert_eq!(sidecar_files(&world).len(), 1, "nothing was dismissed");

    let out = gr.ok(&[
        "dismiss",
        "-y",
        "wt",
        "--remove-worktree",
        "--discard-changes",
    ]);
    assert!(out.contains("removed the worktree"), "{out}");
    assert!(
        out.contains("branch feat is not merged; it was kept"),
        "{out}"
    );
    assert!(!path.exists());
    assert!(branch_exists(&repo, "feat"));
}

#[test]
fn a_session_whose_folder_greenroom_did_not_make_keeps_it() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let repo = git_repo(&world.path("src/api"));
    gr.ok(&[
        "spawn",
        "-n",
        "plain",
        "--cwd",
        path_str(&repo),
        "--",
        "sleep 600",
    ]);
    gr.ok(&["kill", "-y", "plain"]);
    let err = gr.refused(&["dismiss", "-y", "plain", "--remove-worktree"]);
    assert!(err.contains("has no worktree greenroom made"), "{err}");
    assert!(repo.join(".git").is_dir());
    assert_eq!(sidecar_files(&world).len(), 1);
}

#[test]
fn ignored_files_count_as_work_and_are_named_before_they_go() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let repo = git_repo(&world.path("src/api"));
    spawn_in_worktree(&gr, &repo, "wt", "feat");
    let path = world.path("src/api-feat");
    // The agent ignores everything, its own .gitignore included: git
    // status --porcelain shows nothing, and git worktree remove would
    // delete the secrets and the database.
    std::fs::write(path.join(".gitignore"), "*\n").unwrap();
    std::fs::write(path.join(".env"), "TOKEN=1\n").unwrap();
    std::fs::create_dir_all(path.join("data")).unwrap();
    std::fs::write(path.join("data/local.db"), "rows").unwrap();

    let err = gr.refused(&["dismiss", "-y", "wt", "--remove-worktree"]);
    assert!(err.contains("has uncommitted changes ("), "{err}");
    assert!(err.contains("ignored .env"), "{err}");
    assert!(err.contains("ignored data/"), "{err}");
    assert!(err.contains("nothing was dismissed"), "{err}");
    assert!(path.join(".env").is_file());
    assert!(path.join("data/local.db").is_file());
    assert_eq!(sidecar_files(&world).len(), 1, "nothing was dismissed");

    let out = gr.ok(&[
        "dismiss",
        "-y",
        "wt",
        "--remove-worktree",
        "--discard-changes",
    ]);
    assert!(out.contains("removed the worktree"), "{out}");
    assert!(!path.exists());
    assert!(sidecar_files(&world).is_empty());
}

#[test]
fn a_removal_git_refuses_leaves_the_session_unarchived() {
    let world = World::new();
    let tmux = server();
    let gr = Greenroom::new(&world, &tmux);
    let repo = git_repo(&world.path("src/api"));
    spawn_in_worktree(&gr, &repo, "wt", "feat");
    let path = world.path("src/api-feat");
    // A locked worktree: git refuses to remove it.
    super::git_in(&repo, &["worktree", "lock", path_str(&path)]);

    let err = gr.refused(&["dismiss", "-y", "wt", "--remove-worktree"]);
    assert!(err.contains("locked"), "{err}");
    assert!(path.is_dir());
    assert_eq!(
        sidecar_files(&world).len(),
        1,
        "the record stays while its worktree does"
    );
    assert!(branch_exists(&repo, "feat"));
}
