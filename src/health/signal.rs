//! The newest sign of life: the one rule every source's row uses for when
//! its agent last did anything (pane output, a report, a transition, an
//! update of its orchestration).

use chrono::{DateTime, Utc};

/// The newest of the times a row's sources give; none known, none.
pub fn last_signal_at(
    signs: impl IntoIterator<Item = Option<DateTime<Utc>>>,
) -> Option<DateTime<Utc>> {
    signs.into_iter().flatten().max()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_known_sign_wins() {
        let t = |s| Some(DateTime::from_timestamp(s, 0).unwrap_or_default());
        assert_eq!(last_signal_at([None, t(5), t(9), None, t(1)]), t(9));
        assert_eq!(last_signal_at([None, None]), None);
    }
}
