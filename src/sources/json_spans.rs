//! A JSON text read for where each value is, not only what it is: greenroom
//! changes its own entries in a file the user owns (an agent's
//! settings.json) by editing those spans of the text, so every other byte
//! stays as the user wrote it: numbers no float holds (12345678901234567890,
//! 0.1000000000000000055511151231257827, `1e3`), duplicate keys, CRLF line
//! endings, indentation. Strict JSON only; a caller that words errors for
//! the operator checks the text with serde_json first.

use std::ops::Range;

/// One value and the byte range of its text.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub span: Range<usize>,
    pub kind: Kind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// Members in the order written, duplicates included.
    Object(Vec<Member>),
    Array(Vec<Node>),
    /// The decoded string.
    String(String),
    Number,
    Bool,
    Null,
}

/// `"key": value`, spanning from the key's quote to the value's end.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub key: String,
    pub span: Range<usize>,
    pub value: Node,
}

impl Node {
    /// The last member named `key` (the one JSON readers keep when a key is
    /// written twice), when this is an object.
    pub fn member(&self, key: &str) -> Option<&Member> {
        match &self.kind {
            Kind::Object(members) => members.iter().rev().find(|m| m.key == key),
            _ => None,
        }
    }

    /// What this value is, in the words errors use.
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            Kind::Object(_) => "object",
            Kind::Array(_) => "list",
            Kind::String(_) => "string",
            Kind::Number => "number",
            Kind::Bool => "boolean",
            Kind::Null => "null",
        }
    }
}

/// Deeper than this is refused (serde_json's own limit): the reader recurses.
const MAX_DEPTH: usize = 128;

/// Reads `text` (a leading byte-order mark skipped) as one JSON value with
/// nothing but whitespace around it.
pub fn parse(text: &str) -> Result<Node, String> {
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        at: 0,
    };
    if text.starts_with('\u{feff}') {
        reader.at = '\u{feff}'.len_utf8();
    }
    let node = reader.value(0)?;
    reader.skip_space();
    if reader.at == reader.bytes.len() {
        Ok(node)
    } else {
        Err(reader.error("text after the JSON value"))
    }
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn error(&self, what: &str) -> String {
        format!("{what} at byte {}", self.at)
    }

    fn skip_space(&mut self) {
        while self
            .bytes
            .get(self.at)
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Result<(), String> {
        self.skip_space();
        if self.bytes.get(self.at) == Some(&byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected `{}`", byte as char)))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, String> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        self.skip_space();
        let start = self.at;
        let kind = match self.bytes.get(self.at) {
            Some(b'{') => self.object(depth)?,
            Some(b'[') => self.array(depth)?,
            Some(b'"') => Kind::String(self.string()?),
            Some(b'-' | b'0'..=b'9') => self.number()?,
            Some(b't') => self.literal("true", Kind::Bool)?,
            Some(b'f') => self.literal("false", Kind::Bool)?,
            Some(b'n') => self.literal("null", Kind::Null)?,
            _ => return Err(self.error("expected a value")),
        };
        Ok(Node {
            span: start..self.at,
            kind,
        })
    }

    fn object(&mut self, depth: usize) -> Result<Kind, String> {
        self.at += 1;
        let mut members = Vec::new();
        self.skip_space();
        if self.bytes.get(self.at) == Some(&b'}') {
            self.at += 1;
            return Ok(Kind::Object(members));
        }
        loop {
            self.skip_space();
            let start = self.at;
            if self.bytes.get(self.at) != Some(&b'"') {
                return Err(self.error("expected a key"));
            }
            let key = self.string()?;
            self.eat(b':')?;
            let value = self.value(depth + 1)?;
            members.push(Member {
                key,
                span: start..value.span.end,
                value,
            });
            self.skip_space();
            match self.bytes.get(self.at) {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Kind::Object(members));
                }
                _ => return Err(self.error("expected `,` or `}`")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Kind, String> {
        self.at += 1;
        let mut items = Vec::new();
        self.skip_space();
        if self.bytes.get(self.at) == Some(&b']') {
            self.at += 1;
            return Ok(Kind::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.skip_space();
            match self.bytes.get(self.at) {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Kind::Array(items));
                }
                _ => return Err(self.error("expected `,` or `]`")),
            }
        }
    }

    /// A string from its opening quote; serde_json decodes the escapes.
    fn string(&mut self) -> Result<String, String> {
        let start = self.at;
        self.at += 1;
        loop {
            match self.bytes.get(self.at) {
                None => return Err(self.error("unterminated string")),
                Some(b'"') => break,
                Some(b'\\') => self.at += 2,
                Some(_) => self.at += 1,
            }
        }
        self.at += 1;
        let raw = self
            .text
            .get(start..self.at)
            .ok_or_else(|| self.error("a string ends inside a character"))?;
        serde_json::from_str(raw).map_err(|e| self.error(&format!("bad string ({e})")))
    }

    fn number(&mut self) -> Result<Kind, String> {
        let start = self.at;
        while self
            .bytes
            .get(self.at)
            .is_some_and(|b| matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
        {
            self.at += 1;
        }
        // serde_json checks the grammar; the value itself is never needed.
        let raw = &self.text[start..self.at];
        serde_json::from_str::<serde::de::IgnoredAny>(raw)
            .map(|_| Kind::Number)
            .map_err(|_| self.error("bad number"))
    }

    fn literal(&mut self, word: &str, kind: Kind) -> Result<Kind, String> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(kind)
        } else {
            Err(self.error(&format!("expected `{word}`")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_cover_the_text_as_written() {
        let text = "\u{feff}{\r\n  \"n\": 12345678901234567890,\r\n  \"n\": 1e3, \"s\": \"a\\\"\\u00e9\",\"l\":[0.1000000000000000055511151231257827, true, null]}\r\n";
        let root = parse(text).unwrap();
        let Kind::Object(members) = &root.kind else {
            panic!("{root:?}")
        };
        assert_eq!(members.len(), 4);
        assert_eq!(&text[members[0].value.span.clone()], "12345678901234567890");
        assert_eq!(&text[root.member("n").unwrap().span.clone()], "\"n\": 1e3");
        assert_eq!(
            root.member("s").unwrap().value.kind,
            Kind::String("a\"é".into())
        );
        let Kind::Array(items) = &root.member("l").unwrap().value.kind else {
            panic!()
        };
        assert_eq!(
            &text[items[0].span.clone()],
            "0.1000000000000000055511151231257827"
        );
        assert_eq!(items[2].kind_name(), "null");
    }

    #[test]
    fn anything_but_strict_json_is_refused() {
        for bad in [
            "{",
            "{\"a\":1,}",
            "[1 2]",
            "{\"a\" 1}",
            "01x",
            "// c\n{}",
            "{} {}",
            "\"abc",
            "tru",
            "[-]",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(parse(&deep).is_err());
    }
}
