//! Reading one field of an ao session file: text, object or time, with the
//! dotted name of the field in every error the operator sees.

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::Object;

pub(super) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The value at a dotted `name` (the last segment is the key in `object`);
/// the full name is what error messages show.
fn value<'a>(object: Option<&'a Object>, name: &str) -> Option<&'a Value> {
    object?.get(name.rsplit('.').next()?)
}

/// Text, with null and "" meaning absent. Other types are refused: a tmux
/// target that is not text is not something to send `kill-session` to.
pub(super) fn field(object: Option<&Object>, name: &str) -> Result<Option<String>, String> {
    match value(object, name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone()).filter(|s| !s.is_empty())),
        Some(other) => Err(format!("`{name}` is {}, expected text", kind_of(other))),
    }
}

pub(super) fn field_object<'a>(
    object: Option<&'a Object>,
    name: &str,
) -> Result<Option<&'a Object>, String> {
    match value(object, name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(o)) => Ok(Some(o)),
        Some(other) => Err(format!(
            "`{name}` is {}, expected an object",
            kind_of(other)
        )),
    }
}

/// RFC 3339 text as ao writes it; epoch milliseconds are accepted too.
pub(super) fn field_time(
    object: Option<&Object>,
    name: &str,
) -> Result<Option<DateTime<Utc>>, String> {
    if let Some(Value::Number(n)) = value(object, name) {
        return n
            .as_i64()
            .and_then(DateTime::from_timestamp_millis)
            .map(Some)
            .ok_or_else(|| format!("`{name}` is not a time: {n}"));
    }
    let Some(raw) = field(object, name)? else {
        return Ok(None);
    };
    let shown: String = raw.chars().take(60).collect();
    DateTime::parse_from_rfc3339(raw.trim())
        .map(|t| Some(t.with_timezone(&Utc)))
        .map_err(|_| format!("`{name}` is not an RFC 3339 time: {shown:?}"))
}
