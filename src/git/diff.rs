//! One file's diff for the Changes tab, without colour (the view colours it
//! by each line's marker, so nothing in a file is read as a terminal
//! sequence; `tui/view/diff_text.rs`): unstaged changes
//! (`git diff`), staged ones (`--cached`), or an untracked file shown as
//! new (`--no-index` against /dev/null). Bounded like every git read.

use std::ffi::OsString;

use super::{Git, GitError, READ_TIMEOUT};
use crate::model::ChangedFile;

/// At most this much of a diff is kept for the screen.
pub const MAX_DIFF_BYTES: usize = 2 * 1024 * 1024;

/// A diff as git printed it, without colour: every byte after a line's
/// marker is the file's own.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DiffText {
    pub text: String,
    /// The diff was longer than [`MAX_DIFF_BYTES`] and was cut.
    pub truncated: bool,
}

/// The diff of `file` in the work tree at `root`: its staged side when
/// `staged`, else its unstaged one.
pub fn file_diff(
    git: &Git,
    root: &std::path::Path,
    file: &ChangedFile,
    staged: bool,
) -> Result<DiffText, GitError> {
    let mut args: Vec<OsString> = vec![
        "diff".into(),
        "--no-color".into(),
        "--no-ext-diff".into(),
        "--no-textconv".into(),
    ];
    let differ_ok = file.untracked;
    if file.untracked {
        args.extend(["--no-index".into(), "--".into(), "/dev/null".into()]);
        args.push(file.path.clone().into_os_string());
    } else {
        args.push("--ignore-submodules=dirty".into());
        if staged {
            args.push("--cached".into());
            args.push("-M".into());
        }
        args.push("--".into());
        if let Some(from) = &file.from
            && staged
        {
            args.push(from.clone().into_os_string());
        }
        args.push(file.path.clone().into_os_string());
    }
    let out = git.run_accepting(root, &args, READ_TIMEOUT, differ_ok)?;
    let mut bytes = out.stdout;
    let truncated = out.truncated || bytes.len() > MAX_DIFF_BYTES;
    bytes.truncate(MAX_DIFF_BYTES);
    Ok(DiffText {
        text: String::from_utf8_lossy(&bytes).into_owned(),
        truncated,
    })
}
