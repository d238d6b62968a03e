//! The sidecar record itself: its fields (unknown ones kept), a fresh
//! record, parsing, and the cap on what a hook may store in it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::{MAX_DETAIL_CHARS, SIDECAR_VERSION};
use crate::model::Snooze;
use crate::model::{Activity, Status};

/// A tool call as a hook payload named it; both parts cleaned and bounded
/// by the report that wrote them.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ToolCall {
    #[serde(default)]
    pub tool: Option<String>,
    #[serde(default)]
    pub command: Option<String>,
    /// A question the call puts to the operator (Claude Code's
    /// AskUserQuestion), in its words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// The question's choices in the agent's order: choice 1 is the
    /// first, so a digit answers it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
}

/// The most choices kept: a digit key answers 1 to 9.
pub const MAX_OPTIONS: usize = 9;

/// A git worktree a session was spawned in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Worktree {
    pub repo: PathBuf,
    pub branch: String,
    pub path: PathBuf,
}

/// The sidecar file. Only `id`, `cwd` and `command` are required; fields
/// greenroom does not know are kept in `extra` and written back unchanged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sidecar {
    #[serde(default = "default_version")]
    pub version: u32,
    pub id: Uuid,
    #[serde(default)]
    pub name: String,
    pub cwd: PathBuf,
    pub command: String,
    #[serde(default)]
    pub agent: Option<String>,
    #[serde(default)]
    pub tmux_session: Option<String>,
    #[serde(default = "default_status")]
    pub status: Status,
    #[serde(default)]
    pub exit_status: Option<i32>,
    #[serde(default)]
    pub created_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub restored_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub last_focused_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub last_activity_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub activity: Option<Activity>,
    #[serde(default)]
    pub activity_detail: Option<String>,
    #[serde(default)]
    pub activity_since: Option<DateTime<Utc>>,
    #[serde(default)]
    pub activity_reported_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub current_cwd: Option<PathBuf>,
    #[serde(default)]
    pub agent_session_id: Option<String>,
    #[serde(default)]
    pub transcript_path: Option<PathBuf>,
    /// The session's earlier conversations' transcripts, oldest first
    /// (`/clear` starts a new one): their spend is the session's too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier_transcripts: Vec<PathBuf>,
    #[serde(default)]
    pub worktree: Option<Worktree>,
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    #[serde(default)]
    pub metadata: BTreeMap<String, String>,
    /// The operator's snooze, while one is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snooze: Option<Snooze>,
    /// The tool call the agent holds (PreToolUse, PermissionRequest): what
    /// a waiting session asks about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub activity_tool: Option<ToolCall>,
    /// Set when the activity was recorded by greenroom after it answered a
    /// prompt with this key (the agents fire no hook on a refusal);
    /// cleared by the next hook report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answered_with: Option<String>,
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

fn default_version() -> u32 {
    SIDECAR_VERSION
}

fn default_status() -> Status {
    Status::Dormant
}

impl Sidecar {
    /// A fresh record for a session about to be spawned.
    pub fn new(name: &str, cwd: &Path, command: &str, now: DateTime<Utc>) -> Self {
        Self {
            version: SIDECAR_VERSION,
            id: Uuid::new_v4(),
            name: name.to_owned(),
            cwd: cwd.to_path_buf(),
            command: command.to_owned(),
            agent: None,
            tmux_session: None,
            status: Status::Running,
            exit_status: None,
            created_at: Some(now),
            restored_at: None,
            last_focused_at: None,
            last_activity_at: None,
            activity: None,
            activity_detail: None,
            activity_since: None,
            activity_reported_at: None,
            current_cwd: None,
            agent_session_id: None,
            transcript_path: None,
            earlier_transcripts: Vec::new(),
            worktree: None,
            env: BTreeMap::new(),
            metadata: BTreeMap::new(),
            snooze: None,
            activity_tool: None,
            answered_with: None,
            extra: serde_json::Map::new(),
        }
    }

    /// The name shown to the operator; older or foreign files may lack one.
    pub fn display_name(&self) -> String {
        if self.name.is_empty() {
            self.id.to_string()[..8].to_owned()
        } else {
            self.name.clone()
        }
    }

    /// Parses a sidecar's text; the error is an operator-facing reason.
    pub fn parse(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| format!("is not a valid sidecar: {e}"))
    }

    pub(super) fn cap_detail(&mut self) {
        let cut = |text: &mut String| {
            if let Some((cut, _)) = text.char_indices().nth(MAX_DETAIL_CHARS) {
                text.truncate(cut);
            }
        };
        if let Some(t) = self.activity_tool.as_mut() {
            t.options.truncate(MAX_OPTIONS);
            t.options.iter_mut().for_each(cut);
            [&mut t.tool, &mut t.command, &mut t.question]
                .into_iter()
                .flatten()
                .for_each(cut);
        }
        self.activity_detail.iter_mut().for_each(cut);
    }
}
