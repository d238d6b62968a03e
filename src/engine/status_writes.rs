//! Status writes to the sidecars, off the catalog: what tmux contradicts
//! is recorded under each record's lock, and what a failed write owed is
//! retried until it lands.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use uuid::Uuid;

use crate::catalog::StatusUpdate;
use crate::model::Status;
use crate::sources::sidecar::{SidecarError, SidecarStore};

const STATUS_WRITE_WAIT: Duration = Duration::from_millis(500);

/// Set when a batch of status writes had one fail in a way that may pass
/// (a full disk, a busy lock): until a batch lands whole, every poll decides
/// the writes again even if tmux says nothing new. Process-wide, because
/// the dashboard writes off its loop with only the store in hand.
pub(super) static STATUS_RETRY: AtomicBool = AtomicBool::new(false);

/// Statuses an action decided but could not record (a kill on a full
/// disk): tmux alone would later call that session Dormant, so the status
/// writes retried each poll write this one in its place until it lands.
static OWED: Mutex<BTreeMap<Uuid, Status>> = Mutex::new(BTreeMap::new());

fn owed() -> std::sync::MutexGuard<'static, BTreeMap<Uuid, Status>> {
    OWED.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Remembers that sidecar `id` should record `status`, which a write just
/// failed to record; the status writes that follow carry it.
pub fn owe_status(id: Uuid, status: Status) {
    owed().insert(id, status);
    STATUS_RETRY.store(true, Ordering::Relaxed);
}

/// Whether a status is still owed: the next poll decides the writes again.
pub(crate) fn owes_statuses() -> bool {
    !owed().is_empty()
}

/// Records statuses in the sidecars, each under its lock.
pub fn write_statuses(store: &SidecarStore, updates: &[StatusUpdate]) {
    let mut retry = false;
    for u in updates {
        let intended = owed().get(&u.id).cloned();
        let (status, exit_status) = match &intended {
            Some(status) => (status.clone(), None),
            None => (u.status.clone(), u.exit_status),
        };
        let result = store.update(u.id, STATUS_WRITE_WAIT, |s| {
            if s.status != u.was {
                return false;
            }
            s.status = status;
            s.exit_status = exit_status;
            true
        });
        match result {
            // Written, or the file moved on (a restore): nothing is owed.
            Ok(_) | Err(SidecarError::NotFound(..)) if intended.is_some() => {
                owed().remove(&u.id);
            }
            Ok(_) => {}
            Err(e) => {
                retry |= matches!(e, SidecarError::Io { .. } | SidecarError::LockTimeout(..));
                tracing::warn!(id = %u.id, error = %e, "cannot record status");
            }
        }
    }
    STATUS_RETRY.store(retry, Ordering::Relaxed);
}
