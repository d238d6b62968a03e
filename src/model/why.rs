//! The why line a row carries: which rule decided its health, in words,
//! with its ages kept as the times they count from. The view states them at
//! its own clock, so a row whose ages alone move with the clock is the same
//! row from one second to the next (and need not be built again).

use chrono::{DateTime, Utc};

use crate::display::age;

/// Words and ages, in order: `the hook reported Error `, 4m, ` ago: errored`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Why {
    parts: Vec<Part>,
    /// The line only says again what the status with its source and age
    /// says (`the hook reported Active 4s ago: active` beside
    /// `active · hook · 4s`): shown beside it, it adds nothing.
    restates: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Words(String),
    /// How long since then (`-` when unknown), the way ages are shown.
    Age(Option<DateTime<Utc>>),
}

impl Why {
    pub fn words(mut self, words: impl Into<String>) -> Self {
        self.parts.push(Part::Words(words.into()));
        self
    }

    pub fn age(mut self, since: Option<DateTime<Utc>>) -> Self {
        self.parts.push(Part::Age(since));
        self
    }

    /// Marks the line as saying nothing the status line does not.
    pub fn restating(mut self) -> Self {
        self.restates = true;
        self
    }

    /// Whether the line says more than the status with its source and age:
    /// a rule that judged something (silence, an exit status, a screen
    /// that stopped), not a report said again.
    pub fn adds(&self) -> bool {
        !self.restates && !self.is_empty()
    }

    pub fn is_empty(&self) -> bool {
        self.parts
            .iter()
            .all(|p| matches!(p, Part::Words(w) if w.is_empty()))
    }

    /// The line as read at `now`.
    pub fn at(&self, now: DateTime<Utc>) -> String {
        self.parts
            .iter()
            .map(|p| match p {
                Part::Words(w) => w.clone(),
                Part::Age(since) => age(now, *since),
            })
            .collect()
    }
}

impl From<String> for Why {
    fn from(words: String) -> Self {
        Why::default().words(words)
    }
}

impl From<&str> for Why {
    fn from(words: &str) -> Self {
        Why::default().words(words)
    }
}

#[cfg(test)]
mod tests {
    use chrono::{Duration, TimeZone};

    use super::*;

    #[test]
    fn ages_are_read_at_the_clock_they_are_shown_at() {
        let t0 = Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap();
        let why = Why::default()
            .words("pane output ")
            .age(Some(t0))
            .words(" ago");
        assert_eq!(why.at(t0 + Duration::seconds(4)), "pane output 4s ago");
        assert_eq!(why.at(t0 + Duration::minutes(3)), "pane output 3m ago");
        assert_eq!(Why::default().age(None).at(t0), "-");
        assert!(Why::default().is_empty() && Why::from("").is_empty());
        assert!(!why.is_empty());
        assert!(why.adds() && !why.clone().restating().adds());
        assert!(!Why::default().adds());
    }
}
