//! Snooze and wake: a greenroom session's snooze goes in its sidecar, any
//! other row's in greenroom's own snooze file (`sources/snooze.rs`).

use std::time::Duration;

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::{LOCK_WAIT, OpsError};
use crate::attention;
use crate::model::Snooze;
use crate::model::{Session, Source};
use crate::sources::sidecar::SidecarStore;
use crate::sources::snooze::SnoozeStore;

/// Snoozes a session for `length`; returns until when. Only a session
/// that needs the operator can be snoozed: nothing else is in the queue.
pub fn snooze(
    store: &SidecarStore,
    session: &Session,
    length: Duration,
    now: DateTime<Utc>,
) -> Result<DateTime<Utc>, OpsError> {
    if !session.health.needs_operator() {
        return Err(OpsError::Prompt(format!(
            "{} is {}: only a waiting, errored, stuck or ready session can be snoozed",
            session.name, session.health
        )));
    }
    let z = attention::snooze_for(session.health, length, now);
    set(store, session, Some(z), now)?;
    Ok(z.until)
}

/// Ends a session's snooze (nothing happens when it has none).
pub fn wake(store: &SidecarStore, session: &Session, now: DateTime<Utc>) -> Result<(), OpsError> {
    set(store, session, None, now)
}

fn set(
    store: &SidecarStore,
    session: &Session,
    snooze: Option<Snooze>,
    now: DateTime<Utc>,
) -> Result<(), OpsError> {
    match (session.source, Uuid::parse_str(&session.id)) {
        (Source::Greenroom, Ok(id)) => {
            store.update(id, LOCK_WAIT, |s| {
                let changed = s.snooze != snooze;
                s.snooze = snooze;
                changed
            })?;
        }
        _ => SnoozeStore::new(store.dir()).set(&session.id, snooze, now)?,
    }
    Ok(())
}
