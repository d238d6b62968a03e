//! Maestro's times, typed where they are read: one parse for every field
//! that holds one.

use chrono::{DateTime, Utc};

use crate::model::Orchestration;

/// Maestro writes timestamps with and without milliseconds, sometimes without a zone.
pub fn parse_time(text: &str) -> Option<DateTime<Utc>> {
    let text = text.trim();
    DateTime::parse_from_rfc3339(text)
        .map(|d| d.with_timezone(&Utc))
        .ok()
        .or_else(|| {
            chrono::NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S%.f")
                .ok()
                .map(|n| n.and_utc())
        })
}

/// When the orchestration last moved on (its `updated`).
pub fn updated_at(o: &Orchestration) -> Option<DateTime<Utc>> {
    o.updated.as_deref().and_then(parse_time)
}

/// When the orchestration started (its `created`).
pub fn created_at(o: &Orchestration) -> Option<DateTime<Utc>> {
    o.created.as_deref().and_then(parse_time)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_and_without_milliseconds_or_zone() {
        let at = |s| parse_time(s).map(|t| t.to_rfc3339());
        assert_eq!(
            at("2026-03-25T22:16:00.664Z").as_deref(),
            Some("2026-03-25T22:16:00.664+00:00")
        );
        assert_eq!(
            at(" 2026-03-25T22:16:00Z ").as_deref(),
            Some("2026-03-25T22:16:00+00:00")
        );
        assert_eq!(
            at("2026-03-25T22:16:00").as_deref(),
            Some("2026-03-25T22:16:00+00:00")
        );
        assert_eq!(at("yesterday"), None);
    }
}
