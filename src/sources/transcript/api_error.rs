//! The error Claude Code showed the operator, as its transcript records it:
//! an assistant record with `isApiErrorMessage: true` whose text is what the
//! screen said (`API Error: 400 <message>`); its `error` field is often just
//! "unknown". Read so that an errored session says why even when the hook's
//! payload did not.

use serde::Deserialize;

/// Longer error texts are cut: they are a reason, not a document.
const MAX_CHARS: usize = 500;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Line {
    #[serde(default)]
    is_api_error_message: bool,
    message: Option<Message>,
}

#[derive(Deserialize)]
struct Message {
    #[serde(default)]
    content: Vec<Block>,
}

#[derive(Deserialize)]
struct Block {
    text: Option<String>,
}

/// The error text of an API-error record; `None` for any other line.
pub fn parse(line: &[u8]) -> Option<String> {
    if !super::contains(line, b"\"isApiErrorMessage\":true") {
        return None;
    }
    let parsed: Line = serde_json::from_slice(line).ok()?;
    if !parsed.is_api_error_message {
        return None;
    }
    let text: String = parsed
        .message?
        .content
        .into_iter()
        .filter_map(|b| b.text)
        .collect::<Vec<_>>()
        .join(" ");
    let text = text.trim();
    (!text.is_empty()).then(|| text.chars().take(MAX_CHARS).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_words_of_an_api_error_record_only() {
        let line = br#"{"type":"assistant","message":{"model":"<synthetic>","content":[{"type":"text","text":"API Error: 400 nope"}]},"error":"unknown","isApiErrorMessage":true}"#;
        assert_eq!(parse(line).as_deref(), Some("API Error: 400 nope"));
        let plain =
            br#"{"type":"assistant","message":{"content":[{"type":"text","text":"fine"}]}}"#;
        assert_eq!(parse(plain), None);
        let empty = br#"{"message":{"content":[]},"isApiErrorMessage":true}"#;
        assert_eq!(parse(empty), None);
        assert_eq!(parse(br#"{"isApiErrorMessage":true"#), None);
    }
}
