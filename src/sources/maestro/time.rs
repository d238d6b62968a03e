//! Maestro's times, typed where they are read: one parse for every field
//! that holds one.

use chrono::{DateTime, Utc};

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
