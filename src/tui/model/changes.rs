//! The Changes tab's own state: which changed file the cursor is on, and
//! the diff opened from it (which side, scrolled where, which lines are
//! selected for a comment). Pure: the diff text comes in as a result, and
//! a result for a diff no longer open (an older generation) is dropped.

use std::path::PathBuf;

use crate::git::DiffText;
use crate::model::{ChangedFile, Changes};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangesTab {
    /// The file list's cursor.
    pub cursor: usize,
    pub diff: Option<DiffPane>,
    /// Bumped each time a diff is asked for.
    pub generation: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffPane {
    pub file: ChangedFile,
    /// The staged side (`git diff --cached`), else the unstaged one.
    pub staged: bool,
    pub generation: u64,
    /// `None` while git is asked; an error is shown as it came.
    pub text: Option<Result<DiffText, String>>,
    /// The diff line the cursor is on; the view scrolls to keep it shown.
    pub line: usize,
    /// Where a selection started (`v`), if one is being made.
    pub anchor: Option<usize>,
}

/// What the runner must fetch: `git::file_diff(root, file, staged)`, with
/// the generation to hand back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffRequest {
    pub root: PathBuf,
    pub file: ChangedFile,
    pub staged: bool,
    pub generation: u64,
}

impl ChangesTab {
    /// Moves the file cursor by `delta` within the list.
    pub fn move_cursor(&mut self, delta: isize, changes: &Changes) {
        let last = changes.files.len().saturating_sub(1);
        self.cursor = self.cursor.saturating_add_signed(delta).min(last);
    }

    /// Opens the file under the cursor: its unstaged side when it has one,
    /// else its staged side.
    pub fn open(&mut self, changes: &Changes) -> Option<DiffRequest> {
        let file = changes.files.get(self.cursor)?.clone();
        let staged = file.unstaged.is_none() && !file.untracked && file.staged.is_some();
        Some(self.ask(changes, file, staged))
    }

    /// The other side of the open diff, when the file has both.
    pub fn other_side(&mut self, changes: &Changes) -> Option<DiffRequest> {
        let d = self.diff.as_ref()?;
        let has_other = if d.staged {
            d.file.unstaged.is_some()
        } else {
            d.file.staged.is_some()
        };
        if !has_other {
            return None;
        }
        let (file, staged) = (d.file.clone(), !d.staged);
        Some(self.ask(changes, file, staged))
    }

    fn ask(&mut self, changes: &Changes, file: ChangedFile, staged: bool) -> DiffRequest {
        self.generation += 1;
        self.diff = Some(DiffPane {
            file: file.clone(),
            staged,
            generation: self.generation,
            text: None,
            line: 0,
            anchor: None,
        });
        DiffRequest {
            root: changes.root.clone(),
            file,
            staged,
            generation: self.generation,
        }
    }

    /// A diff came back. Returns false (and keeps nothing) when it is for
    /// a diff no longer open.
    pub fn loaded(&mut self, generation: u64, text: Result<DiffText, String>) -> bool {
        match &mut self.diff {
            Some(d) if d.generation == generation => {
                d.text = Some(text);
                true
            }
            _ => false,
        }
    }

    /// Another session: back to the top of its list. The generation goes
    /// on counting, so a diff asked for the last session is still dropped.
    pub fn reset(&mut self) {
        self.cursor = 0;
        self.diff = None;
    }

    /// Back to the file list.
    pub fn close(&mut self) {
        self.diff = None;
    }

    /// Moves the diff cursor by `delta` lines.
    pub fn scroll(&mut self, delta: isize) {
        if let Some(d) = &mut self.diff {
            let last = d.lines().len().saturating_sub(1);
            d.line = d.line.saturating_add_signed(delta).min(last);
        }
    }

    /// Starts a selection at the cursor, or drops the one being made.
    pub fn toggle_selection(&mut self) {
        if let Some(d) = &mut self.diff {
            d.anchor = match d.anchor {
                Some(_) => None,
                None => Some(d.line),
            };
        }
    }

    /// The file and its lines (in the new version, 1-based) a comment is
    /// about: the selection, or the cursor's line.
    pub fn comment_target(&self) -> Option<(PathBuf, u32, u32)> {
        let d = self.diff.as_ref()?;
        let (a, b) = d.selection();
        let lines = d.lines();
        let (first, last) = file_lines(&lines, a, b)?;
        Some((d.file.path.clone(), first, last))
    }
}

impl DiffPane {
    /// The diff's lines (git prints them without colour), split as the
    /// view splits them.
    pub fn lines(&self) -> Vec<String> {
        match &self.text {
            Some(Ok(t)) => t.text.lines().map(str::to_owned).collect(),
            _ => Vec::new(),
        }
    }

    /// The selected diff lines, first to last (the cursor alone without a
    /// selection).
    pub fn selection(&self) -> (usize, usize) {
        let a = self.anchor.unwrap_or(self.line);
        (a.min(self.line), a.max(self.line))
    }
}

/// The new file's line numbers that diff lines `from..=to` cover, from the
/// hunk headers (`@@ -a,b +c,d @@`). Removed lines count at the new line
/// they sit before. `None` when the range holds no hunk line.
pub fn file_lines(lines: &[String], from: usize, to: usize) -> Option<(u32, u32)> {
    let mut next_new: Option<u32> = None;
    let mut covered: Option<(u32, u32)> = None;
    for (i, line) in lines.iter().enumerate().take(to.saturating_add(1)) {
        let here = if line.starts_with("@@") {
            next_new = hunk_start(line);
            None
        } else if let Some(n) = next_new {
            match line.chars().next() {
                Some('+') | Some(' ') => {
                    next_new = Some(n + 1);
                    Some(n)
                }
                Some('-') => Some(n.max(1)),
                _ => None,
            }
        } else {
            None
        };
        if i >= from
            && let Some(n) = here
        {
            covered = Some(covered.map_or((n, n), |(a, b)| (a.min(n), b.max(n))));
        }
    }
    covered
}

/// `+c` of `@@ -a,b +c,d @@`.
fn hunk_start(header: &str) -> Option<u32> {
    let plus = header.split_whitespace().find(|w| w.starts_with('+'))?;
    plus[1..].split(',').next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn diff_lines_map_to_the_new_files_lines() {
        let d = lines(
            "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -38,5 +40,6 @@ fn f()\n ctx\n-old\n+new\n+more\n ctx\n@@ -90,2 +100,2 @@\n a\n+b\n",
        );
        assert_eq!(file_lines(&d, 0, 3), None, "headers only");
        assert_eq!(file_lines(&d, 4, 4), Some((40, 40)));
        assert_eq!(file_lines(&d, 4, 8), Some((40, 43)));
        assert_eq!(
            file_lines(&d, 5, 5),
            Some((41, 41)),
            "a removed line sits before 41"
        );
        assert_eq!(file_lines(&d, 11, 11), Some((101, 101)));
    }

    #[test]
    fn a_stale_diff_is_dropped() {
        let changes = Changes {
            files: vec![ChangedFile {
                path: "a".into(),
                from: None,
                staged: Some(crate::model::FileState::Modified),
                unstaged: Some(crate::model::FileState::Modified),
                untracked: false,
                binary: false,
                added: 1,
                removed: 0,
            }],
            files_total: 1,
            ..Changes::default()
        };
        let mut tab = ChangesTab::default();
        let first = tab.open(&changes).unwrap();
        assert!(!first.staged, "the unstaged side first");
        let second = tab.other_side(&changes).unwrap();
        assert!(second.staged);
        assert!(!tab.loaded(first.generation, Ok(DiffText::default())));
        assert!(tab.loaded(second.generation, Ok(DiffText::default())));
    }
}
