//! A pane's text as an agent's dialog is read from it (Codex's approval
//! question, OpenCode's permission prompt): the one walk over a screen's
//! last lines. The text is untrusted (a program draws whatever it likes):
//! only the screen's end is read, a bounded number of lines, each cut
//! short, control characters dropped. What a dialog's words are stays with
//! each agent's own module.

/// How much of the screen's end is read (a tmux pane is a screenful).
pub const MAX_SCREEN_BYTES: usize = 64 * 1024;
/// Longer lines are cut (a command is kept up to this, in characters).
pub const MAX_LINE_CHARS: usize = 1024;

/// The screen's last `max_lines` lines (an agent draws its dialog within
/// that many of the bottom), cleaned and cut short.
pub fn last_lines(screen: &str, max_lines: usize) -> Vec<String> {
    let mut from = screen.len().saturating_sub(MAX_SCREEN_BYTES);
    while !screen.is_char_boundary(from) {
        from += 1;
    }
    let all: Vec<&str> = screen[from..].lines().collect();
    all[all.len().saturating_sub(max_lines)..]
        .iter()
        .map(|l| {
            l.chars()
                .filter(|c| !c.is_control())
                .take(MAX_LINE_CHARS)
                .collect()
        })
        .collect()
}

/// The command a dialog shows: its `$ …` line and the lines it wraps onto,
/// up to a blank one, joined and cut to [`MAX_LINE_CHARS`].
pub fn command(lines: &[String]) -> Option<String> {
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with("$ "))?;
    let first = lines[at].trim_start().strip_prefix("$ ")?.trim();
    let rest = lines[at + 1..]
        .iter()
        .map(|l| l.trim())
        .take_while(|l| !l.is_empty());
    let text: String = std::iter::once(first)
        .chain(rest)
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(MAX_LINE_CHARS)
        .collect();
    (!text.is_empty()).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_screens_end_is_read_each_line_clean_and_cut() {
        // Past the byte bound, cut inside a two-byte character.
        let screen = format!("{}\nlast\n", "é".repeat(MAX_SCREEN_BYTES));
        let lines = last_lines(&screen, 40);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].chars().count(), MAX_LINE_CHARS);
        assert_eq!(lines[1], "last");
        // Only the last lines asked for; controls dropped, blanks kept.
        let lines = last_lines("one\ntwo\n\x1b[1mthree\x07\n  \n", 3);
        assert_eq!(lines, ["two", "[1mthree", "  "]);
        assert!(last_lines("", 40).is_empty());
    }

    #[test]
    fn a_command_is_its_dollar_line_and_what_it_wraps_onto() {
        let lines = |text: &str| last_lines(text, 40);
        let wrapped = lines("  Reason: x\n  $ touch one two\n    three\n\n  $ not this\n");
        assert_eq!(command(&wrapped).as_deref(), Some("touch one two three"));
        assert_eq!(command(&lines("  $ \n")), None);
        assert_eq!(command(&lines("no command\n")), None);
        let long = lines(&format!("$ {}\n{}\n", "a".repeat(1000), "b".repeat(1000)));
        assert_eq!(command(&long).map(|c| c.len()), Some(MAX_LINE_CHARS));
    }
}
