//! Finding the frontmatter block and parsing it into a generic value.
//!
//! One YAML parser reads both the older YAML frontmatter and the newer JSON
//! one (`JSON.stringify(data, null, 2)`), since JSON is YAML. The parser runs
//! under a tight budget so hostile nesting or alias bombs fail fast.

use serde_json::Value;
use serde_saphyr::budget::BudgetBreach;
use serde_saphyr::{DuplicateKeyPolicy, NonFiniteFloatPolicy, SnippetMode};

const NO_FRONTMATTER: &str = "no frontmatter: the file must start with a --- line";
const NOT_CLOSED: &str =
    "frontmatter is not closed (no second --- line); the file may be truncated";
/// Far deeper than any state file, far shallower than a stack overflow.
const MAX_DEPTH: usize = 64;
/// Parser messages can quote input; keep the reason one readable line.
const MAX_REASON_CHARS: usize = 300;

/// The text between the first two `---` lines.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Block<'a> {
    pub text: &'a str,
    /// The file's 1-based line number of the block's first line, so parser
    /// errors point at the file, not at the block.
    pub first_line: usize,
}

/// Finds the frontmatter. `---` rules later in the body are not looked at.
pub(super) fn split(text: &str) -> Result<Block<'_>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut opened: Option<(usize, usize)> = None;
    let mut offset = 0;
    for (index, raw) in text.split_inclusive('\n').enumerate() {
        let line_start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        match opened {
            None if line.trim().is_empty() => {}
            None if is_rule(line) => opened = Some((offset, index + 2)),
            None => return Err(NO_FRONTMATTER.into()),
            Some((start, first_line)) if is_rule(line) => {
                return Ok(Block {
                    text: &text[start..line_start],
                    first_line,
                });
            }
            Some(_) => {}
        }
    }
    match opened {
        None if text.trim().is_empty() => {
            Err("the file is empty; expected a --- frontmatter block".into())
        }
        None => Err(NO_FRONTMATTER.into()),
        Some(_) => Err(NOT_CLOSED.into()),
    }
}

/// Hand-written files sometimes leave trailing blanks after the rule.
fn is_rule(line: &str) -> bool {
    line.trim_end() == "---"
}

/// Parses the block into a generic value (any YAML, including JSON).
pub(super) fn parse(block: &Block<'_>) -> Result<Value, String> {
    serde_saphyr::from_str_with_options::<Value>(block.text, options()).map_err(|e| {
        format!(
            "frontmatter is not valid YAML or JSON: {}",
            reason(&e, block)
        )
    })
}

fn reason(e: &serde_saphyr::Error, block: &Block<'_>) -> String {
    let offset = u64::try_from(block.first_line.saturating_sub(1)).unwrap_or(0);
    // The parser words this one as "budget breached: Depth { depth: 65 }".
    if let serde_saphyr::Error::Budget {
        breach: BudgetBreach::Depth { .. },
        location,
    } = e.without_snippet()
    {
        return format!(
            "nested more than {MAX_DEPTH} levels deep at line {}",
            location.line() + offset
        );
    }
    let rendered = e.render_with_options(serde_saphyr::render_options! {
        snippets: SnippetMode::Off,
        line_offset: offset,
    });
    one_line(&rendered)
}

/// Limits sized for state files (a few KB, at most 1 MiB): generous for any
/// real file, yet a "billion laughs" or 100,000-deep nesting stops within
/// milliseconds instead of eating memory or the stack.
fn options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_depth: MAX_DEPTH,
            flow_nesting_limit: MAX_DEPTH,
            max_aliases: 1_000,
            max_anchors: 1_000,
        },
        alias_limits: serde_saphyr::alias_limits! {
            max_total_replayed_events: 10_000,
            max_replay_stack_depth: 16,
            max_alias_expansions_per_anchor: 100,
        },
        duplicate_keys: DuplicateKeyPolicy::LastWins,
        // Values are shown as written: `yes`, `0755`, `1_000` and `.nan` stay text.
        strict_booleans: true,
        leading_zero_numbers_as_strings: true,
        underscored_numbers_as_strings: true,
        non_finite_float_policy: NonFiniteFloatPolicy::AsString,
        // A `null:` key should not sink the whole file.
        null_as_string: true,
        with_snippet: false,
    }
}

fn one_line(text: &str) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if joined.chars().count() <= MAX_REASON_CHARS {
        return joined;
    }
    let mut cut: String = joined.chars().take(MAX_REASON_CHARS).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(text: &str, first_line: usize) -> Block<'_> {
        Block { text, first_line }
    }

    #[test]
    fn split_takes_the_first_block_only() {
        let text = "---\na: 1\n---\n# body\n---\nb: 2\n---\n";
        assert_eq!(split(text), Ok(block("a: 1\n", 2)));
    }

    #[test]
    fn split_tolerates_bom_crlf_and_leading_blank_lines() {
        let text = "\u{feff}\r\n\r\n---\r\na: 1\r\n---\r\nbody";
        assert_eq!(split(text), Ok(block("a: 1\r\n", 4)));
        assert_eq!(split("---\n---"), Ok(block("", 2)));
        assert_eq!(split("--- \na: 1\n---\t\n"), Ok(block("a: 1\n", 2)));
    }

    #[test]
    fn split_reasons() {
        assert!(split("").unwrap_err().contains("empty"));
        assert!(split(" \n\n").unwrap_err().contains("empty"));
        assert_eq!(
            split("# title\n---\na: 1\n---\n").unwrap_err(),
            NO_FRONTMATTER
        );
        assert_eq!(split("----\na: 1\n---\n").unwrap_err(), NO_FRONTMATTER);
        assert_eq!(split("---").unwrap_err(), NOT_CLOSED);
        assert_eq!(split("---\na: 1\n").unwrap_err(), NOT_CLOSED);
        // A rule must be the whole line, not a prefix of one.
        assert_eq!(split("---\na: 1\n--- x\n").unwrap_err(), NOT_CLOSED);
    }

    #[test]
    fn parse_keeps_values_as_written() {
        let v = parse(&block(
            "a: 1\na: 2\nb: yes\nc: 0755\nd: 2.1.1\ne: .nan\nf: ~\n",
            2,
        ))
        .unwrap();
        assert_eq!(v["a"], 2, "duplicate keys: last wins");
        assert_eq!(v["b"], "yes");
        assert_eq!(v["c"], "0755");
        assert_eq!(v["d"], "2.1.1");
        assert_eq!(v["e"], ".nan");
        assert!(v["f"].is_null());
    }

    #[test]
    fn parse_reads_json() {
        let v = parse(&block("{\n  \"a\": [1, \"x\\ny\"],\n  \"b\": null\n}\n", 2)).unwrap();
        assert_eq!(v["a"][1], "x\ny");
        assert!(v["b"].is_null());
    }

    #[test]
    fn parse_errors_name_the_file_line() {
        let err = parse(&block("a: 1\nb: [1, 2\nc: 3\n", 5)).unwrap_err();
        assert!(
            err.starts_with("frontmatter is not valid YAML or JSON: "),
            "{err}"
        );
        assert!(err.contains("line 7"), "{err}");
        assert!(!err.contains('\n'));
    }

    #[test]
    fn depth_errors_are_worded_for_people() {
        let deep = format!("a:\n  {}x\n", "- ".repeat(100));
        let err = parse(&block(&deep, 3)).unwrap_err();
        assert_eq!(
            err,
            "frontmatter is not valid YAML or JSON: nested more than 64 levels deep at line 4"
        );
    }

    #[test]
    fn one_line_collapses_and_caps() {
        assert_eq!(one_line("a\n  b\tc"), "a b c");
        let long = one_line(&"x".repeat(1000));
        assert_eq!(long.chars().count(), MAX_REASON_CHARS + 1);
    }
}
