//! The newest sign of life: the one rule every source's row uses for when
//! its agent last did anything (pane output, a report, a transition, an
//! update of its orchestration), and which of those the stuck rule reads.

use chrono::{DateTime, Utc};

/// The newest of the times a row's sources give; none known, none.
pub fn last_signal_at(
    signs: impl IntoIterator<Item = Option<DateTime<Utc>>>,
) -> Option<DateTime<Utc>> {
    signs.into_iter().flatten().max()
}

/// The sign of life the stuck rule reads for an agent that speaks for
/// itself (its hooks' reports, Claude Code's own record, its transcript's
/// answers): `words` are when it spoke, `pane_moved` when its screen last
/// changed. While its last word is Active, only its words count: Claude
/// Code and Gemini CLI tick a spinner and a timer for as long as a turn
/// runs, even one whose API call hangs, so a moving screen says nothing of
/// the agent. Otherwise (its last word is Idle and the operator types in
/// its pane, or it has no word at all) the screen's motion counts too.
pub fn sign_of_life(
    said_active: bool,
    words: impl IntoIterator<Item = Option<DateTime<Utc>>>,
    pane_moved: Option<DateTime<Utc>>,
) -> Option<DateTime<Utc>> {
    let pane = pane_moved.filter(|_| !said_active);
    last_signal_at(words.into_iter().chain([pane]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: i64) -> Option<DateTime<Utc>> {
        Some(DateTime::from_timestamp(s, 0).unwrap_or_default())
    }

    #[test]
    fn the_newest_known_sign_wins() {
        assert_eq!(last_signal_at([None, t(5), t(9), None, t(1)]), t(9));
        assert_eq!(last_signal_at([None, None]), None);
    }

    #[test]
    fn a_ticking_spinner_is_no_word_from_an_active_agent() {
        // Reported Active at 10, the spinner ticked until 500.
        assert_eq!(sign_of_life(true, [t(10), None], t(500)), t(10));
        // Its last word is not Active: the pane's motion counts.
        assert_eq!(sign_of_life(false, [t(10)], t(500)), t(500));
        // No word at all: the pane is all there is.
        assert_eq!(sign_of_life(false, [None], t(500)), t(500));
        assert_eq!(sign_of_life(true, [t(10), t(40)], None), t(40));
    }
}
