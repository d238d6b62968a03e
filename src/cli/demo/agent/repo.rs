//! The small git repository each simulated agent works in: the files it
//! starts with, read off its role's scenes (a line a scene removes is in
//! the file from the start, so the diff the agent shows is the diff git
//! shows), and who commits there.

use std::collections::BTreeMap;

use super::Step::{Del, Tool};
use super::roles;
use crate::git::own_repo::Identity;

/// The tools whose argument is a file the agent changes.
pub(super) const EDITS: [&str; 3] = ["Update", "Edit", "Write"];

/// A path the agent may write: relative, plain, inside its work tree.
pub(super) fn plain_path(text: &str) -> bool {
    !text.is_empty()
        && !text.starts_with('/')
        && text.contains(['/', '.'])
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-".contains(c))
        && text.split('/').all(|part| !part.is_empty() && part != "..")
}

/// The files a role's repository starts with (path, text): a README, and
/// each file its scenes read or change, holding the lines they remove.
pub fn seed_files(role: &str) -> Vec<(String, String)> {
    let role = roles::role(role);
    let mut files: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    let mut changing: Option<&str> = None;
    for step in role.pool.iter().flat_map(|scene| scene.iter()) {
        match step {
            Tool(name, arg) if plain_path(arg) => {
                files.entry((*arg).to_owned()).or_default();
                changing = EDITS.contains(name).then_some(*arg);
            }
            Tool(..) => changing = None,
            Del(_, text) => {
                if let Some(file) = changing.and_then(|f| files.get_mut(f)) {
                    file.push(text);
                }
            }
            _ => {}
        }
    }
    let readme = format!(
        "# {}\n\nA project a simulated agent works on (greenroom demo).\n",
        role.name
    );
    let mut out = vec![("README.md".to_owned(), readme)];
    out.extend(files.into_iter().map(|(path, lines)| {
        let text = if lines.is_empty() {
            format!("{path}\n")
        } else {
            lines.iter().map(|l| format!("{l}\n")).collect()
        };
        (path, text)
    }));
    if role.name == "ml" {
        out.push((
            super::steps::ML_CONFIG.to_owned(),
            super::steps::ml_config(30, "step"),
        ));
    }
    out
}

/// Who commits in the demo's repositories: the `n`th commit is made a
/// minute after the one before, at fixed times, so every run makes the
/// same commits.
pub fn identity(n: u32) -> Identity {
    Identity {
        name: "greenroom demo".into(),
        email: "demo@greenroom.invalid".into(),
        date: format!("2026-01-05T09:{:02}:00+00:00", n.min(59)),
    }
}
