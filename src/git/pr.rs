//! A branch's pull request from GitHub's `gh`, when it is installed and
//! signed in: optional (nothing needs it), bounded (5 s), and cached, so
//! it runs at most once per branch per [`PR_TTL`]. Only branches with an
//! upstream are asked about: a branch never pushed has no pull request.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::model::{Changes, PullRequest};
use crate::process::Spec;

/// How long an answer (or "none") is kept.
pub const PR_TTL: Duration = Duration::from_secs(300);
const GH_TIMEOUT: Duration = Duration::from_secs(5);

#[derive(Debug, Default)]
pub struct PrCache {
    /// Where `gh` is on PATH.
    gh: Option<PathBuf>,
    answers: HashMap<(PathBuf, String), (Instant, Option<PullRequest>)>,
}

impl PrCache {
    /// `path` is `$PATH`, where `gh` is looked for once.
    pub fn new(path: Option<&std::ffi::OsStr>) -> Self {
        Self {
            gh: path.and_then(|p| {
                std::env::split_paths(p)
                    .map(|d| d.join("gh"))
                    .find(|gh| gh.is_file())
            }),
            answers: HashMap::new(),
        }
    }

    /// The pull request for the work tree's branch, from the cache or `gh`.
    pub fn lookup(&mut self, changes: &Changes) -> Option<PullRequest> {
        let branch = changes.branch.clone()?;
        changes.divergence.as_ref().filter(|d| d.upstream)?;
        let gh = self.gh.clone()?;
        let key = (changes.root.clone(), branch);
        if let Some((at, answer)) = self.answers.get(&key)
            && at.elapsed() < PR_TTL
        {
            return answer.clone();
        }
        let answer = gh_pr(&gh, &changes.root);
        self.answers.insert(key, (Instant::now(), answer.clone()));
        answer
    }
}

/// `gh pr view --json url,number,state` in `root`, `gh` being the program
/// at `gh`; `None` for any failure (not signed in, no pull request, no
/// network). `gh` runs git in the work tree: it gets the same view and
/// overrides greenroom's own git calls get (`guard.rs`), as environment
/// every git it starts reads.
pub fn gh_pr(gh: &std::path::Path, root: &std::path::Path) -> Option<PullRequest> {
    let view = super::guard::view(root, true).ok()?;
    let mut spec = Spec::new(gh);
    spec.args(["pr", "view", "--json", "url,number,state"])
        .current_dir(root)
        .env("GH_PROMPT_DISABLED", "1")
        .env("GH_NO_UPDATE_NOTIFIER", "1")
        .env("NO_COLOR", "1")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0");
    view.apply(&mut spec);
    let out = spec.run(super::limits(GH_TIMEOUT)).ok()?;
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    let url = v.get("url")?.as_str()?;
    if !url.starts_with("https://") || url.len() > 2048 {
        return None;
    }
    Some(PullRequest {
        url: crate::display::safe(url),
        number: v.get("number").and_then(|n| n.as_u64()),
        state: v
            .get("state")
            .and_then(|s| s.as_str())
            .map(crate::display::safe),
    })
}
