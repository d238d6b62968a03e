//! The agent's work, done for real in its work tree: the file a tool
//! changes gets the lines its diff shows, and `Commit` commits them, so
//! the dashboard's Changes tab and `c` review show what the agent printed.
//! A failure (a work tree that is not a repository, in tests) is logged
//! and the agent goes on.

use std::path::PathBuf;

use super::Player;
use crate::cli::demo::agent::repo::{EDITS, identity, plain_path};
use crate::git::own_repo;

/// The file the ml agent's training runs read and change.
pub const ML_CONFIG: &str = "configs/small.yaml";

/// The ml agent's config with a learning rate (×1e-4) and schedule.
pub fn ml_config(lr: u32, schedule: &str) -> String {
    format!("model: small-ranker\nepochs: 12\nlr: {lr}e-4\nschedule: {schedule}\n")
}

impl Player<'_> {
    /// A tool call begins: an editing tool's file is the one the next
    /// diff lines change (a new file for `Write`).
    pub(super) fn edit_begin(&mut self, tool: &str, arg: &str) {
        self.editing = None;
        if !EDITS.contains(&tool) || !plain_path(arg) {
            return;
        }
        let path = self.setup.cwd.join(arg);
        if tool == "Write" && !path.exists() {
            self.save(&path, "");
        }
        self.editing = Some((path, tool == "Write"));
    }

    /// A diff's removed line leaves the file.
    pub(super) fn edit_del(&mut self, text: &str) {
        self.edit(|lines| {
            if let Some(i) = lines.iter().position(|l| l == text) {
                lines.remove(i);
            }
        });
    }

    /// A diff's added line goes in at its number, once.
    pub(super) fn edit_add(&mut self, n: u32, text: &str) {
        self.edit(|lines| {
            if !lines.iter().any(|l| l == text) {
                let at = (n as usize).saturating_sub(1).min(lines.len());
                lines.insert(at, text.to_owned());
            }
        });
    }

    /// A written file's content as the agent shows it.
    pub(super) fn edit_written(&mut self, text: &str) {
        if matches!(self.editing, Some((_, true))) {
            self.edit(|lines| lines.push(text.to_owned()));
        }
    }

    pub(super) fn write_ml_config(&mut self, lr: u32) {
        let path = self.setup.cwd.join(ML_CONFIG);
        self.save(&path, &ml_config(lr, "cosine"));
    }

    /// Commits the work tree, as the agent's `git commit` would.
    pub(super) fn commit(&mut self, message: &str) {
        self.commits += 1;
        match own_repo::commit_all(&self.setup.cwd, message, &identity(self.commits)) {
            Ok(_) => {}
            Err(e) => tracing::debug!(error = %e, "demo agent's commit not made"),
        }
    }

    fn edit(&mut self, change: impl FnOnce(&mut Vec<String>)) {
        let Some((path, _)) = self.editing.clone() else {
            return;
        };
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        change(&mut lines);
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        self.save(&path, &text);
    }

    fn save(&self, path: &PathBuf, text: &str) {
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(path, text));
        if let Err(e) = written {
            tracing::debug!(error = %e, path = %path.display(), "demo agent's file not written");
        }
    }
}
