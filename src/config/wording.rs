//! A config.toml mistake as one line a person can act on: where (line and
//! key), what is wrong, and what to do. toml's own message draws a
//! multi-line snippet, which is fine for a compiler and too much for a
//! settings typo.

use std::ops::Range;

/// `line 3: unknown key `stuk_after_seconds`; did you mean
/// `stuck_after_seconds`? fix or remove it`, or `line 1, key `alerts`:
/// invalid type: string "yes", expected a boolean; fix this line`.
pub(super) fn describe(text: &str, error: &toml::de::Error) -> String {
    let message = one_line(error.message());
    let place = error.span().map(|span| place(text, span));
    let what = match unknown_field(&message) {
        Some((field, known)) => {
            let hint = closest(&field, &known)
                .map(|k| format!("did you mean `{k}`? "))
                .unwrap_or_default();
            let what = format!(
                "unknown key `{field}`; {hint}fix or remove it (README \"Settings\" lists every key)"
            );
            // The key is in the message already.
            return match place {
                Some(p) => format!("line {}: {what}", p.line),
                None => what,
            };
        }
        None => format!("{message}; fix this line"),
    };
    match place {
        Some(Place {
            line,
            key: Some(key),
        }) => format!("line {line}, key `{key}`: {what}"),
        Some(Place { line, key: None }) => format!("line {line}: {what}"),
        None => what,
    }
}

struct Place {
    line: usize,
    /// The dotted key the line sets, with its `[table]`, when the line has one.
    key: Option<String>,
}

fn place(text: &str, span: Range<usize>) -> Place {
    let start = span.start.min(text.len());
    let before = text.get(..start).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let table = before
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('[') && l.ends_with(']'))
        .map(|l| l.trim_matches(['[', ']']).trim().to_owned());
    let this_line = text.lines().nth(line - 1).unwrap_or("").trim();
    let key = this_line
        .split_once('=')
        .map(|(k, _)| k.trim().trim_matches('"').to_owned())
        .filter(|k| !k.is_empty() && !k.starts_with('#'))
        .map(|k| match &table {
            Some(t) => format!("{t}.{k}"),
            None => k,
        });
    Place { line, key }
}

/// toml's message, on one line.
fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// serde's "unknown field `x`, expected one of `a`, `b`" (or "expected `a`").
fn unknown_field(message: &str) -> Option<(String, Vec<String>)> {
    let rest = message.strip_prefix("unknown field `")?;
    let (field, rest) = rest.split_once('`')?;
    let known = rest
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect();
    Some((field.to_owned(), known))
}

/// The known key a typo most likely meant: at most a third of its letters off.
fn closest<'a>(typed: &str, known: &'a [String]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (distance(typed, k), k))
        .filter(|(d, k)| *d <= (k.chars().count() / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k.as_str())
}

/// Levenshtein distance, by characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn describe_text(text: &str) -> String {
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct File {
            stuck_after_seconds: Option<u64>,
            agents: Option<std::collections::BTreeMap<String, Agent>>,
        }
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Agent {
            launch: String,
        }
        let err = toml::from_str::<File>(text).unwrap_err();
        describe(text, &err)
    }

    #[test]
    fn a_typo_names_the_line_the_key_and_the_likely_key() {
        let d = describe_text("\n\nstuk_after_seconds = 5\n");
        assert!(
            d.starts_with("line 3: unknown key `stuk_after_seconds`"),
            "{d}"
        );
        assert!(d.contains("did you mean `stuck_after_seconds`?"), "{d}");
        assert!(!d.contains('\n'), "{d}");
    }

    #[test]
    fn a_typo_in_a_table_gets_its_table_s_keys() {
        let d = describe_text("[agents.mine]\nlauch = \"x\"\n");
        assert!(d.starts_with("line 2: unknown key `lauch`"), "{d}");
        assert!(d.contains("did you mean `launch`?"), "{d}");
    }

    #[test]
    fn a_wrong_type_or_broken_syntax_is_one_line_too() {
        let d = describe_text("stuck_after_seconds = \"ten\"\n");
        assert!(d.starts_with("line 1, key `stuck_after_seconds`:"), "{d}");
        let d = describe_text("[agents.mine]\nlaunch = 1\n");
        assert!(d.starts_with("line 2, key `agents.mine.launch`:"), "{d}");
        assert!(!d.contains('\n'), "{d}");
        let d = describe_text("stuck_after_seconds = \"ten\n");
        assert!(d.starts_with("line 1"), "{d}");
        assert!(!d.contains('\n'), "{d}");
    }

    #[test]
    fn a_far_off_name_gets_no_guess() {
        assert_eq!(closest("colour", &["alerts".into()]), None);
        assert_eq!(distance("stuk", "stuck"), 1);
    }
}
