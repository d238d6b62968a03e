//! The settings file's own layout (line ends, indentation, one line or
//! many), which the text greenroom adds follows.

use serde::Serialize;
use serde_json::Value;

use super::item_spans;
use crate::sources::json_spans::Node;

/// One new entry: a list's item (no key) or an object's member.
pub(super) struct Entry {
    pub(super) key: Option<String>,
    pub(super) value: Value,
}

/// The file's layout, which the text greenroom adds follows.
pub(super) struct Layout {
    pub(super) newline: &'static str,
    /// One level of indentation, as the file's first member has it.
    pub(super) unit: String,
    /// The whole value on one line.
    pub(super) compact: bool,
}

/// The whitespace just before `at`: what separates an item from the comma
/// or bracket before it.
pub(super) fn space_before(text: &str, at: usize) -> &str {
    let head = &text[..at];
    let kept = head.trim_end_matches([' ', '\t', '\n', '\r']);
    &head[kept.len()..]
}

/// The indentation a separator gives the next item; None when the item
/// is on the same line (the list is written on one line).
pub(super) fn indent_in(sep: &str) -> Option<&str> {
    sep.rfind('\n').map(|n| &sep[n + 1..])
}

/// The indentation of the line `at` is on.
fn line_indent(text: &str, at: usize) -> &str {
    let start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    let line = &text[start..at];
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

impl Layout {
    pub(super) fn of(text: &str, root: &Node) -> Self {
        let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
        let first = item_spans(root).first().map(|s| s.start);
        let unit = first
            .and_then(|at| indent_in(space_before(text, at)))
            .filter(|u| !u.is_empty())
            .unwrap_or("  ")
            .to_owned();
        // `{}` gets one line per entry, as a file written anew does.
        let compact = first.is_some() && !text[root.span.clone()].contains('\n');
        Layout {
            newline,
            unit,
            compact,
        }
    }

    /// An entry as text: on lines indented from `indent`, or on one line.
    pub(super) fn render(&self, entry: &Entry, indent: Option<&str>) -> String {
        let value = match indent {
            Some(indent) => self.pretty(&entry.value, indent),
            None => serde_json::to_string(&entry.value).unwrap_or_default(),
        };
        match &entry.key {
            Some(key) => {
                let key = serde_json::to_string(key).unwrap_or_default();
                format!("{key}: {value}")
            }
            None => value,
        }
    }

    fn pretty(&self, value: &Value, indent: &str) -> String {
        let mut out = Vec::new();
        let format = serde_json::ser::PrettyFormatter::with_indent(self.unit.as_bytes());
        let mut writer = serde_json::Serializer::with_formatter(&mut out, format);
        if value.serialize(&mut writer).is_err() {
            return String::new();
        }
        let text = String::from_utf8_lossy(&out);
        text.replace('\n', &format!("{}{indent}", self.newline))
    }

    /// The inside of an empty list or object (the one opened at `open`)
    /// holding `entries`.
    pub(super) fn fill(&self, text: &str, open: usize, entries: &[Entry]) -> String {
        if entries.is_empty() {
            return String::new();
        }
        if self.compact {
            let all: Vec<String> = entries.iter().map(|e| self.render(e, None)).collect();
            return all.join(",");
        }
        let outer = line_indent(text, open);
        let indent = format!("{outer}{}", self.unit);
        let sep = format!("{}{indent}", self.newline);
        let all: Vec<String> = entries
            .iter()
            .map(|e| self.render(e, Some(&indent)))
            .collect();
        format!(
            "{sep}{}{}{outer}",
            all.join(&format!(",{sep}")),
            self.newline
        )
    }
}
