//! A session's spend: every conversation priced and added up, the share
//! of it spent on the local day (from each record's own time), and whether
//! it is over its `[budget]` limit. No IO.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{Transcripts, UsageFiles, sum};
use crate::model::{DaySpend, ModelUsage, Usage};
use crate::sources::sidecar::Sidecar;

impl Transcripts {
    /// The tokens a session's files counted at or after `start`, by model.
    pub fn since(
        &self,
        main: &Path,
        start: chrono::DateTime<chrono::Utc>,
    ) -> BTreeMap<String, ModelUsage> {
        let mut total: BTreeMap<String, ModelUsage> = BTreeMap::new();
        let subs = self.subagents.get(main).into_iter().flatten();
        for path in std::iter::once(main).chain(subs.map(PathBuf::as_path)) {
            for (model, u) in self
                .readers
                .get(path)
                .map(|r| r.since(start))
                .unwrap_or_default()
            {
                let t = total.entry(model).or_default();
                t.add(&u);
            }
        }
        total
    }
}

impl UsageFiles {
    /// The usage a row shows, priced: every conversation of the session
    /// added up, so `/clear` loses nothing it spent. No IO.
    pub(in crate::catalog) fn of(
        &self,
        s: &Sidecar,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Option<Usage> {
        if super::is_opencode(s) {
            return self.opencode.usage(s, &self.prices).map(|u| self.judged(u));
        }
        let main = self.paths.get(&s.id);
        let earlier = self.earlier.get(&s.id).into_iter().flatten();
        let files = earlier.filter(|p| Some(*p) != main).chain(main);
        let usage = sum::conversations(files.filter_map(|main| self.at(main, now)));
        usage.map(|u| self.judged(u))
    }

    /// The usage of a session with one main transcript (Claude Code's own
    /// session record), priced and judged. No IO.
    pub(in crate::catalog) fn of_main(
        &self,
        main: &Path,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Option<Usage> {
        self.at(main, now).map(|u| self.judged(u))
    }

    /// Marks a session's usage over its `[budget]` limit.
    pub(super) fn judged(&self, mut usage: Usage) -> Usage {
        usage.over_budget_usd = self.budget.session_over(usage.cost_usd);
        usage
    }

    /// What one main transcript's files spent on `now`'s local day, by
    /// their records' own times, priced from the table (Claude Code's own
    /// totals carry no time of their own). `None` while a model of the
    /// day has no price.
    pub(super) fn today(
        &self,
        main: &Path,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Option<DaySpend> {
        let day = crate::model::local_day(now);
        let by_model = self.transcripts.since(main, crate::model::day_start(day));
        let usd = if by_model.is_empty() {
            0.0
        } else {
            self.prices.usage(by_model).cost_usd?
        };
        Some(DaySpend { day, usd })
    }
}

#[cfg(test)]
mod tests;
