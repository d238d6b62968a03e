//! Text helpers for the views: display widths, word wrapping of styled
//! text, label/value rows, and numbers.

use ratatui::prelude::*;

/// Display width of a string, in terminal cells.
pub fn width(s: &str) -> usize {
    Span::raw(s).width()
}

fn char_width(c: char) -> usize {
    let mut buf = [0u8; 4];
    width(c.encode_utf8(&mut buf))
}

/// Control characters (newlines, escapes) become spaces: file values must
/// not move the cursor, and a question's line breaks become word breaks.
pub fn clean(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Cuts `s` to at most `max` cells, marking a cut with `…`.
pub fn fit(s: &str, max: usize) -> String {
    let s = clean(s);
    if width(&s) <= max {
        return s;
    }
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = char_width(c);
        if used + w + 1 > max {
            break;
        }
        out.push(c);
        used += w;
    }
    if max > 0 {
        out.push('…');
    }
    out
}

/// `s` cut or padded with spaces to exactly `w` cells.
pub fn pad(s: &str, w: usize) -> String {
    let mut out = fit(s, w);
    let used = width(&out);
    out.extend(std::iter::repeat_n(' ', w.saturating_sub(used)));
    out
}

/// `s` right-aligned in `w` cells.
pub fn rpad(s: &str, w: usize) -> String {
    let s = fit(s, w);
    let used = width(&s);
    let mut out: String = std::iter::repeat_n(' ', w.saturating_sub(used)).collect();
    out.push_str(&s);
    out
}

/// Word-wraps styled spans into lines of at most `max` cells. Words longer
/// than a line are broken between characters.
pub fn wrap(spans: Vec<Span<'static>>, max: usize) -> Vec<Vec<Span<'static>>> {
    wrap_widths(spans, max, max)
}

/// Like [`wrap`], with the first line `first` cells wide and the others `rest`.
pub fn wrap_widths(
    spans: Vec<Span<'static>>,
    first: usize,
    rest: usize,
) -> Vec<Vec<Span<'static>>> {
    let (first, rest) = (first.max(1), rest.max(1));
    let mut lines: Vec<Vec<Span<'static>>> = Vec::new();
    let mut line: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for span in spans {
        let style = span.style;
        let content = clean(&span.content);
        for token in content.split_inclusive(' ') {
            let max = if lines.is_empty() { first } else { rest };
            let word_w = width(token.trim_end_matches(' '));
            if used > 0 && used + word_w > max {
                lines.push(std::mem::take(&mut line));
                used = 0;
            }
            let max = if lines.is_empty() { first } else { rest };
            let token = if used == 0 && !lines.is_empty() {
                token.trim_start_matches(' ')
            } else {
                token
            };
            if used + width(token.trim_end_matches(' ')) > max {
                // A word longer than the line: break it between characters.
                let mut part = String::new();
                for c in token.chars() {
                    let max = if lines.is_empty() { first } else { rest };
                    let w = char_width(c);
                    if used + w > max && used > 0 {
                        line.push(Span::styled(std::mem::take(&mut part), style));
                        lines.push(std::mem::take(&mut line));
                        used = 0;
                    }
                    part.push(c);
                    used += w;
                }
                line.push(Span::styled(part, style));
                continue;
            }
            if !token.is_empty() {
                line.push(Span::styled(token.to_owned(), style));
                used += width(token);
            }
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    for line in &mut lines {
        trim_end(line);
    }
    lines
}

/// Drops the spaces a wrapped line ends with.
fn trim_end(line: &mut Vec<Span<'static>>) {
    while let Some(last) = line.last_mut() {
        let trimmed = last.content.trim_end_matches(' ');
        if trimmed.is_empty() {
            line.pop();
        } else {
            if trimmed.len() != last.content.len() {
                last.content = trimmed.to_owned().into();
            }
            break;
        }
    }
}

/// A `label  value` row: the label in a fixed column, the value wrapped and
/// its continuation lines indented under itself.
pub fn kv(
    label: &str,
    value: Vec<Span<'static>>,
    label_style: Style,
    label_w: usize,
    max: usize,
) -> Vec<Line<'static>> {
    let wrapped = wrap(value, max.saturating_sub(label_w).max(8));
    wrapped
        .into_iter()
        .enumerate()
        .map(|(i, spans)| {
            let head = if i == 0 {
                Span::styled(pad(label, label_w), label_style)
            } else {
                Span::raw(" ".repeat(label_w))
            };
            let mut all = vec![head];
            all.extend(spans);
            Line::from(all)
        })
        .collect()
}

/// Wraps styled spans with every continuation line indented by `indent` cells.
pub fn hanging(spans: Vec<Span<'static>>, indent: usize, max: usize) -> Vec<Line<'static>> {
    let rest = max.saturating_sub(indent).max(8);
    wrap_widths(spans, max, rest)
        .into_iter()
        .enumerate()
        .map(|(i, spans)| {
            if i == 0 {
                Line::from(spans)
            } else {
                let mut all = vec![Span::raw(" ".repeat(indent))];
                all.extend(spans);
                Line::from(all)
            }
        })
        .collect()
}

/// A path as one span per component, so wrapping breaks it after a `/`.
pub fn path_spans(path: &str, style: Style) -> Vec<Span<'static>> {
    path.split_inclusive('/')
        .map(|part| Span::styled(part.to_owned(), style))
        .collect()
}

/// `1234567` -> `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `1234567` -> `1.2M`, `34000` -> `34k`, `950` -> `950`.
pub fn compact(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..10_000 => format!("{:.1}k", n as f64 / 1e3),
        10_000..1_000_000 => format!("{}k", n / 1_000),
        1_000_000..10_000_000 => format!("{:.1}M", n as f64 / 1e6),
        10_000_000..1_000_000_000 => format!("{}M", n / 1_000_000),
        _ => format!("{:.1}G", n as f64 / 1e9),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[Vec<Span<'static>>]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn wraps_on_words_and_breaks_long_ones() {
        let lines = wrap(vec![Span::raw("Claude needs your permission")], 12);
        assert_eq!(texts(&lines), ["Claude needs", "your", "permission"]);
        let lines = wrap(vec![Span::raw("/a/very/long/path")], 6);
        assert_eq!(texts(&lines), ["/a/ver", "y/long", "/path"]);
        let lines = wrap(vec![Span::raw("a\nb")], 10);
        assert_eq!(texts(&lines), ["a b"]);
    }

    #[test]
    fn numbers_read_well() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(thousands(100), "100");
        assert_eq!(compact(950), "950");
        assert_eq!(compact(1_250), "1.2k");
        assert_eq!(compact(34_000), "34k");
        assert_eq!(compact(1_250_000), "1.2M");
    }

    #[test]
    fn fit_and_pad_count_cells() {
        assert_eq!(fit("abcdef", 4), "abc…");
        assert_eq!(pad("ab", 4), "ab  ");
        assert_eq!(rpad("ab", 4), "  ab");
        assert_eq!(pad("abcdef", 4), "abc…");
    }
}
