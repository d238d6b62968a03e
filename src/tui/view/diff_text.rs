//! A diff on screen. git prints it without colour, so no byte of the files
//! is ever read as a terminal sequence: a file's own `\e[8m` (conceal) or
//! black-on-black would otherwise hide added lines from the operator who
//! approves them. Each line is coloured here by its marker alone (`+`,
//! `-`, `@@`, git's headers), and every control character in it is shown
//! as an escape (`\x1b`) in a style of its own. Pure.

use ratatui::prelude::*;

use super::Theme;

/// A tab stop, as git's own pager shows them.
const TAB: usize = 8;

/// The diff's lines, one screen line each (split as `str::lines` splits,
/// which the Changes tab's cursor counts with).
pub fn lines(text: &str, theme: &Theme) -> Vec<Line<'static>> {
    let mut in_hunk = false;
    text.lines()
        .map(|line| {
            let style = line_style(line, &mut in_hunk, theme);
            Line::from(spans(line, style, escape_style(theme)))
        })
        .collect()
}

/// What a line is, by its first characters: within a hunk (after `@@`,
/// until the next file's `diff `), `+`, `-` and ` ` are the file's lines,
/// whatever they hold (`--- x` is a removed line there, not a header).
fn line_style(line: &str, in_hunk: &mut bool, theme: &Theme) -> Style {
    if line.starts_with("diff ") {
        *in_hunk = false;
    }
    if line.starts_with("@@") {
        *in_hunk = true;
        return theme.idle;
    }
    if !*in_hunk {
        return Style::new().add_modifier(Modifier::BOLD);
    }
    match line.as_bytes().first() {
        Some(b'+') => theme.active,
        Some(b'-') => theme.errored.remove_modifier(Modifier::BOLD),
        // "\ No newline at end of file"
        Some(b'\\') => theme.dim,
        _ => Style::new(),
    }
}

fn escape_style(theme: &Theme) -> Style {
    theme.warning.add_modifier(Modifier::REVERSED)
}

/// The line's text in `style`, each control character (or bidirectional
/// override) an escape in `escaped`, tabs as spaces to the next stop.
fn spans(line: &str, style: Style, escaped: Style) -> Vec<Span<'static>> {
    let mut out = Vec::new();
    let mut plain = String::new();
    let mut column = 0;
    for c in line.chars() {
        if c == '\t' {
            let width = TAB - column % TAB;
            plain.extend(std::iter::repeat_n(' ', width));
            column += width;
            continue;
        }
        let shown = crate::display::safe(c.encode_utf8(&mut [0; 4]));
        if shown.chars().count() == 1 {
            plain.push(c);
            column += 1;
            continue;
        }
        if !plain.is_empty() {
            out.push(Span::styled(std::mem::take(&mut plain), style));
        }
        column += shown.chars().count();
        out.push(Span::styled(shown, escaped));
    }
    if !plain.is_empty() || out.is_empty() {
        out.push(Span::styled(plain, style));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(line: &Line) -> String {
        line.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn a_files_escape_sequences_are_shown_not_obeyed() {
        let theme = Theme::dark();
        let diff = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1,2 @@\n keep\n+\x1b[8msecret\x1b[0m\t\x1b[30;40mdark\n--- removed\n";
        let l = lines(diff, &theme);
        assert_eq!(l.len(), 7);
        assert_eq!(text(&l[5]), "+\\x1b[8msecret\\x1b[0m   \\x1b[30;40mdark");
        assert_eq!(l[5].spans[0].style, theme.active);
        assert_eq!(l[5].spans[1].style, escape_style(&theme));
        assert_eq!(l[1].spans[0].style.add_modifier, Modifier::BOLD, "a header");
        assert_eq!(l[3].spans[0].style, theme.idle);
        assert_eq!(
            l[6].spans[0].style,
            theme.errored.remove_modifier(Modifier::BOLD),
            "a removed line in a hunk, though it reads like a header"
        );
    }

    #[test]
    fn tabs_reach_the_next_stop_and_an_empty_line_stays() {
        let l = spans("+a\tb", Style::new(), Style::new());
        assert_eq!(l[0].content, "+a      b");
        assert_eq!(spans("", Style::new(), Style::new()).len(), 1);
    }
}
