//! A work tree whose agent wrote git config, attributes or a git folder of
//! its own to run a program: every git read greenroom makes (the reader
//! behind the dashboard and `watch --json`: status, numstat and the pull
//! request lookup through `gh`; the Changes tab's diff; dismiss's check for
//! uncommitted work; spawn's `worktree add`) runs none of it, with real
//! git, and still sees the changes.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use greenroom::git::{self, Git, Monitor};
use greenroom::model::{ChangedFile, Changes};

use crate::support::actions::stub;
use crate::support::git::{git_in, repo_with};

/// A hostile work tree in a temp folder: `root` (a repository on `main`
/// with `a.txt` committed, then changed, and `new.txt` untracked), the
/// program an agent wants run (`evil`), the file it leaves when it runs.
struct Hostile {
    _dir: tempfile::TempDir,
    base: PathBuf,
    root: PathBuf,
    evil: PathBuf,
    marker: PathBuf,
}

impl Hostile {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().to_path_buf();
        let marker = base.join("RAN");
        // Writes the marker, then behaves as a filter would (stdin to
        // stdout); to an ssh request it answers nothing.
        let evil = stub(
            &base.join("bin"),
            "evil",
            &format!(
                "echo \"$0 $*\" >> '{}'\ncase \"$*\" in *example.invalid*) exit 1;; esac\nexec cat",
                marker.display()
            ),
        );
        let root = repo_with(&base.join("repo"), &[("a.txt", "one\n")]);
        // An upstream, so the reader asks `gh` for the branch's pull request.
        git_in(&root, &["update-ref", "refs/remotes/origin/main", "HEAD"]);
        git_in(
            &root,
            &["config", "remote.origin.url", "https://example.invalid/x"],
        );
        git_in(
            &root,
            &[
                "config",
                "remote.origin.fetch",
                "+refs/heads/*:refs/remotes/origin/*",
            ],
        );
        git_in(&root, &["config", "branch.main.remote", "origin"]);
        git_in(&root, &["config", "branch.main.merge", "refs/heads/main"]);
        Self {
            _dir: dir,
            base,
            root,
            evil,
            marker,
        }
    }

    fn evil(&self) -> &str {
        self.evil.to_str().unwrap()
    }

    /// Sets a key in the repository's own config, as the agent would.
    fn config(&self, key: &str, value: &str) {
        git_in(&self.root, &["config", key, value]);
    }

    /// Commits a `.gitattributes` of `line` (before any knob is set, so
    /// committing it runs nothing).
    fn attributes(&self, line: &str) {
        std::fs::write(self.root.join(".gitattributes"), format!("{line}\n")).unwrap();
        git_in(&self.root, &["add", ".gitattributes"]);
        git_in(&self.root, &["commit", "-q", "-m", "attributes"]);
        git_in(
            &self.root,
            &["update-ref", "refs/remotes/origin/main", "HEAD"],
        );
    }

    /// The agent's edits, made after its config and attributes: `a.txt`
    /// gains a line, `new.txt` appears.
    fn edit(&self) {
        std::fs::write(self.root.join("a.txt"), "one\ntwo\n").unwrap();
        std::fs::write(self.root.join("new.txt"), "fresh\n").unwrap();
    }

    fn ran(&self) -> String {
        std::fs::read_to_string(&self.marker).unwrap_or_default()
    }

    /// A `gh` that runs git in its folder as the real one does, then
    /// answers with a pull request.
    fn gh_dir(&self) -> PathBuf {
        let dir = self.base.join("gh-bin");
        stub(
            &dir,
            "gh",
            "git status --porcelain >/dev/null 2>&1\n\
             git diff >/dev/null 2>&1\n\
             git log -1 --show-signature >/dev/null 2>&1\n\
             echo '{\"url\":\"https://example.invalid/pr/7\",\"number\":7,\"state\":\"OPEN\"}'",
        );
        dir
    }

    /// Everything greenroom reads in the tree, each checked to be right,
    /// then that `evil` never ran.
    fn read_everything(&self) {
        self.read_everything_in(&self.root);
    }

    fn read_everything_in(&self, root: &Path) {
        let changes = through_the_reader(root, &self.gh_dir());
        assert_eq!(changes.problem, None, "{changes:#?}");
        let a = changed(&changes, "a.txt");
        assert_eq!((a.added, a.removed), (1, 0), "{changes:#?}");
        assert_eq!(changes.untracked, 1, "{changes:#?}");
        assert_eq!(
            changes.pr.as_ref().map(|p| p.number),
            Some(Some(7)),
            "the pull request lookup answered: {changes:#?}"
        );

        let diff = git::file_diff(&Git::new(), root, a, false).unwrap();
        assert!(diff.text.contains("two"), "{}", diff.text);
        let new = changed(&changes, "new.txt");
        let diff = git::file_diff(&Git::new(), root, new, false).unwrap();
        assert!(diff.text.contains("fresh"), "{}", diff.text);

        let work = git::worktree::uncommitted(root).unwrap();
        assert!(work.total >= 2, "{work:?}");
        assert_eq!(git::worktree::toplevel(root).unwrap(), root);

        assert_eq!(self.ran(), "", "the agent's program ran");
    }
}

fn changed<'a>(c: &'a Changes, path: &str) -> &'a ChangedFile {
    c.files
        .iter()
        .find(|f| f.path == Path::new(path))
        .unwrap_or_else(|| panic!("no {path} in {c:#?}"))
}

/// The reader the dashboard and `watch --json` run: status, numstat, then
/// the pull request from the `gh` found on `path`.
fn through_the_reader(root: &Path, gh_dir: &Path) -> Changes {
    let monitor = Monitor::start(Git::new(), Some(gh_dir.as_os_str().to_owned()), || {});
    monitor.add(git::discover(root).unwrap());
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some((_, changes)) = monitor.take_results().pop() {
            return changes;
        }
        assert!(Instant::now() < deadline, "the reader never answered");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn core_fsmonitor_is_not_run() {
    let h = Hostile::new();
    h.config("core.fsmonitor", h.evil());
    h.edit();
    h.read_everything();
}

#[test]
fn a_clean_filter_named_by_gitattributes_is_not_run() {
    let h = Hostile::new();
    h.attributes("* filter=x");
    h.config("filter.x.clean", h.evil());
    h.config("filter.x.smudge", h.evil());
    h.edit();
    h.read_everything();
}

#[test]
fn a_process_filter_is_not_run() {
    let h = Hostile::new();
    h.attributes("*.txt filter=x");
    h.config("filter.x.process", h.evil());
    h.edit();
    h.read_everything();
}

#[test]
fn a_filter_named_by_the_git_folders_info_attributes_is_not_run() {
    let h = Hostile::new();
    h.config("filter.x.clean", h.evil());
    std::fs::create_dir_all(h.root.join(".git/info")).unwrap();
    std::fs::write(h.root.join(".git/info/attributes"), "* filter=x\n").unwrap();
    h.edit();
    h.read_everything();
}

#[test]
fn a_knob_in_an_included_file_is_not_run() {
    let h = Hostile::new();
    let included = h.base.join("included.cfg");
    std::fs::write(
        &included,
        format!(
            "[core]\n\tfsmonitor = {}\n[filter \"y\"]\n\tclean = {0}\n",
            h.evil()
        ),
    )
    .unwrap();
    h.attributes("*.txt filter=y");
    h.config("include.path", included.to_str().unwrap());
    h.edit();
    h.read_everything();
}

#[test]
fn a_knob_in_a_conditionally_included_file_is_not_run() {
    let h = Hostile::new();
    let included = h.base.join("included.cfg");
    std::fs::write(&included, format!("[core]\n\tfsmonitor = {}\n", h.evil())).unwrap();
    h.config("includeIf.gitdir:/.path", included.to_str().unwrap());
    h.edit();
    h.read_everything();
}

#[test]
fn a_textconv_driver_is_not_run_for_the_diff() {
    let h = Hostile::new();
    h.attributes("*.txt diff=x");
    h.config("diff.x.textconv", h.evil());
    h.config("diff.x.command", h.evil());
    h.config("diff.external", h.evil());
    h.edit();
    h.read_everything();
}

#[test]
fn hooks_are_not_run_and_gpg_is_not_asked() {
    let h = Hostile::new();
    let hooks = h.base.join("hooks");
    for name in [
        "post-checkout",
        "pre-commit",
        "post-commit",
        "reference-transaction",
        "post-index-change",
        "pre-auto-gc",
    ] {
        stub(&hooks, name, &format!("exec '{}' hook", h.evil()));
    }
    h.config("core.hooksPath", hooks.to_str().unwrap());
    h.config("gpg.program", h.evil());
    h.config("gpg.ssh.program", h.evil());
    h.config("log.showSignature", "true");
    h.edit();
    h.read_everything();
    // spawn's and restore's `worktree add`, and dismiss's removal.
    let path = h.base.join("repo-feat");
    git::worktree::add_new_branch(&h.root, "feat", &path).unwrap();
    assert!(path.join("a.txt").is_file(), "the new worktree is filled");
    git::worktree::remove(&h.root, &path).unwrap();
    git::worktree::add_existing(&h.root, &path, "feat").unwrap();
    assert!(path.join("a.txt").is_file());
    assert_eq!(h.ran(), "", "a hook ran");
}

#[test]
fn a_missing_object_of_a_partial_clone_is_not_fetched_over_ssh() {
    let h = Hostile::new();
    // a.txt's committed blob is gone and a promisor remote would fetch it
    // through core.sshCommand.
    let blob = git_in(&h.root, &["rev-parse", "HEAD:a.txt"]);
    std::fs::remove_file(
        h.root
            .join(".git/objects")
            .join(&blob[..2])
            .join(&blob[2..]),
    )
    .unwrap();
    h.config("core.repositoryformatversion", "1");
    h.config("extensions.partialClone", "origin");
    h.config("remote.origin.url", "ssh://example.invalid/x");
    h.config("remote.origin.promisor", "true");
    h.config("core.sshCommand", h.evil());
    h.edit();
    let changes = through_the_reader(&h.root, &h.gh_dir());
    let a = changes.files.iter().find(|f| f.path == Path::new("a.txt"));
    assert!(a.is_some(), "status still lists a.txt: {changes:#?}");
    let _ = git::file_diff(&Git::new(), &h.root, a.unwrap(), false);
    assert_eq!(h.ran(), "", "ssh ran");
}

#[test]
fn a_linked_worktree_pointing_at_a_git_folder_of_the_agents_making_runs_nothing() {
    let h = Hostile::new();
    // The agent's own git folder: a copy of the repository's, with its
    // config and info/attributes naming the program; the work tree's
    // `.git` file points there.
    let own = h.base.join("agent-git");
    let copied = std::process::Command::new("cp")
        .arg("-R")
        .arg(h.root.join(".git"))
        .arg(&own)
        .status()
        .unwrap();
    assert!(copied.success());
    let tree = h.base.join("tree");
    std::fs::create_dir_all(&tree).unwrap();
    std::fs::write(tree.join(".git"), format!("gitdir: {}\n", own.display())).unwrap();
    git_in(&own, &["config", "core.fsmonitor", h.evil()]);
    git_in(&own, &["config", "filter.z.clean", h.evil()]);
    git_in(&own, &["config", "filter.z.process", h.evil()]);
    std::fs::create_dir_all(own.join("info")).unwrap();
    std::fs::write(own.join("info/attributes"), "* filter=z\n").unwrap();
    std::fs::write(tree.join("a.txt"), "one\ntwo\n").unwrap();
    std::fs::write(tree.join("new.txt"), "fresh\n").unwrap();
    h.read_everything_in(&tree);
}

#[test]
fn a_git_too_old_for_attr_source_is_a_problem_not_a_read() {
    let h = Hostile::new();
    // What git 2.39 answers to an option it does not know.
    let old = stub(
        &h.base.join("old-bin"),
        "git",
        "echo 'unknown option: --attr-source=4b825dc' >&2\nexit 129",
    );
    let changes = git::read_changes(&Git::with_program(old), &git::discover(&h.root).unwrap());
    let problem = changes.problem.unwrap_or_default();
    assert!(problem.contains("needs git 2.40 or newer"), "{problem}");
}
