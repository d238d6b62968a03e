//! What a waiting agent asks, from its hook payloads: the tool and command
//! of the call it holds (Claude Code's PreToolUse and PermissionRequest,
//! Gemini CLI's BeforeTool: `tool_name`, `tool_input.command`) and the
//! words of its question (Claude Code's Notification `message`, Gemini
//! CLI's `details.command`); for Claude Code's AskUserQuestion, the
//! question it puts and its choices (`tool_input.questions[]`, whose
//! `question` and `options[].label` are what its dialog shows). Payloads
//! are untrusted: every text is cleaned of control characters and bounded.

use serde_json::Value;

use crate::sources::sidecar::{MAX_OPTIONS, ToolCall};

/// The longest tool name or command kept, in characters.
pub const MAX_TEXT_CHARS: usize = 200;

/// What a payload says about the tool call the agent holds.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ToolUpdate {
    /// A call is about to run or waits for permission.
    Set(ToolCall),
    /// The turn moved on: no call is held any more.
    Clear,
    /// Nothing about tools (a Notification, an unknown event).
    #[default]
    Keep,
}

/// One line of untrusted text: controls (newlines too) become spaces,
/// runs of spaces one, at most `max` characters (`…` marks a cut). None
/// when nothing is left.
pub fn clean(text: &str, max: usize) -> Option<String> {
    let mut out = String::new();
    let mut count = 0;
    for word in text
        .split(|c: char| c.is_whitespace() || c.is_control() || is_bidi(c))
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push(' ');
            count += 1;
        }
        for c in word.chars() {
            if count >= max {
                out.push('…');
                return Some(out);
            }
            out.push(c);
            count += 1;
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Bidirectional overrides and isolates, which could make a command read
/// as another.
fn is_bidi(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}')
}

/// The part of a tool's input that says what it will do.
fn input_summary(input: &Value) -> Option<String> {
    ["command", "file_path", "path", "url", "pattern", "query"]
        .iter()
        .find_map(|k| input.get(*k).and_then(Value::as_str))
        .and_then(|t| clean(t, MAX_TEXT_CHARS))
}

/// The first question of an AskUserQuestion call and its choices'
/// labels. Claude Code shows one question at a time, and a digit picks
/// one of the choices of the question on screen: the first.
pub(super) fn asked(input: &Value) -> (Option<String>, Vec<String>) {
    let first = input
        .get("questions")
        .and_then(Value::as_array)
        .and_then(|q| q.first());
    let Some(first) = first else {
        return (None, Vec::new());
    };
    let question = first
        .get("question")
        .and_then(Value::as_str)
        .and_then(|t| clean(t, MAX_TEXT_CHARS));
    let options = first
        .get("options")
        .and_then(Value::as_array)
        .map(|o| {
            o.iter()
                .take(MAX_OPTIONS)
                .map_while(|o| o.get("label").and_then(Value::as_str))
                .map_while(|l| clean(l, MAX_TEXT_CHARS))
                .collect()
        })
        .unwrap_or_default();
    (question, options)
}

/// The tool-call update a payload carries.
pub fn tool_update(payload: &Value) -> ToolUpdate {
    let event = payload.get("hook_event_name").and_then(Value::as_str);
    match event {
        Some("PreToolUse" | "PermissionRequest" | "BeforeTool") => {
            let tool = payload
                .get("tool_name")
                .and_then(Value::as_str)
                .and_then(|t| clean(t, MAX_TEXT_CHARS));
            let input = payload.get("tool_input");
            let command = input.and_then(input_summary);
            let (question, options) = input.map(asked).unwrap_or_default();
            if tool.is_none() && command.is_none() && question.is_none() {
                return ToolUpdate::Keep;
            }
            ToolUpdate::Set(ToolCall {
                tool,
                command,
                question,
                options,
            })
        }
        Some("Notification") | None => ToolUpdate::Keep,
        Some(_) => ToolUpdate::Clear,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn clean_makes_one_bounded_line() {
        assert_eq!(
            clean("rm -rf\n/tmp/x\t\u{1b}[31m", 100).as_deref(),
            Some("rm -rf /tmp/x [31m")
        );
        assert_eq!(clean("abc\u{202e}def", 100).as_deref(), Some("abc def"));
        assert_eq!(clean("abcdef", 3).as_deref(), Some("abc…"));
        assert_eq!(clean(" \n\t ", 10), None);
    }

    #[test]
    fn tool_calls_are_set_kept_and_cleared() {
        let pre = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                         "tool_input": {"command": "ls -la", "description": "List"}});
        assert_eq!(
            tool_update(&pre),
            ToolUpdate::Set(ToolCall {
                tool: Some("Bash".into()),
                command: Some("ls -la".into()),
                ..ToolCall::default()
            })
        );
        let edit = json!({"hook_event_name": "PermissionRequest", "tool_name": "Edit",
                          "tool_input": {"file_path": "/w/src/main.rs"}});
        assert!(matches!(tool_update(&edit),
            ToolUpdate::Set(ToolCall { command: Some(c), .. }) if c == "/w/src/main.rs"));
        let note = json!({"hook_event_name": "Notification", "message": "Claude needs your permission to use Bash"});
        assert_eq!(tool_update(&note), ToolUpdate::Keep);
        let post = json!({"hook_event_name": "PostToolUse", "tool_name": "Bash"});
        assert_eq!(tool_update(&post), ToolUpdate::Clear);
        let bare = json!({"hook_event_name": "PreToolUse", "tool_input": 3});
        assert_eq!(tool_update(&bare), ToolUpdate::Keep);
    }

    /// Claude Code 2.1.328's own PermissionRequest for an AskUserQuestion
    /// call (recorded by the interop suite): the question and its choices'
    /// labels, in order.
    #[test]
    fn a_question_holds_its_words_and_choices() {
        let real = include_str!(
            "../../../tests/fixtures/real/claude-hook-payloads/greenroom-standin__claude-code-2.1.328__PermissionRequest__ask-user-question.json"
        );
        let payload: Value = serde_json::from_str(real).unwrap();
        assert_eq!(
            tool_update(&payload),
            ToolUpdate::Set(ToolCall {
                tool: Some("AskUserQuestion".into()),
                command: None,
                question: Some("Which colour shall the button be?".into()),
                options: vec!["Red".into(), "Blue".into(), "Green".into()],
            })
        );
    }

    /// Untrusted choices: cleaned, at most nine (the digits), and none
    /// after one without a label (the numbers would no longer match).
    #[test]
    fn choices_are_cleaned_bounded_and_keep_their_numbers() {
        let many: Vec<Value> = (1..=12)
            .map(|n| json!({"label": format!("o{n}")}))
            .collect();
        let input = json!({"questions": [{"question": "Pick\n\u{1b}one?", "options": many}]});
        let (question, options) = asked(&input);
        assert_eq!(question.as_deref(), Some("Pick one?"));
        assert_eq!(options.len(), MAX_OPTIONS);
        assert_eq!(options[8], "o9");
        let gap = json!({"questions": [{"question": "Q?",
            "options": [{"label": "a"}, {"label": 3}, {"label": "c"}]}]});
        assert_eq!(asked(&gap).1, vec!["a".to_owned()]);
        assert_eq!(asked(&json!({"questions": "no"})), (None, Vec::new()));
    }
}
