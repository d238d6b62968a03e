//! Codex CLI's approval question, read from its pane's text.
//!
//! Codex fires no hook when it asks (without greenroom's hooks) and keeps
//! redrawing while it waits, so tmux never sees the pane go quiet: the
//! screen is the only witness. Codex CLI 0.169.0 draws, at the bottom of
//! its screen:
//!
//! ```text
//!   Would you like to run the following command?
//!   Environment: local
//!   Reason: …
//!   $ touch greenroom-approved
//! › 1. Yes, proceed (y)
//!   2. Yes, and don't ask again for commands that start with … (p)
//!   3. No, and tell Codex what to do differently (esc)
//!   Press enter to confirm or esc to cancel
//! ```
//!
//! The question counts only while it is the live dialog: its last line is
//! the screen's last non-blank one. The same words in scrollback (a dialog
//! answered, a transcript quoting it) are not a question.
//!
//! The text is untrusted: it is read as [`screen_text`] reads a screen.

use super::screen_text::{self, command};

/// The dialog is drawn within this many lines of the screen's bottom.
const MAX_LINES: usize = 60;

/// The dialog's last line, what makes the question live.
const CONFIRM: &str = "Press enter to confirm or esc to cancel";
/// How each of Codex's approval questions begins.
const QUESTION: &str = "Would you like to";

/// What Codex asks, as its screen shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodexApproval {
    /// "Would you like to run the following command?"
    pub question: String,
    /// The `$ …` line's command, when the question is about one.
    pub command: Option<String>,
    pub options: Vec<CodexOption>,
}

/// One numbered choice: `2. Yes, and don't ask again … (p)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodexOption {
    pub number: u8,
    /// The words, without the number and the key.
    pub words: String,
    /// The key Codex names for it in parentheses: `y`, `p`, `esc`.
    pub key: Option<String>,
}

impl CodexApproval {
    /// The tool the question holds, in Codex's own name for its command
    /// runner; `None` for a question about something else.
    pub fn tool(&self) -> Option<&'static str> {
        self.command.as_ref().map(|_| "shell")
    }
}

/// Codex's approval question, when it is the live dialog at the bottom of
/// `screen` (a pane's text as `capture-pane -p` gives it).
pub fn approval(screen: &str) -> Option<CodexApproval> {
    let lines = screen_text::last_lines(screen, MAX_LINES);
    let mut below = lines.iter().rev().skip_while(|l| l.trim().is_empty());
    if below.next()?.trim() != CONFIRM {
        return None;
    }
    let start = lines.iter().rposition(|l| l.trim().starts_with(QUESTION))?;
    let dialog = &lines[start..];
    // One dialog: an older one's last line above the bottom's would mean
    // the question found belongs to a dialog already answered.
    if dialog.iter().filter(|l| l.trim() == CONFIRM).count() != 1 {
        return None;
    }
    let first_option = dialog.iter().position(|l| option_start(l).is_some())?;
    Some(CodexApproval {
        question: dialog[0].trim().to_owned(),
        command: command(&dialog[1..first_option]),
        options: options(&dialog[first_option..]),
    })
}

/// A choice's first line: its number and the rest, after a highlight
/// mark such as `›`.
fn option_start(line: &str) -> Option<(u8, &str)> {
    let body = line.trim_start_matches(|c: char| !c.is_ascii_alphanumeric());
    let (number, rest) = body.split_once(". ")?;
    let number: u8 = number.parse().ok().filter(|n| (1..=9).contains(n))?;
    Some((number, rest))
}

/// The numbered choices, each with the lines it wraps onto.
fn options(lines: &[String]) -> Vec<CodexOption> {
    let mut out: Vec<(u8, String)> = Vec::new();
    for line in lines.iter().take_while(|l| !l.trim().is_empty()) {
        match (option_start(line), out.last_mut()) {
            (Some((n, rest)), _) => out.push((n, rest.trim().to_owned())),
            (None, Some((_, words))) => {
                words.push(' ');
                words.push_str(line.trim());
            }
            (None, None) => {}
        }
    }
    out.into_iter()
        .map(|(number, text)| {
            let (words, key) = split_key(&text);
            CodexOption { number, words, key }
        })
        .collect()
}

/// `Yes, proceed (y)` → (`Yes, proceed`, `y`).
fn split_key(text: &str) -> (String, Option<String>) {
    let key = text
        .strip_suffix(')')
        .and_then(|t| t.rsplit_once(" ("))
        .filter(|(_, k)| !k.is_empty() && k.len() <= 8 && k.chars().all(|c| c.is_alphanumeric()));
    match key {
        Some((words, k)) => (words.trim().to_owned(), Some(k.to_owned())),
        None => (text.to_owned(), None),
    }
}

#[cfg(test)]
mod tests;
