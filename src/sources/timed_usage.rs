//! Usage by when it happened, for any usage reader (Claude transcripts,
//! Gemini session files, Codex rollouts): each record's tokens in the
//! quarter hour of its own timestamp, so the spend of a local day can be
//! told exactly in any time zone (every zone's offset is a whole number of
//! quarter hours). Only the last two days are kept: a day's figure needs
//! no more, and a long transcript costs no more memory than a short one.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use crate::model::ModelUsage;

/// A quarter hour, in seconds.
const SLOT_SECONDS: i64 = 15 * 60;
/// How far before the newest record slots are kept.
const KEEP_SECONDS: i64 = 48 * 3600;

/// Tokens by quarter hour (its start, in seconds since the epoch) and model.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TimedUsage {
    slots: BTreeMap<i64, BTreeMap<String, ModelUsage>>,
}

fn slot(at: DateTime<Utc>) -> i64 {
    at.timestamp().div_euclid(SLOT_SECONDS) * SLOT_SECONDS
}

impl TimedUsage {
    /// Counts `usage` of `model` at `at`, forgetting slots that fell two
    /// days behind the newest.
    pub fn add(&mut self, at: DateTime<Utc>, model: &str, usage: &ModelUsage) {
        let u = self
            .slots
            .entry(slot(at))
            .or_default()
            .entry(model.to_owned())
            .or_default();
        u.add(usage);
        let newest = self.slots.keys().next_back().copied().unwrap_or(0);
        self.slots = self.slots.split_off(&(newest - KEEP_SECONDS));
    }

    /// Takes back `usage` counted at `at` (a record written again replaces
    /// what it said).
    pub fn remove(&mut self, at: DateTime<Utc>, model: &str, usage: &ModelUsage) {
        let Some(u) = self
            .slots
            .get_mut(&slot(at))
            .and_then(|models| models.get_mut(model))
        else {
            return;
        };
        u.sub(usage);
    }

    /// Every token counted at or after `start`, by model.
    pub fn since(&self, start: DateTime<Utc>) -> BTreeMap<String, ModelUsage> {
        let mut out: BTreeMap<String, ModelUsage> = BTreeMap::new();
        // A slot starting before `start` holds nothing after it: `start`
        // is a local midnight, a whole quarter hour.
        for models in self.slots.range(slot(start)..).map(|(_, m)| m) {
            for (model, u) in models {
                let t = out.entry(model.clone()).or_default();
                t.add(u);
            }
        }
        out
    }

    pub fn clear(&mut self) {
        self.slots.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        s.parse().unwrap()
    }

    fn input(n: u64) -> ModelUsage {
        ModelUsage {
            input: n,
            ..ModelUsage::default()
        }
    }

    #[test]
    fn usage_counts_from_the_quarter_hour_it_happened_in() {
        let mut t = TimedUsage::default();
        t.add(at("2026-12-01T23:59:00Z"), "m", &input(1));
        t.add(at("2026-12-02T00:00:00Z"), "m", &input(10));
        t.add(at("2026-12-02T05:30:00Z"), "m", &input(100));
        t.add(at("2026-12-02T05:44:59Z"), "n", &input(1000));
        assert_eq!(t.since(at("2026-12-02T00:00:00Z"))["m"].input, 110);
        // A day that starts at 05:30 UTC (a +5:30 zone's midnight).
        let day = t.since(at("2026-12-02T05:30:00Z"));
        assert_eq!((day["m"].input, day["n"].input), (100, 1000));
        t.remove(at("2026-12-02T05:31:00Z"), "m", &input(40));
        assert_eq!(t.since(at("2026-12-02T05:30:00Z"))["m"].input, 60);
    }

    #[test]
    fn only_the_last_two_days_are_kept() {
        let mut t = TimedUsage::default();
        t.add(at("2026-11-20T10:00:00Z"), "m", &input(7));
        t.add(at("2026-12-02T10:00:00Z"), "m", &input(1));
        assert_eq!(t.slots.len(), 1);
        assert_eq!(t.since(at("2026-11-01T00:00:00Z"))["m"].input, 1);
    }
}
