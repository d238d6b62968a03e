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

#[derive(Debug, Clone, PartialEq)]
pub struct DetailPane {
    pub tab: DetailTab,
    /// The Changes tab's cursor and open diff (for the selected session).
    pub review: ChangesTab,
    pub preview: Option<Preview>,
    /// The selected session's pane activity the preview last followed: new
    /// activity in tmux means a fresh capture.
    pub seen_activity: Option<(RowKey, Option<DateTime<Utc>>)>,
}

impl Default for DetailPane {
    fn default() -> Self {
        Self {
            tab: DetailTab::Overview,
            review: ChangesTab::default(),
            preview: None,
            seen_activity: None,
        }
    }
}
