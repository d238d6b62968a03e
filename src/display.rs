//! Small text helpers shared by the table, the dashboard and status lines.

use std::path::Path;

use chrono::{DateTime, Utc};

use crate::model::Session;

/// A compact age: `12s`, `4m`, `3h`, `2d`; `-` when unknown.
pub fn age(now: DateTime<Utc>, at: Option<DateTime<Utc>>) -> String {
    let Some(at) = at else {
        return "-".into();
    };
    let secs = now.signed_duration_since(at).num_seconds().max(0);
    match secs {
        0..60 => format!("{secs}s"),
        60..3600 => format!("{}m", secs / 60),
        3600..86_400 => format!("{}h", secs / 3600),
        _ => format!("{}d", secs / 86_400),
    }
}

/// A path with the home folder shown as `~`.
pub fn tilde(path: &Path, home: Option<&Path>) -> String {
    match home.and_then(|h| path.strip_prefix(h).ok()) {
        Some(rest) if rest.as_os_str().is_empty() => "~".into(),
        Some(rest) => format!("~/{}", rest.display()),
        None => path.display().to_string(),
    }
}

/// Cuts text to `width` characters, marking the cut with `…`; control
/// characters become spaces so a hostile value cannot move the cursor.
pub fn fit(text: &str, width: usize) -> String {
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if clean.chars().count() <= width {
        return clean;
    }
    let mut out: String = clean.chars().take(width.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Text from outside (a file name, a path, a field) made safe to print on
/// a terminal, keeping every character visible: control characters
/// (escape sequences, bells, newlines) and bidirectional overrides are
/// written as escapes (`\x1b`, `\n`, `\u{202e}`) instead of acting.
pub fn safe(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_ascii_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if c.is_control() || is_bidi_control(c) => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

/// A path as [`safe`] text (bytes that are not UTF-8 shown as `�`).
pub fn safe_path(path: &Path) -> String {
    safe(&path.to_string_lossy())
}

/// Characters that reorder the text around them ("Trojan source").
fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}'
    )
}

/// A row's name as the screen shows it: `HOST:NAME` for a host's row
/// (drawn from its typed host), else its own name. Shown only, never
/// read back.
pub fn row_name(s: &Session) -> std::borrow::Cow<'_, str> {
    match &s.host {
        Some(place) => format!("{}:{}", place.name, s.name).into(),
        None => s.name.as_str().into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_pick_the_largest_whole_unit() {
        let now = Utc::now();
        let ago = |s| Some(now - chrono::Duration::seconds(s));
        assert_eq!(age(now, None), "-");
        assert_eq!(age(now, ago(5)), "5s");
        assert_eq!(age(now, ago(125)), "2m");
        assert_eq!(age(now, ago(7300)), "2h");
        assert_eq!(age(now, ago(200_000)), "2d");
    }

    #[test]
    fn fit_cuts_and_cleans() {
        assert_eq!(fit("abc", 5), "abc");
        assert_eq!(fit("abcdef", 4), "abc…");
        assert_eq!(fit("a\x1b[2Jb\n", 10), "a [2Jb ");
    }

    #[test]
    fn safe_text_shows_control_characters_as_escapes() {
        assert_eq!(
            safe("a\x1b]0;pwned\x07\x1b[2Jb\n"),
            "a\\x1b]0;pwned\\x07\\x1b[2Jb\\n"
        );
        assert_eq!(safe("\u{9b}31m \u{202e}txt"), "\\u{9b}31m \\u{202e}txt");
        assert_eq!(safe("plain ünïcode/path"), "plain ünïcode/path");
    }

    #[test]
    fn tilde_shortens_home() {
        let home = Path::new("/home/u");
        assert_eq!(tilde(Path::new("/home/u/p"), Some(home)), "~/p");
        assert_eq!(tilde(Path::new("/srv"), Some(home)), "/srv");
    }
}
