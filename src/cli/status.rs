//! `greenroom status`: compact counts of what needs the operator, for a
//! shell prompt or tmux's `status-right`.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use clap::Args;

use crate::attention;

use crate::model::{Health, Session};

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// Format for tmux's status line (#[fg=...] colours)
    #[arg(long)]
    pub tmux: bool,
}

/// The tmux colour of a class the line counts: those that need the
/// operator, and active ones; the rest are not counted.
fn tmux_colour(h: Health) -> Option<&'static str> {
    match h {
        Health::Errored => Some("red"),
        Health::Waiting => Some("yellow"),
        Health::Stuck => Some("magenta"),
        Health::Ready => Some("blue"),
        Health::Active => Some("green"),
        Health::Idle | Health::Dormant | Health::Killed | Health::Exited | Health::Done => None,
    }
}

/// One line: `✖ 2 errored · ◆ 1 waiting · ▷ 1 ready`, or tmux-coloured
/// with `tmux`, then (tmux) the session `greenroom next` goes to:
/// `→ name 4m`. Snoozed sessions are not counted. Empty when no session is
/// errored, waiting, stuck, ready or active.
pub fn line(sessions: &[Session], tmux: bool, now: DateTime<Utc>) -> String {
    let mut counts: HashMap<Health, usize> = HashMap::new();
    for s in sessions.iter().filter(|s| attention::counted(s)) {
        *counts.entry(s.health).or_insert(0) += 1;
    }
    let parts: Vec<String> = Health::ALL
        .iter()
        .filter_map(|h| {
            let colour = tmux_colour(*h)?;
            let n = *counts.get(h)?;
            let glyph = h.glyph();
            Some(if tmux {
                format!("#[fg={colour}]{glyph}{n}#[default]")
            } else {
                format!("{glyph} {n} {h}")
            })
        })
        .collect();
    let mut line = parts.join(if tmux { " " } else { " · " });
    if tmux && let Some(first) = attention::queue(sessions).first() {
        // Names come from files: `#` would start a tmux format.
        let name = crate::display::fit(&first.name, 20).replace('#', "##");
        let waited = crate::display::age(now, attention::needs_since(first));
        line.push_str(&format!(" → {name} {waited}"));
    }
    line
}

/// What `greenroom next` says when the queue holds sessions but none has
/// a pane to attach to (it ended: exited, died, killed): which ones, and
/// what to do with each, so it never says "nothing needs you" while the
/// header counts them.
pub fn nothing_to_attach(queue: &[&Session]) -> String {
    const NAMED: usize = 3;
    let what = |s: &Session| {
        let name = crate::display::safe(&s.name);
        let verb = if s.can_restore() {
            "restore"
        } else {
            "dismiss"
        };
        format!("{name} ({}: greenroom {verb} {name})", s.health)
    };
    let mut named: Vec<String> = queue.iter().take(NAMED).map(|s| what(s)).collect();
    if queue.len() > NAMED {
        named.push(format!("{} more", queue.len() - NAMED));
    }
    let (n, verb) = match queue.len() {
        1 => ("1 session needs".to_owned(), "has"),
        n => (format!("{n} sessions need"), "have"),
    };
    format!("{n} you and {verb} no pane to attach: {}", named.join(", "))
}
