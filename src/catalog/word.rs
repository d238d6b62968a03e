//! A record's agent's words as the health rules read them: the hook's
//! report it holds, the tool call it last named, and its newest sign of
//! life (an agent saying it works is alive only while it speaks).

use chrono::{DateTime, Utc};

use super::usage::UsageFiles;
use crate::health::{self, Report, TmuxFacts};
use crate::model::{Activity, ActivitySource, ActivityView, Orchestration};
use crate::sources::sidecar::{Sidecar, ToolCall};

/// The hook's last report a record holds, with the transcript's words
/// for a vague error.
pub(super) fn hook_report<'a>(s: &'a Sidecar, usage: &'a UsageFiles) -> Option<Report<'a>> {
    s.activity.as_ref().map(|state| Report {
        state,
        detail: usage.error_words(s).or(s.activity_detail.as_deref()),
        since: s.activity_since,
        reported_at: s.activity_reported_at,
        hears_interrupt: false,
    })
}

/// A record's newest sign of life: its agent's words (`word`, its last),
/// Maestro's update, and pane output unless the agent's last word is
/// Active ([`health::sign_of_life`]).
pub(super) fn sidecar_signal_at(
    live: Option<&TmuxFacts>,
    s: &Sidecar,
    orchestration: Option<&Orchestration>,
    word: Option<&Report<'_>>,
) -> Option<DateTime<Utc>> {
    health::sign_of_life(
        word.is_some_and(|r| *r.state == Activity::Active),
        [
            word.and_then(|r| r.reported_at),
            s.activity_reported_at,
            s.last_activity_at,
            orchestration.and_then(|o| o.updated_at),
        ],
        live.and_then(|f| f.window_activity),
    )
}

/// What the agent last said, as a stuck row's why line names it: the
/// tool call its record holds (`Bash \`npm test\``).
pub(super) fn said(tool: Option<&ToolCall>) -> Option<String> {
    let tool = tool?;
    match (tool.tool.as_deref(), tool.command.as_deref()) {
        (Some(name), Some(command)) => Some(format!("{name} `{command}`")),
        (Some(name), None) => Some(name.to_owned()),
        (None, Some(command)) => Some(format!("`{command}`")),
        (None, None) => None,
    }
}

/// Who spoke, when the record's word decided the activity: Claude Code's
/// own record when it spoke (`from_record`), greenroom when the word is an
/// answer it sent (which stands until the agent's next report), else the
/// hook. Greenroom's own rows and hand-started ones alike.
pub(super) fn name_the_speaker(activity: &mut ActivityView, from_record: bool, s: &Sidecar) {
    if activity.source != ActivitySource::Hook {
        return;
    }
    if from_record {
        activity.source = ActivitySource::ClaudeRegistry;
    } else if s.answered_with.is_some() {
        activity.source = ActivitySource::Answer;
    }
}
