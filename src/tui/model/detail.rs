//! What the detail pane shows of the selected session: its tab, the last
//! capture of its pane, and the Changes tab's cursor and diff. The navigate
//! reducer clears it when the selection changes, the update reducer stores
//! captures, the review reducer moves through the changes; the views read it.

use chrono::{DateTime, Utc};

use super::changes::ChangesTab;
use super::mode::DetailTab;
use crate::model::RowKey;

/// The last pane capture of a session, with its colours (ANSI).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preview {
    pub id: RowKey,
    pub text: String,
}

/// The fewest rows inside the detail pane under which the Overview shows
/// no pane lines (and none are captured for it): its rows take about ten.
const PANE_UNDER_OVERVIEW_FROM: u16 = 16;

/// Whether an Overview `inner_height` rows tall shows the selected
/// session's pane under its rows (the view, when they leave room) and so
/// keeps its capture fresh (the reducer).
pub fn overview_shows_pane(inner_height: u16) -> bool {
    inner_height >= PANE_UNDER_OVERVIEW_FROM
}

#[derive(Debug, Clone, PartialEq)]
pub struct DetailPane {
    pub tab: DetailTab,
    /// The Changes tab's cursor and open diff (for the selected session).
    pub review: ChangesTab,
    pub preview: Option<Preview>,
    /// The selected session's pane activity the preview last followed: new
    /// activity in tmux means a fresh capture.
    pub seen_activity: Option<(RowKey, Option<DateTime<Utc>>)>,
    /// The rows inside the detail pane at the terminal's size (0: there is
    /// no detail pane).
    pub height: u16,
    /// When to capture the pane once more after the selected row changed:
    /// an agent draws its question after its hook has reported it.
    pub settle_at: Option<DateTime<Utc>>,
}

impl Default for DetailPane {
    fn default() -> Self {
        Self {
            tab: DetailTab::Overview,
            review: ChangesTab::default(),
            preview: None,
            seen_activity: None,
            height: 0,
            settle_at: None,
        }
    }
}
