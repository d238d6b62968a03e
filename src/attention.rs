//! The attention queue: the sessions that need the operator, in the order
//! to visit them (waiting, then errored, stuck, then ready; the longest
//! waiting first), and the snooze rule that takes a session out of it for a while.
//! One order for `w`/`W`, the pinned group, `greenroom next` and `status`.
//! Pure: rows and the clock in, order out.

use std::cmp::Ordering;

use chrono::{DateTime, Utc};

use crate::model::{Health, Session};
use crate::sources::snooze::Snooze;

/// Whether a session is in the queue: it needs the operator, is not
/// archived history and is not snoozed.
pub fn in_queue(s: &Session) -> bool {
    s.health.needs_operator() && counted(s)
}

/// Whether a session counts in the tallies by health (the header's
/// groups, `greenroom status`): archived history does not, nor does a
/// session the operator snoozed ("not now").
pub fn counted(s: &Session) -> bool {
    !s.archived && s.snoozed_until.is_none()
}

/// Waiting first (an agent stands still until answered), then errored,
/// then stuck, then ready (a finished turn waits for the next instruction,
/// but nothing is blocked or broken).
fn class_rank(h: Health) -> u8 {
    match h {
        Health::Waiting => 0,
        Health::Errored => 1,
        Health::Stuck => 2,
        _ => 3,
    }
}

/// Since when a session has needed the operator: its state's start (the
/// report's `since`), else its last sign of life (for stuck, when it fell
/// silent).
pub fn needs_since(s: &Session) -> Option<DateTime<Utc>> {
    match s.health {
        Health::Stuck => s.last_activity_at.or(s.activity.since),
        _ => s.activity.since.or(s.last_activity_at),
    }
}

/// Queue order between two sessions that are both in the queue: class,
/// then oldest first (an unknown start last), then name and id so the
/// order never depends on the input's.
pub fn queue_order(a: &Session, b: &Session) -> Ordering {
    let since = |s: &Session| needs_since(s).map_or(DateTime::<Utc>::MAX_UTC, |t| t);
    class_rank(a.health)
        .cmp(&class_rank(b.health))
        .then_with(|| since(a).cmp(&since(b)))
        .then_with(|| a.name.cmp(&b.name))
        .then_with(|| a.id.cmp(&b.id))
}

/// The queue: every session that needs the operator, in visiting order.
pub fn queue(rows: &[Session]) -> Vec<&Session> {
    let mut q: Vec<&Session> = rows.iter().filter(|s| in_queue(s)).collect();
    q.sort_by(|a, b| queue_order(a, b));
    q
}

/// How many need the operator, and since when the oldest has waited.
pub fn summary(rows: &[Session]) -> (usize, Option<DateTime<Utc>>) {
    let q = queue(rows);
    let oldest = q.iter().filter_map(|s| needs_since(s)).min();
    (q.len(), oldest)
}

/// The next (or, `back`, previous) session of the queue after `current`,
/// cycling; the first (last) when `current` is not in it. None when the
/// queue is empty.
pub fn step<'a>(
    queue: &[&'a Session],
    current: Option<&crate::model::RowKey>,
    back: bool,
) -> Option<&'a Session> {
    let n = queue.len();
    if n == 0 {
        return None;
    }
    let at = current.and_then(|key| queue.iter().position(|s| s.is(key)));
    let i = match (at, back) {
        (Some(i), false) => (i + 1) % n,
        (Some(i), true) => (i + n - 1) % n,
        (None, false) => 0,
        (None, true) => n - 1,
    };
    Some(queue[i])
}

/// Whether a snooze still holds: its time has not run out and nothing new
/// happened since it was set. "New" is precise: another health class than
/// the one snoozed, or a state change reported after the snooze (a hook's
/// report, AO's transition, Maestro's update), `changed_at`. Pane output
/// is not news: a waiting agent's dialog redraws every second.
pub fn snooze_holds(
    snooze: &Snooze,
    health: Health,
    changed_at: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> bool {
    now < snooze.until && health == snooze.health && changed_at.is_none_or(|c| c <= snooze.at)
}

/// A new snooze of `length` from now on a session of this health.
pub fn snooze_for(health: Health, length: std::time::Duration, now: DateTime<Utc>) -> Snooze {
    let length = chrono::TimeDelta::from_std(length).unwrap_or(chrono::TimeDelta::MAX);
    Snooze {
        until: now
            .checked_add_signed(length)
            .unwrap_or(DateTime::<Utc>::MAX_UTC),
        at: now,
        health,
    }
}

/// The mark a snoozed row shows: `z 24m` (minutes left, rounded up).
pub fn snooze_mark(until: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let secs = until.signed_duration_since(now).num_seconds().max(0);
    match secs {
        0..3600 => format!("z {}m", ((secs + 59) / 60).max(1)),
        _ => format!("z {}h", (secs + 3599) / 3600),
    }
}

#[cfg(test)]
mod tests;
