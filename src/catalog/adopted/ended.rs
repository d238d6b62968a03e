//! The row of an agent greenroom did not start that has ended: by its own
//! word (its SessionEnd hook: `/exit`, logout), killed from greenroom, or
//! without a word (killed elsewhere, crashed: its pane went back to a
//! shell or closed). It stays, with what it spent, until the operator
//! dismisses it.

use super::super::pane_row::{Heard, pane_row};
use super::super::rows::RowContext;
use super::super::usage::UsageFiles;
use crate::model::{Activity, ActivitySource, ActivityView, Adopted, Session, Status};
use crate::sources::sidecar::Sidecar;
use crate::tmux::Pane;

/// The row of the record `s`'s ended agent, in `pane` (live: still open,
/// back at a shell; else as last seen before it closed).
pub(super) fn row(
    s: &Sidecar,
    pane: &Pane,
    live: bool,
    usage: &UsageFiles,
    cx: &RowContext<'_>,
) -> Session {
    // Ended by its own word or killed from greenroom: no failure; else
    // it died, and that is an error.
    let said_so = matches!(s.status, Status::Exited | Status::Killed);
    let activity = ActivityView {
        state: if said_so {
            Activity::Idle
        } else {
            Activity::Error
        },
        detail: Some(how(s, live)),
        since: s.activity_reported_at,
        reported: false,
        source: ActivitySource::Hook,
    };
    let heard = Heard {
        status: if s.status == Status::Killed {
            Status::Killed
        } else {
            Status::Exited
        },
        activity,
        last_signal_at: s.activity_reported_at,
        said: None,
    };
    let agent = s.agent.clone().unwrap_or_else(|| s.display_name());
    let cwd = s.current_cwd.clone().unwrap_or_else(|| s.cwd.clone());
    let mut row = pane_row(pane, agent, cwd, heard, cx);
    row.created_at = s.created_at;
    row.agent_session_id = s.agent_session_id.clone();
    // Its money was spent: the row keeps it, and the totals with it.
    row.usage = usage.of(s, cx.now);
    row.adopted = Some(Adopted {
        pane: pane.id.clone(),
        hooks: true,
        record: Some(s.id),
    });
    row
}

/// How the agent ended, in one line.
fn how(s: &Sidecar, live: bool) -> String {
    if s.status == Status::Killed {
        return "killed from greenroom".into();
    }
    if s.status == Status::Exited {
        // SessionEnd's reason, as the report wrote it.
        return s
            .activity_detail
            .clone()
            .unwrap_or_else(|| "agent session ended".into());
    }
    // One line the why can show whole (it keeps 80 characters).
    let pane = if live {
        "back at the shell"
    } else {
        "its pane closed"
    };
    format!("died without ending its session (killed or crashed): {pane}")
}
