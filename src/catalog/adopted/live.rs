//! The rows of live agents in panes greenroom did not start: one whose
//! hooks report (its record, with Claude Code's own record to confirm or
//! to say a dialog blocks it), and one found from its pane's program alone.

use super::super::pane_row::{Heard, pane_row};
use super::super::probe::Found;
use super::super::registry::{Registry, last_word, registry_report};
use super::super::rows::{RowContext, waiting_for};
use super::super::usage::UsageFiles;
use super::super::word::{hook_report, name_the_speaker, said};
use crate::health;
use crate::model::{Activity, Adopted, Health, Session};
use crate::sources::claude_registry::RegistryEntry;
use crate::sources::sidecar::Sidecar;
use crate::tmux::Pane;

/// Claude Code's own record of the pane, when it says waiting after the
/// last hook said anything else: its own dialogs (a first-run question)
/// block the agent and fire no hook. A hook's wait is kept: it names the
/// tool and command, which the record does not.
fn blocked_by_a_dialog<'a>(
    s: &Sidecar,
    entry: Option<&'a RegistryEntry>,
) -> Option<&'a RegistryEntry> {
    let hook_waits = s.activity == Some(Activity::AwaitingInput);
    entry
        .filter(|_| !hook_waits)
        .filter(|e| e.activity() == Activity::AwaitingInput)
        .filter(|e| {
            e.status_at
                .is_some_and(|at| s.activity_reported_at.is_none_or(|hook| at > hook))
        })
}

pub(super) fn reported_row(
    s: &Sidecar,
    pane: &Pane,
    registry: &Registry,
    usage: &UsageFiles,
    cx: &RowContext<'_>,
) -> Session {
    let (t, now) = (cx.thresholds, cx.now);
    let facts = pane.facts();
    let dialog = blocked_by_a_dialog(s, registry.of(pane));
    let waits = Activity::AwaitingInput;
    let (report, from_record) = match dialog {
        Some(e) => (Some(registry_report(e, &waits)), true),
        None => last_word(
            hook_report(s, usage),
            registry.of_session(s.agent_session_id.as_deref()),
        ),
    };
    let said_active = report
        .as_ref()
        .is_some_and(|r| *r.state == Activity::Active);
    let last_signal_at = health::sign_of_life(
        said_active,
        [
            report.as_ref().and_then(|r| r.reported_at),
            s.activity_reported_at,
        ],
        facts.window_activity,
    );
    let mut activity = health::effective_activity(report, Some(&facts), now, t);
    name_the_speaker(&mut activity, from_record, s);
    let said = said(s.activity_tool.as_ref());
    let agent = s.agent.clone().unwrap_or_else(|| s.display_name());
    let cwd = s.current_cwd.clone().unwrap_or_else(|| s.cwd.clone());
    let heard = Heard::running(activity, last_signal_at, said.as_deref());
    let mut row = pane_row(pane, agent, cwd, heard, cx);
    // What it asks, as greenroom's own rows say it; a dialog in the
    // words of Claude Code's record ("dialog open"). A record that turned
    // waiting while the hook holds a call about to run waits on that
    // call (its permission prompt, or the question it puts), whose own
    // PermissionRequest hook comes moments later: the call is kept.
    let tool = s
        .activity_tool
        .as_ref()
        .filter(|_| dialog.is_none() || s.activity == Some(Activity::Active));
    row.waiting_for = (row.health == Health::Waiting)
        .then(|| waiting_for(&row.activity, tool))
        .flatten();
    row.created_at = s.created_at;
    row.agent_session_id = s.agent_session_id.clone();
    row.usage = usage.of(s, now);
    row.adopted = Some(Adopted {
        pane: pane.id.clone(),
        hooks: true,
        record: Some(s.id),
    });
    row
}

pub(super) fn discovered_row(
    pane: &Pane,
    found: &Found,
    usage: &UsageFiles,
    cx: &RowContext<'_>,
) -> Session {
    let facts = pane.facts();
    let mut activity = health::effective_activity(None, Some(&facts), cx.now, cx.thresholds);
    activity
        .detail
        .get_or_insert_with(|| crate::model::without_hooks(&found.agent));
    let cwd = found.cwd.clone().unwrap_or_default();
    let heard = Heard::running(activity, facts.window_activity, None);
    let mut row = pane_row(pane, found.agent.clone(), cwd, heard, cx);
    row.adopted = Some(Adopted {
        pane: pane.id.clone(),
        hooks: false,
        record: None,
    });
    // Its id and usage, from its own record: a Codex's rollout it holds
    // open, an OpenCode's session in its database.
    usage.by_hand(&pane.id, &mut row, cx.now);
    row
}
