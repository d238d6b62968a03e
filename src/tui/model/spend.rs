//! Spend against the `[budget]` limits: today's figure over every row,
//! and what the budget reducer remembers so each crossing is alerted once.
//! The catalog marks a session over its limit (`usage.over_budget_usd`);
//! the day's limit is judged here, over all the rows.

use std::collections::{HashMap, HashSet};

use chrono::NaiveDate;

use super::row_list::RowList;
use crate::model::{DaySpend, RowKey, Session};

/// What the budget reducer remembers between updates. An alert is for a
/// crossing the dashboard sees: a session (or the day) is armed once its
/// known spend is seen within the limit, and alerted when it is next seen
/// over it. So one already over when the dashboard starts is marked and
/// not alerted again, and a row rebuilt with the same spend says nothing.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SpendWatch {
    /// Sessions seen within their limit since their last alert.
    pub armed: HashSet<RowKey>,
    /// The day whose figure was seen within the daily limit, not yet alerted.
    pub day_armed: Option<NaiveDate>,
    /// What rows that left the list spent today: the money was spent all
    /// the same (see `RowList::spent_gone`).
    pub gone_today: HashMap<RowKey, DaySpend>,
}

/// Today's spend over every row (archived and gone ones too).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Today {
    pub usd: f64,
    /// A row with usage that cannot be priced today: the figure is a floor.
    pub partial: bool,
}

/// A session's spend is over its `[budget]` limit.
pub fn over(s: &Session) -> bool {
    s.usage
        .as_ref()
        .is_some_and(|u| u.over_budget_usd.is_some())
}

/// What the rows spent on `day`; `None` while no row has a day's figure
/// (before the transcripts are read, or only other machines' rows), so
/// nothing is judged on no figure.
pub fn today(list: &RowList, gone: &HashMap<RowKey, DaySpend>, day: NaiveDate) -> Option<Today> {
    let mut known = false;
    let mut partial = false;
    let mut usd = 0.0;
    for u in list.rows.iter().filter_map(|r| r.usage.as_ref()) {
        match u.today {
            // A figure of an earlier day: nothing was read from it since.
            Some(d) => {
                known = true;
                if d.day == day {
                    usd += d.usd;
                }
            }
            None => partial |= !u.unpriced_models.is_empty(),
        }
    }
    usd += gone
        .values()
        .filter(|d| d.day == day)
        .map(|d| d.usd)
        .sum::<f64>();
    known.then_some(Today { usd, partial })
}
