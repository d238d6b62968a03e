//! OpenCode's permission prompt, read from its pane's text.
//!
//! Without a plugin reporting its events, OpenCode tells nobody that it
//! asks, and a prompt that waits draws nothing more: the screen is the only
//! witness. OpenCode 1.18.33 draws, at the bottom of its screen, inside its
//! input box's left border (`┃`):
//!
//! ```text
//!   ┃  △ Permission required
//!   ┃    # Shell command
//!   ┃
//!   ┃  $ touch greenroom-was-here
//!   ┃
//!   ┃   Allow once   Allow always   Reject        ctrl+f fullscreen  ⇆ select  enter confirm
//!   ┃
//! ```
//!
//! Enter confirms the highlighted choice (the first, "Allow once"), ←/→
//! or Tab move between them, Escape rejects.
//!
//! On a wide screen OpenCode draws a sidebar to the right (the session's
//! title, its tokens, the folder, its version): only each line's main area,
//! left of a wide gap, is read. The prompt counts only while it is the live
//! dialog: its choices line is the screen's last line with words in its
//! main area. The same words higher up (a
//! transcript quoting them) are no prompt. The text is untrusted: it is
//! read as [`screen_text`] reads a screen.

use super::screen_text::{self, command};

/// The dialog is drawn within this many lines of the screen's bottom.
const MAX_LINES: usize = 40;

/// Blanks this wide part the main area from the sidebar beside it.
const GAP: &str = "        ";
/// The prompt's first line.
const HEADING: &str = "Permission required";
/// Its choices, in order, on one line.
const CHOICES: [&str; 3] = ["Allow once", "Allow always", "Reject"];

/// What OpenCode asks, as its screen shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpencodePermission {
    /// "Permission required".
    pub question: String,
    /// The tool's title under it, e.g. "Shell command".
    pub title: Option<String>,
    /// The `$ …` line's command, when the prompt is about one.
    pub command: Option<String>,
    /// "Allow once", "Allow always", "Reject".
    pub choices: Vec<String>,
}

impl OpencodePermission {
    /// The tool the prompt holds, in OpenCode's own name for its command
    /// runner; `None` for a prompt about something else.
    pub fn tool(&self) -> Option<&'static str> {
        self.command.as_ref().map(|_| "bash")
    }
}

/// OpenCode's permission prompt, when it is the live dialog at the bottom
/// of `screen` (a pane's text as `capture-pane -p` gives it).
pub fn permission(screen: &str) -> Option<OpencodePermission> {
    let lines = last_lines(screen);
    let bottom = lines.iter().rposition(|l| !l.is_empty())?;
    if !is_choices(&lines[bottom]) {
        return None;
    }
    let start = lines[..bottom].iter().rposition(|l| is_heading(l))?;
    let body = &lines[start + 1..bottom];
    // One dialog: another choices line between means the heading found
    // belongs to an older one.
    if body.iter().any(|l| is_choices(l)) {
        return None;
    }
    let title = body
        .iter()
        .find_map(|l| l.strip_prefix("# "))
        .map(|t| t.trim().to_owned());
    Some(OpencodePermission {
        question: HEADING.to_owned(),
        title,
        command: command(body),
        choices: CHOICES.iter().map(|c| (*c).to_owned()).collect(),
    })
}

/// The screen's last [`MAX_LINES`] lines, cleaned, cut short, and without
/// the border OpenCode draws at their left.
fn last_lines(screen: &str) -> Vec<String> {
    screen_text::last_lines(screen, MAX_LINES)
        .iter()
        .map(|l| unbordered(l).to_owned())
        .collect()
}

/// A line's main area: without OpenCode's left border, and without what
/// stands right of a wide gap (its sidebar, on a wide screen; the key
/// hints after the choices).
fn unbordered(line: &str) -> &str {
    let trimmed = line.trim_start();
    let inside = trimmed.trim_start_matches(['┃', '│', '▕', '▏', '|']);
    // Without a border, the leading blanks say whether the line is the
    // sidebar's alone.
    let inside = if inside.len() == trimmed.len() {
        line
    } else {
        inside
    };
    inside.split(GAP).next().unwrap_or_default().trim()
}

fn is_heading(line: &str) -> bool {
    line.trim_start_matches(|c: char| !c.is_ascii_alphanumeric()) == HEADING
}

/// The choices line: the three choices in order, first on the line.
fn is_choices(line: &str) -> bool {
    let Some(mut rest) = line.strip_prefix(CHOICES[0]) else {
        return false;
    };
    for choice in &CHOICES[1..] {
        match rest.trim_start().strip_prefix(choice) {
            Some(r) => rest = r,
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests;
