//! The state an answer leads to, kept in the record of the session it
//! answered: the agent fires no hook on a refused prompt, so greenroom
//! writes what a hook would, until the agent's next report replaces it.
//! Greenroom's own sessions' records by id; a hand-started agent's (its
//! hooks' record in `<sidecar dir>/adopted/`) by its pane on the tmux
//! server greenroom follows, as the catalog matches it.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::OpsError;
use super::send::AnswerKey;
use crate::model::{Activity, PaneId, Session, Source};
use crate::sources::adopted as records;
use crate::sources::sidecar::SidecarStore;
use crate::tmux::Tmux;

/// Records `after` as the session's state, answered with `key`, unless a
/// report newer than `before` (when the key was pressed) is there.
pub(super) fn record(
    tmux: &Tmux,
    store: &SidecarStore,
    session: &Session,
    key: AnswerKey,
    after: &Activity,
    before: DateTime<Utc>,
) -> Result<(), OpsError> {
    let Some((store, id)) = record_of(tmux, store, session) else {
        return Ok(());
    };
    store.update(id, super::LOCK_WAIT, |s| {
        if s.activity_reported_at.is_some_and(|at| at > before) {
            return false;
        }
        let now = Utc::now();
        s.activity_since = Some(now);
        s.activity = Some(after.clone());
        s.activity_detail = Some(format!("answered with {key}"));
        s.activity_reported_at = Some(now);
        s.activity_tool = None;
        s.answered_with = Some(key.tmux_name());
        true
    })?;
    Ok(())
}

/// The folder and id of the record a row reads its agent's word from:
/// greenroom's own, or a hand-started agent's hooks' record of its pane.
fn record_of(tmux: &Tmux, store: &SidecarStore, session: &Session) -> Option<(SidecarStore, Uuid)> {
    if session.source == Source::Greenroom {
        let id = Uuid::parse_str(&session.id).ok()?;
        return Some((SidecarStore::new(store.dir()), id));
    }
    let pane = session.adopted.as_ref().filter(|a| a.hooks)?.pane.clone();
    adopted_record(tmux, store, &pane)
}

/// The hooks' record of `pane` on the server greenroom follows.
fn adopted_record(
    tmux: &Tmux,
    store: &SidecarStore,
    pane: &PaneId,
) -> Option<(SidecarStore, Uuid)> {
    let adopted = SidecarStore::new(records::adopted_dir(store.dir()));
    let (found, _) = adopted.load_all();
    let id = found
        .iter()
        .find(|s| {
            records::pane_of(s).as_ref() == Some(pane)
                && tmux.is_current_server(records::server_of(s))
        })?
        .id;
    Some((adopted, id))
}
