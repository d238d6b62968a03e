//! Which rows' tmux facts are read again between full polls, when tmux
//! pushes its events (the dashboard and `watch` ask the same question).
//! Pane activity is no event (see `tmux/events.rs`), so the rows whose
//! activity decides something within seconds are read by id each interval:
//! working agents ([`Session::wants_timely_activity`]) and the selected row
//! (the preview follows its pane). Pure.

use crate::model::Session;

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
    Rows(Vec<String>),
    /// So many rows that the full poll is the cheaper read.
    Everything,
}

/// The read for `rows` (this machine's), `selected` being the selected
/// row's id if any.
pub fn plan<'a>(rows: impl IntoIterator<Item = &'a Session>, selected: Option<&str>) -> Read {
    let mut count = 0;
    let mut targets: Vec<String> = rows
        .into_iter()
        .inspect(|_| count += 1)
        .filter(|r| {
            r.wants_timely_activity() || (Some(r.id.as_str()) == selected && r.status.is_live())
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
