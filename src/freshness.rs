//! Which rows' tmux facts are read again between full polls, when tmux
//! pushes its events (the dashboard and `watch` ask the same question).
//! Pane activity is no event (see `tmux/events.rs`), so the rows whose
//! activity decides something soon are read by id ([`due`]), and the
//! selected row each interval while its pane is previewed (the dashboard
//! passes it only then). Pure.

use chrono::{DateTime, Duration, Utc};

use crate::model::{Activity, ActivitySource, Session};

/// How many sessions' share of the full poll one session's refresh costs
/// tmux: one `list-panes -s` takes about 0.16 ms of the server, the full
/// `list-panes -a` 20 ms for 1,000 sessions.
const REFRESH_PER_POLL: usize = 8;

/// The fewest rows counted: on a small server the full poll answers as
/// fast as eight refreshes.
const SMALL_SERVER: usize = 64;

/// What to read this interval.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Read {
    Nothing,
    /// These rows' tmux targets (as rows hold them), sorted, once each.
    Rows(Vec<crate::tmux::TmuxTarget>),
    /// So many rows that the full poll is the cheaper read.
    Everything,
}

/// Whether a row's activity may change now with what its pane did:
/// - an agent working by a hook's report goes quiet when its turn ends,
///   and only its pane falling silent says so ([`crate::health::SILENT_AFTER`]):
///   each interval;
/// - one working by tmux's own inference turns idle once its pane has been
///   still for `active_window`: when that time has come (a pane that moved
///   since keeps it working, until the next such time);
/// - rows whose activity comes from files (Maestro, Agent Orchestrator) and
///   idle rows change slowly enough for the reconciling poll.
pub fn due(row: &Session, now: DateTime<Utc>, active_window: Duration) -> bool {
    if !row.status.is_live() || row.activity.state != Activity::Active {
        return false;
    }
    match row.activity.source {
        // Claude Code's own record, like a hook: the pane may yet show the
        // turn ended.
        ActivitySource::Hook | ActivitySource::Answer | ActivitySource::ClaudeRegistry => true,
        ActivitySource::Tmux => row
            .activity
            .since
            .is_none_or(|since| now - since >= active_window),
        ActivitySource::Maestro | ActivitySource::AgentOrchestrator | ActivitySource::Nothing => {
            false
        }
    }
}

/// The read for `rows` (this machine's) at `now`, `selected` being the
/// selected row's id if any.
pub fn plan<'a>(
    rows: impl IntoIterator<Item = &'a Session>,
    selected: Option<&str>,
    now: DateTime<Utc>,
    active_window: Duration,
) -> Read {
    let mut count = 0;
    let mut targets: Vec<crate::tmux::TmuxTarget> = rows
        .into_iter()
        .inspect(|_| count += 1)
        .filter(|r| {
            due(r, now, active_window) || (Some(r.id.as_str()) == selected && r.status.is_live())
        })
        .filter_map(|r| r.tmux_target())
        .collect();
    targets.sort();
    targets.dedup();
    if targets.is_empty() {
        Read::Nothing
    } else if targets.len() * REFRESH_PER_POLL > count.max(SMALL_SERVER) {
        Read::Everything
    } else {
        Read::Rows(targets)
    }
}
