//! A connection's inbox: the lines its reader parsed that the dashboard
//! has not taken yet, bounded in lines and bytes, a row's newer line in
//! place of its older one.

use std::collections::{HashMap, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard};

use super::Said;
use crate::sources::wire::Line;

/// The most lines an inbox holds before its reader waits.
pub const INBOX_LINES: usize = 1024;
/// The most bytes (as the host wrote them) an inbox holds before its reader
/// waits; one line alone may be longer (up to [`MAX_LINE`]).
pub const INBOX_BYTES: usize = 4 * 1024 * 1024;

/// The most rows the dashboard shows from one host.
pub const MAX_ROWS: usize = 5000;

/// A snapshot's rows past those shown are let go here, on the reader's
/// thread: freeing 100,000 rows on the dashboard's loop held keys for a
/// third of a second. One more than shown is kept, so the dashboard still
/// sees that the host is over the cap.
pub(super) fn keep_shown_rows(line: &mut Line) {
    if let Line::Snapshot { rows, .. } = line {
        rows.truncate(MAX_ROWS + 1);
    }
}

/// A connection's lines the dashboard has not taken yet.
#[derive(Default)]
pub struct Inbox {
    queue: Mutex<Queue>,
    room: Condvar,
}

#[derive(Default)]
struct Queue {
    said: VecDeque<(Said, usize)>,
    /// The number of the first line in `said` since the inbox began: a
    /// line's place is its number less this.
    first: u64,
    /// The pending `added`/`changed` line of each row, by number.
    rows: HashMap<String, u64>,
    /// The pending `problems` line, by number.
    problems: Option<u64>,
    bytes: usize,
    closed: bool,
    /// How many times the reader waited for room (for tests).
    waited: u64,
}

impl Queue {
    fn at(&mut self, number: u64) -> Option<&mut (Said, usize)> {
        let i = usize::try_from(number.checked_sub(self.first)?).ok()?;
        self.said.get_mut(i)
    }
}

/// Whether a reader can go on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Put {
    /// The inbox was empty: the dashboard must be told.
    First,
    Queued,
    /// The dashboard is done with this connection: stop reading.
    Closed,
}

impl Inbox {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Leaves a line `bytes` long, waiting while the inbox is full. A row's
    /// line replaces that row's line not taken yet; a snapshot replaces
    /// everything not taken yet; a heartbeat behind other lines says
    /// nothing more than they do.
    pub fn put(&self, said: Said, bytes: usize) -> Put {
        let mut q = self.lock();
        loop {
            if q.closed {
                return Put::Closed;
            }
            let slot = match &said {
                Said::Line(Line::Added(r) | Line::Changed(r)) => q.rows.get(&r.session.id).copied(),
                Said::Line(Line::Problems(_)) => q.problems,
                _ => None,
            };
            let was_empty = q.said.is_empty();
            match &said {
                Said::Line(Line::Heartbeat) if !was_empty => return Put::Queued,
                Said::Line(Line::Snapshot { .. }) => {
                    *q = Queue {
                        first: q.first + q.said.len() as u64,
                        waited: q.waited,
                        ..Queue::default()
                    };
                }
                _ => {}
            }
            let old = slot.and_then(|n| q.at(n)).map_or(0, |(_, b)| *b);
            let lines = q.said.len() + usize::from(slot.is_none());
            let fits = lines <= INBOX_LINES && q.bytes.saturating_sub(old) + bytes <= INBOX_BYTES;
            // The end is always taken: nothing follows it.
            if !(fits || q.said.is_empty() || matches!(said, Said::Down(_))) {
                q.waited += 1;
                q = self
                    .room
                    .wait(q)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                continue;
            }
            q.bytes = q.bytes.saturating_sub(old) + bytes;
            if let Some(entry) = slot.and_then(|n| q.at(n)) {
                *entry = (said, bytes);
                return Put::Queued;
            }
            let number = q.first + q.said.len() as u64;
            match &said {
                Said::Line(Line::Added(r) | Line::Changed(r)) => {
                    q.rows.insert(r.session.id.clone(), number);
                }
                Said::Line(Line::Removed(id)) => {
                    q.rows.remove(id);
                }
                Said::Line(Line::Problems(_)) => q.problems = Some(number),
                _ => {}
            }
            q.said.push_back((said, bytes));
            return if was_empty { Put::First } else { Put::Queued };
        }
    }

    /// Everything not taken yet, in order; the reader may go on.
    pub fn take(&self) -> Vec<Said> {
        let mut q = self.lock();
        let said = std::mem::take(&mut q.said);
        q.first += said.len() as u64;
        q.rows.clear();
        q.problems = None;
        q.bytes = 0;
        drop(q);
        self.room.notify_all();
        said.into_iter().map(|(s, _)| s).collect()
    }

    /// The dashboard is done with this connection: its reader stops.
    pub fn close(&self) {
        let mut q = self.lock();
        q.closed = true;
        q.said.clear();
        drop(q);
        self.room.notify_all();
    }

    /// How many lines wait.
    pub fn len(&self) -> usize {
        self.lock().said.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many times the reader waited for room.
    pub fn waited(&self) -> u64 {
        self.lock().waited
    }
}
