//! What keeps git from starting a program that a work tree names.
//!
//! The agent owns its work tree and the git folder behind it (a linked
//! worktree's `.git` file may even name a git folder of its own making), so
//! every file git reads there is untrusted: repository config (and whatever
//! it includes), `.gitattributes`, `$GIT_DIR/info/attributes`, hooks. Three
//! things together keep git from running any program they name:
//!
//! - **Config.** Every key that makes git start a program is given on the
//!   command line ([`OVERRIDES`], as `-c`), which wins over every config
//!   file, whichever file (or include) sets it. Diffs also pass
//!   `--no-ext-diff --no-textconv`, and status and diff
//!   `--ignore-submodules=dirty` (a submodule's own status is a second git
//!   that reads the submodule's git folder unguarded).
//! - **Attributes.** A filter driver's name comes from attributes, and no
//!   `-c` can name every driver an agent may invent; so no attribute file
//!   of the tree applies: `--attr-source=<the empty tree>` replaces the
//!   work tree's `.gitattributes` (git 2.40 or newer: an older git refuses
//!   the option, so it fails and runs nothing), `GIT_ATTR_NOSYSTEM` and
//!   `core.attributesFile=/dev/null` drop the machine's and the user's.
//! - **The git folder's own attributes and hooks.** `info/attributes`
//!   outranks all of that and no option turns it off, so git reads a
//!   [`View`]: `GIT_DIR` is the work tree's git folder (its `HEAD`, its
//!   index), `GIT_WORK_TREE` its top folder, and `GIT_COMMON_DIR` a private
//!   folder greenroom makes for the call, with links to the repository's
//!   objects, refs, config and the rest, but no `hooks` and no
//!   `info/attributes`.
//!
//! The same keys also go in the environment (`GIT_CONFIG_COUNT`, with
//! `GIT_ATTR_SOURCE`), which every git started by git or by `gh` reads;
//! `GIT_NO_LAZY_FETCH` and `protocol.*.allow=never` keep git off the
//! network (a partial clone's missing object would be fetched through
//! `core.sshCommand` or a remote helper).
//!
//! `git worktree add`, `prune` and `remove` and `git branch -d` change the
//! repository's own common folder, so they see it rather than a private
//! one; they read no attributes (a new worktree is made with
//! `--no-checkout` and filled through a private view; a removal is
//! `--force` after greenroom's own check) and the config keys above still
//! hold.
//!
//! What it costs: filtered files (Git LFS) show, and a new worktree is
//! checked out, as stored; a relative `include.path` in the repository's
//! config is looked for beside the private folder's link, so not found.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::{GitError, Repo};
use crate::process::Spec;

/// Config keys that would start a program, each set to a value that
/// starts none. `credential.helper` empty clears the list of helpers;
/// `diff.external` empty makes a diff without `--no-ext-diff` (one `gh`
/// runs) fail rather than run the agent's program.
pub const OVERRIDES: &[(&str, &str)] = &[
    ("core.fsmonitor", "false"),
    ("core.hooksPath", "/dev/null"),
    ("core.attributesFile", "/dev/null"),
    ("core.sshCommand", "/dev/null"),
    ("core.askPass", "/dev/null"),
    ("core.editor", "/dev/null"),
    ("core.pager", "cat"),
    ("credential.helper", ""),
    ("diff.external", ""),
    ("gpg.program", "/dev/null"),
    ("gpg.openpgp.program", "/dev/null"),
    ("gpg.ssh.program", "/dev/null"),
    ("gpg.x509.program", "/dev/null"),
    ("log.showSignature", "false"),
    ("status.submoduleSummary", "false"),
    ("diff.ignoreSubmodules", "dirty"),
    ("protocol.allow", "never"),
    ("protocol.file.allow", "never"),
    ("protocol.git.allow", "never"),
    ("protocol.ssh.allow", "never"),
    ("protocol.http.allow", "never"),
    ("protocol.https.allow", "never"),
    ("protocol.ext.allow", "never"),
    ("gc.auto", "0"),
    ("maintenance.auto", "false"),
];

pub(super) const EMPTY_TREE_SHA1: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
const EMPTY_TREE_SHA256: &str = "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321";

/// The arguments before git's command: the overrides and the attribute
/// source.
pub fn global_args(empty_tree: &str) -> Vec<OsString> {
    let mut args = Vec::with_capacity(OVERRIDES.len() * 2 + 1);
    for (key, value) in OVERRIDES {
        args.push("-c".into());
        args.push(format!("{key}={value}").into());
    }
    args.push(format!("--attr-source={empty_tree}").into());
    args
}

/// The environment every git (and every program that runs git, like `gh`)
/// gets: the overrides again as command-line config (`GIT_CONFIG_COUNT`,
/// which the git that `gh` runs reads), the attribute source, no system
/// attributes, and no lazy fetch of a partial clone's missing objects.
pub fn apply_env(cmd: &mut Spec, empty_tree: &str) {
    cmd.env("GIT_CONFIG_COUNT", OVERRIDES.len().to_string());
    for (i, (key, value)) in OVERRIDES.iter().enumerate() {
        cmd.env(format!("GIT_CONFIG_KEY_{i}"), key);
        cmd.env(format!("GIT_CONFIG_VALUE_{i}"), value);
    }
    cmd.env("GIT_ATTR_SOURCE", empty_tree)
        .env("GIT_ATTR_NOSYSTEM", "1")
        .env("GIT_NO_LAZY_FETCH", "1")
        .env_remove("GIT_EXTERNAL_DIFF")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_COMMON_DIR")
        .env_remove("GIT_INDEX_FILE")
        .env_remove("GIT_OBJECT_DIRECTORY")
        .env_remove("GIT_ALTERNATE_OBJECT_DIRECTORIES");
}

/// The repository's common folder: a linked worktree's git folder names
/// it in `commondir` (relative to itself); otherwise it is the git folder.
fn common_dir(git_dir: &Path) -> PathBuf {
    let mut text = String::new();
    let named = std::fs::File::open(git_dir.join("commondir"))
        .and_then(|f| f.take(4096).read_to_string(&mut text))
        .is_ok();
    match text
        .lines()
        .next()
        .map(str::trim)
        .filter(|t| named && !t.is_empty())
    {
        Some(t) if Path::new(t).is_absolute() => PathBuf::from(t),
        Some(t) => git_dir.join(t),
        None => git_dir.to_path_buf(),
    }
}

/// The empty tree in the repository's object format (a wrong guess makes
/// git fail, never run anything).
fn empty_tree(common: &Path) -> &'static str {
    let mut text = String::new();
    let _ = std::fs::File::open(common.join("config"))
        .and_then(|f| f.take(64 * 1024).read_to_string(&mut text));
    let sha256 = text.lines().any(|l| {
        let l: String = l.chars().filter(|c| !c.is_whitespace()).collect();
        l.eq_ignore_ascii_case("objectformat=sha256")
    });
    if sha256 {
        EMPTY_TREE_SHA256
    } else {
        EMPTY_TREE_SHA1
    }
}

/// At most this many entries of a common folder are linked.
const MAX_ENTRIES: usize = 256;

/// A repository as git is shown it; the private common folder goes when
/// this is dropped (after git has ended).
#[derive(Debug)]
pub struct View {
    pub root: PathBuf,
    pub git_dir: PathBuf,
    pub empty_tree: &'static str,
    /// The private common folder; `None` when the call changes the
    /// repository and must see its own.
    common: Option<PathBuf>,
}

impl View {
    /// Points `cmd` at the repository through this view.
    pub fn apply(&self, cmd: &mut Spec) {
        apply_env(cmd, self.empty_tree);
        cmd.env("GIT_DIR", &self.git_dir)
            .env("GIT_WORK_TREE", &self.root);
        if let Some(common) = &self.common {
            cmd.env("GIT_COMMON_DIR", common);
        }
    }
}

impl Drop for View {
    fn drop(&mut self) {
        if let Some(dir) = &self.common {
            // Links and one folder of links: nothing is followed.
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// The repository holding `dir`, found as git would find it (without
/// running git), shown through a private common folder when `private`.
pub fn view(dir: &Path, private: bool) -> Result<View, GitError> {
    let refuse = |message: String| GitError::Failed {
        command: "(finding the repository)".into(),
        message,
    };
    // GIT_DIR must not be read relative to the folder `-C` moves to.
    let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let Repo {
        root,
        git_dir,
        problem,
    } = super::discover(&dir).ok_or_else(|| {
        refuse(format!(
            "{} is not inside a git repository",
            crate::display::safe_path(&dir)
        ))
    })?;
    if let Some(problem) = problem {
        return Err(refuse(problem));
    }
    let common = common_dir(&git_dir);
    let empty_tree = empty_tree(&common);
    let private = if private {
        Some(private_common(&common).map_err(|e| GitError::Io(e.to_string()))?)
    } else {
        None
    };
    Ok(View {
        root,
        git_dir,
        empty_tree,
        common: private,
    })
}

/// A fresh 0700 folder of links to `common`'s entries, less `hooks` and
/// `info/attributes`.
fn private_common(common: &Path) -> std::io::Result<PathBuf> {
    let dir = make_private_dir()?;
    let linked = link_entries(common, &dir, &["hooks", "info"]).and_then(|()| {
        let info = dir.join("info");
        std::fs::create_dir(&info)?;
        link_entries(&common.join("info"), &info, &["attributes"])
    });
    if let Err(e) = linked {
        let _ = std::fs::remove_dir_all(&dir);
        return Err(e);
    }
    Ok(dir)
}

fn make_private_dir() -> std::io::Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    let dir = std::env::temp_dir().join(format!("greenroom-git-{}", uuid::Uuid::new_v4()));
    std::fs::DirBuilder::new().mode(0o700).create(&dir)?;
    Ok(dir)
}

/// Links each entry of `from` (a missing folder has none) into `to`,
/// except those named in `leave`.
fn link_entries(from: &Path, to: &Path, leave: &[&str]) -> std::io::Result<()> {
    let entries = match std::fs::read_dir(from) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => return Ok(()),
        Err(e) => return Err(e),
    };
    for entry in entries.take(MAX_ENTRIES) {
        let name = entry?.file_name();
        if leave.iter().any(|l| name == *l) {
            continue;
        }
        std::os::unix::fs::symlink(from.join(&name), to.join(&name))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_linked_worktree_names_its_common_folder() {
        let dir = tempfile_dir();
        let wt = dir.join("worktrees/feat");
        std::fs::create_dir_all(&wt).unwrap();
        assert_eq!(common_dir(&wt), wt);
        std::fs::write(wt.join("commondir"), "../..\n").unwrap();
        assert_eq!(common_dir(&wt), wt.join("../.."));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_empty_tree_follows_the_object_format() {
        let dir = tempfile_dir();
        assert_eq!(empty_tree(&dir), EMPTY_TREE_SHA1);
        std::fs::write(
            dir.join("config"),
            "[extensions]\n\tobjectFormat = sha256\n",
        )
        .unwrap();
        assert_eq!(empty_tree(&dir), EMPTY_TREE_SHA256);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn tempfile_dir() -> PathBuf {
        make_private_dir().unwrap()
    }
}
