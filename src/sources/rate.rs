//! Tokens per minute over the last few minutes, for any usage reader
//! (Claude transcripts, Gemini session files): a small window of timed
//! counts, trimmed as newer ones arrive.

use std::collections::VecDeque;

use chrono::{DateTime, Duration, Utc};

/// The window for tokens per minute.
const WINDOW_MINUTES: i64 = 5;

#[derive(Debug, Clone, Default)]
pub struct RateWindow {
    entries: VecDeque<(DateTime<Utc>, u64)>,
}

impl RateWindow {
    /// Counts `tokens` at `at`, forgetting what fell out of the window
    /// before the newest entry (records may come slightly out of order).
    pub fn note(&mut self, at: DateTime<Utc>, tokens: u64) {
        self.entries.push_back((at, tokens));
        let newest = self.entries.iter().map(|(t, _)| *t).max().unwrap_or(at);
        let cutoff = newest - Duration::minutes(WINDOW_MINUTES);
        while self.entries.front().is_some_and(|(t, _)| *t < cutoff) {
            self.entries.pop_front();
        }
    }

    /// Tokens per minute over the window before `now`.
    pub fn per_minute(&self, now: DateTime<Utc>) -> f64 {
        let since = now - Duration::minutes(WINDOW_MINUTES);
        let sum: u64 = self
            .entries
            .iter()
            .filter(|(t, _)| *t >= since && *t <= now)
            .map(|(_, n)| n)
            .sum();
        sum as f64 / WINDOW_MINUTES as f64
    }

    /// When the newest count was made: the agent's last answer.
    pub fn newest(&self) -> Option<DateTime<Utc>> {
        self.entries.iter().map(|(t, _)| *t).max()
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }
}
