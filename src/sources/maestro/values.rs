//! Tolerant readers for single frontmatter values. State files are written
//! by models and by hand: a count may be a string, an id may be `2.1.1`, and
//! a string may carry literal backslash-quotes. Each reader takes what the
//! file says and records a note when a value cannot be used as its kind.

use serde_json::Value;

use crate::model::PhaseId;

/// What reading noticed about a file, turned into contradiction notes.
#[derive(Debug, Default)]
pub(super) struct Reader {
    /// Some value was wrapped in literal `\"`; reported once per file.
    pub backslash_quoted: bool,
    pub notes: Vec<String>,
}

impl Reader {
    /// A value as text: strings as written, numbers and booleans rendered,
    /// lists and mappings as compact JSON. `null` and absent are `None`.
    pub fn text(&mut self, value: Option<&Value>) -> Option<String> {
        match value? {
            Value::Null => None,
            Value::String(s) => Some(self.unquote(s).to_owned()),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            other => Some(other.to_string()),
        }
    }

    /// Drops one pair of literal `\"` around a hand-written value.
    pub fn unquote<'a>(&mut self, s: &'a str) -> &'a str {
        match s
            .strip_prefix("\\\"")
            .and_then(|rest| rest.strip_suffix("\\\""))
        {
            Some(inner) => {
                self.backslash_quoted = true;
                inner
            }
            None => s,
        }
    }

    /// A list of texts; a single value counts as a list of one.
    pub fn texts(&mut self, value: Option<&Value>) -> Vec<String> {
        match value {
            Some(Value::Array(items)) => items.iter().filter_map(|v| self.text(Some(v))).collect(),
            other => self.text(other).into_iter().collect(),
        }
    }

    /// A non-negative whole number, written as a number or a string.
    /// `what` names the key in the note when the value is not one.
    pub fn count(&mut self, value: Option<&Value>, what: &str) -> Option<u64> {
        let value = value.filter(|v| !v.is_null())?;
        let parsed = match value {
            Value::Number(n) => n.as_u64().or_else(|| whole_f64(n.as_f64()?)),
            Value::String(s) => self.unquote(s).trim().parse().ok(),
            _ => None,
        };
        if parsed.is_none() {
            self.notes
                .push(format!("{what} is {}, not a count; ignored", short(value)));
        }
        parsed
    }

    /// A phase id: a whole number, or text such as `2.1.1` kept as written.
    pub fn phase_id(&mut self, value: Option<&Value>, what: &str) -> Option<PhaseId> {
        let id = match value? {
            Value::Null => return None,
            Value::Number(n) => n
                .as_i64()
                .map_or_else(|| PhaseId::Text(n.to_string()), PhaseId::Number),
            Value::String(s) => {
                let s = self.unquote(s).trim();
                if s.is_empty() {
                    return None;
                }
                s.parse()
                    .map_or_else(|_| PhaseId::Text(s.to_owned()), PhaseId::Number)
            }
            other => {
                self.notes.push(format!(
                    "{what} is {}, not a phase id; ignored",
                    short(other)
                ));
                return None;
            }
        };
        Some(id)
    }

    /// A yes/no flag; anything but `true` (or the text "true") is false.
    pub fn flag(&mut self, value: Option<&Value>) -> bool {
        match value {
            Some(Value::Bool(b)) => *b,
            Some(Value::String(s)) => self.unquote(s).trim().eq_ignore_ascii_case("true"),
            _ => false,
        }
    }
}

fn whole_f64(f: f64) -> Option<u64> {
    // u64::MAX as f64 rounds up to 2^64, which does not fit: compare with `<`.
    (f.is_finite() && f >= 0.0 && f.fract() == 0.0 && f < u64::MAX as f64).then_some(f as u64)
}

/// A value quoted in a note, cut short so one bad value cannot flood the UI.
pub(super) fn short(value: &Value) -> String {
    const MAX: usize = 40;
    let text = value.to_string();
    if text.chars().count() <= MAX {
        return text;
    }
    let mut cut: String = text.chars().take(MAX).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn text_renders_scalars_and_unwraps_backslash_quotes() {
        let mut r = Reader::default();
        assert_eq!(
            r.text(Some(&json!("in_progress"))).as_deref(),
            Some("in_progress")
        );
        assert_eq!(r.text(Some(&json!(3))).as_deref(), Some("3"));
        assert_eq!(r.text(Some(&json!(false))).as_deref(), Some("false"));
        assert_eq!(r.text(Some(&json!([1, "a"]))).as_deref(), Some("[1,\"a\"]"));
        assert_eq!(r.text(Some(&Value::Null)), None);
        assert_eq!(r.text(None), None);
        assert!(!r.backslash_quoted);
        assert_eq!(
            r.text(Some(&json!("\\\"done\\\""))).as_deref(),
            Some("done")
        );
        assert!(r.backslash_quoted);
    }

    #[test]
    fn unquote_needs_a_full_pair() {
        let mut r = Reader::default();
        assert_eq!(r.unquote("\\\""), "\\\"");
        assert_eq!(r.unquote("\\\"open"), "\\\"open");
        assert_eq!(r.unquote("c:\\dir\\\""), "c:\\dir\\\"");
        assert!(!r.backslash_quoted);
        assert_eq!(r.unquote("\\\"\\\""), "");
        assert!(r.backslash_quoted);
    }

    #[test]
    fn texts_accepts_a_list_or_one_value() {
        let mut r = Reader::default();
        assert_eq!(r.texts(Some(&json!(["a", null, 2]))), ["a", "2"]);
        assert_eq!(r.texts(Some(&json!("coder"))), ["coder"]);
        assert!(r.texts(None).is_empty());
    }

    #[test]
    fn count_reads_numbers_and_numeric_strings() {
        let mut r = Reader::default();
        assert_eq!(r.count(Some(&json!(5)), "total_phases"), Some(5));
        assert_eq!(r.count(Some(&json!(" 7 ")), "total_phases"), Some(7));
        assert_eq!(r.count(Some(&json!(4.0)), "total_phases"), Some(4));
        assert_eq!(r.count(Some(&Value::Null), "total_phases"), None);
        assert!(r.notes.is_empty());
        assert_eq!(r.count(Some(&json!(-3)), "retry_count"), None);
        assert_eq!(r.count(Some(&json!("many")), "retry_count"), None);
        assert_eq!(r.count(Some(&json!(1e300)), "retry_count"), None);
        assert_eq!(r.notes.len(), 3);
        assert_eq!(r.notes[0], "retry_count is -3, not a count; ignored");
        assert_eq!(r.notes[1], "retry_count is \"many\", not a count; ignored");
    }

    #[test]
    fn phase_ids_keep_text_and_read_numeric_strings() {
        let mut r = Reader::default();
        assert_eq!(r.phase_id(Some(&json!(3)), "id"), Some(PhaseId::Number(3)));
        assert_eq!(
            r.phase_id(Some(&json!("3")), "id"),
            Some(PhaseId::Number(3))
        );
        assert_eq!(
            r.phase_id(Some(&json!("2.1.1")), "id"),
            Some(PhaseId::Text("2.1.1".into()))
        );
        assert_eq!(
            r.phase_id(Some(&json!(2.5)), "id"),
            Some(PhaseId::Text("2.5".into()))
        );
        assert_eq!(r.phase_id(Some(&json!(" ")), "id"), None);
        assert!(r.notes.is_empty());
        assert_eq!(r.phase_id(Some(&json!({"a": 1})), "current_phase"), None);
        assert_eq!(
            r.notes,
            ["current_phase is {\"a\":1}, not a phase id; ignored"]
        );
    }

    #[test]
    fn flag_is_true_only_when_said_so() {
        let mut r = Reader::default();
        assert!(r.flag(Some(&json!(true))));
        assert!(r.flag(Some(&json!("True"))));
        assert!(!r.flag(Some(&json!("no"))));
        assert!(!r.flag(None));
    }

    #[test]
    fn short_caps_long_values() {
        assert_eq!(short(&json!("x".repeat(100))).chars().count(), 41);
    }
}
