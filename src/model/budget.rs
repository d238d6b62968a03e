//! Spend limits (`[budget]` in config.toml) and the rules that say a
//! session or a day is over them, in one place: the catalog marks the
//! rows, the dashboard marks the header and alerts, `ls --json` says it.

use chrono::{DateTime, Local, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

/// The operator's limits in USD; `None` is no limit.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Budget {
    /// The most one session may spend (all its conversations).
    pub session_usd: Option<f64>,
    /// The most every session together may spend in one local day.
    pub day_usd: Option<f64>,
}

impl Budget {
    /// The per-session limit a session that spent `cost` is over, if any.
    /// Strictly over: spending exactly the limit is within it.
    pub fn session_over(&self, cost: Option<f64>) -> Option<f64> {
        over(cost?, self.session_usd?)
    }

    /// The daily limit a day's spend `today` is over, if any.
    pub fn day_over(&self, today: f64) -> Option<f64> {
        over(today, self.day_usd?)
    }
}

fn over(spent: f64, limit: f64) -> Option<f64> {
    (spent > limit).then_some(limit)
}

/// A limit as the screen says it: `$5`, `$12.50`, `$0.10`.
pub fn usd_limit(usd: f64) -> String {
    if usd.fract() == 0.0 {
        format!("${usd:.0}")
    } else {
        format!("${usd:.2}")
    }
}

/// What a session spent on one local day, by its records' own times.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DaySpend {
    /// The local day it was counted for (`2026-12-02`): a figure of an
    /// earlier day says nothing of today.
    pub day: NaiveDate,
    pub usd: f64,
}

/// The local day `at` falls on (the operator's time zone).
pub fn local_day(at: DateTime<Utc>) -> NaiveDate {
    at.with_timezone(&Local).date_naive()
}

/// When the local day `day` began. A midnight that the clocks skip (a
/// time-zone change at 00:00) begins at the first instant after it.
pub fn day_start(day: NaiveDate) -> DateTime<Utc> {
    let midnight = day.and_time(chrono::NaiveTime::MIN);
    match midnight.and_local_timezone(Local) {
        chrono::LocalResult::Single(t) | chrono::LocalResult::Ambiguous(t, _) => t.to_utc(),
        // Skipped: an hour later exists (no zone skips more at midnight).
        chrono::LocalResult::None => (midnight + chrono::Duration::hours(1))
            .and_local_timezone(Local)
            .earliest()
            .map_or_else(|| midnight.and_utc(), |t| t.to_utc()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn over_means_strictly_more_than_the_limit() {
        let b = Budget {
            session_usd: Some(5.0),
            day_usd: Some(50.0),
        };
        assert_eq!(b.session_over(Some(5.01)), Some(5.0));
        assert_eq!(b.session_over(Some(5.0)), None);
        assert_eq!(b.session_over(None), None, "an unknown cost is not over");
        assert_eq!(b.day_over(50.5), Some(50.0));
        assert_eq!(b.day_over(12.4), None);
        assert_eq!(Budget::default().session_over(Some(1e9)), None);
        assert_eq!(Budget::default().day_over(1e9), None);
        assert_eq!(
            (usd_limit(5.0), usd_limit(0.1)),
            ("$5".into(), "$0.10".into())
        );
    }

    #[test]
    fn a_day_starts_at_its_local_midnight() {
        let now = Utc::now();
        let day = local_day(now);
        let start = day_start(day);
        assert!(start <= now && now - start < chrono::Duration::hours(25));
        assert_eq!(local_day(start), day);
        assert_ne!(local_day(start - chrono::Duration::seconds(1)), day);
    }
}
