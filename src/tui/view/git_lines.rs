//! The detail pane's git rows for a session in a work tree: branch and
//! how far it is from its upstream or base, the changed files with their
//! line counts, the pull request, and what is wrong. Pure.

use ratatui::prelude::*;

use super::Theme;
use crate::model::{Changes, Session};

/// `feat/x · 2 ahead, 1 behind origin/feat/x · rebase in progress`.
pub fn branch(c: &Changes, theme: &Theme) -> Vec<Span<'static>> {
    let mut v = vec![match (&c.branch, &c.head) {
        (Some(b), _) => Span::raw(b.clone()),
        (None, Some(h)) => Span::styled(format!("detached at {h}"), theme.warning),
        (None, None) => Span::styled("no commit yet", theme.dim),
    }];
    if let Some(d) = &c.divergence {
        let words = match (d.ahead, d.behind) {
            (0, 0) => format!("even with {}", d.against),
            (a, 0) => format!("{a} ahead of {}", d.against),
            (0, b) => format!("{b} behind {}", d.against),
            (a, b) => format!("{a} ahead, {b} behind {}", d.against),
        };
        v.push(Span::styled(format!(" · {words}"), theme.dim));
    }
    if let Some(op) = c.operation {
        v.push(Span::styled(
            format!(" · {} in progress", op.as_str()),
            theme.warning,
        ));
    }
    v
}

/// `5 files · +120 −30 · 2 staged · 1 untracked`, or `clean`.
pub fn counts(c: &Changes, theme: &Theme) -> Vec<Span<'static>> {
    if c.is_clean() {
        return vec![Span::styled("clean", theme.dim)];
    }
    let noun = if c.files_total == 1 { "file" } else { "files" };
    let mut v = vec![Span::raw(format!("{} {noun}", c.files_total))];
    let (added, removed) = (
        c.staged.added + c.unstaged.added,
        c.staged.removed + c.unstaged.removed,
    );
    v.push(Span::raw(" · "));
    v.push(Span::styled(format!("+{added}"), theme.active));
    v.push(Span::raw(" "));
    v.push(Span::styled(format!("\u{2212}{removed}"), theme.errored));
    for (n, what) in [
        (c.staged.files, "staged"),
        (c.untracked, "untracked"),
        (c.conflicted, "conflicted"),
    ] {
        if n > 0 {
            v.push(Span::styled(format!(" · {n} {what}"), theme.dim));
        }
    }
    v
}

/// The pull request: Agent Orchestrator's link first, else `gh`'s.
pub fn pull_request(s: &Session, theme: &Theme) -> Option<Vec<Span<'static>>> {
    if s.agent_orchestrator
        .as_ref()
        .is_some_and(|a| a.pr.is_some())
    {
        return None; // shown with AO's own rows
    }
    let pr = s.changes.as_ref()?.pr.as_ref()?;
    let mut v = vec![Span::raw(pr.url.clone())];
    let mut about = Vec::new();
    if let Some(n) = pr.number {
        about.push(format!("#{n}"));
    }
    if let Some(st) = &pr.state {
        about.push(st.to_lowercase());
    }
    if !about.is_empty() {
        v.push(Span::styled(format!(" · {}", about.join(" ")), theme.dim));
    }
    Some(v)
}
