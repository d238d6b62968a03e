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

/// The classes shown, most urgent first, with a glyph and a tmux colour.
const SHOWN: [(Health, &str, &str); 4] = [
    (Health::Errored, "✖", "red"),
    (Health::Waiting, "◆", "yellow"),
    (Health::Stuck, "⧗", "magenta"),
    (Health::Active, "●", "green"),
];

/// One line: `✖ 2 errored · ◆ 1 waiting`, or tmux-coloured with `tmux`,
/// then (tmux) the session `greenroom next` goes to: `→ name 4m`.
/// Snoozed sessions are not counted. Empty when no session is errored,
/// waiting, stuck or active.
pub fn line(sessions: &[Session], tmux: bool, now: DateTime<Utc>) -> String {
    let mut counts: HashMap<Health, usize> = HashMap::new();
    for s in sessions
        .iter()
        .filter(|s| !s.archived && s.snoozed_until.is_none())
    {
        *counts.entry(s.health).or_insert(0) += 1;
    }
    let parts: Vec<String> = SHOWN
        .iter()
        .filter_map(|(h, glyph, colour)| {
            let n = *counts.get(h)?;
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
