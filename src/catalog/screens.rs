//! What Codex CLI's panes show: its approval question, read from a capture
//! the engine takes (`engine::screens`) and held here as a fact, by pane.
//! A Codex that asks keeps redrawing, so tmux never calls it quiet and no
//! hook speaks without greenroom's hooks: the question on its screen is
//! what makes its row waiting, with the command it holds.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};

use super::Catalog;
use crate::model::{Activity, ActivitySource, Health, PaneId, Session, Status, WaitingFor, Why};
use crate::sources::codex_screen::CodexApproval;
use crate::tmux::ServerState;

/// A pane that runs Codex CLI, and when tmux last saw its window move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodexPane {
    pub pane: PaneId,
    pub window_activity: Option<DateTime<Utc>>,
}

/// The question each Codex pane's last capture showed, with the pane's
/// tmux session (what greenroom's own rows are known by).
#[derive(Debug, Default)]
pub(super) struct Screens(HashMap<PaneId, (String, CodexApproval)>);

impl Catalog {
    /// The panes running Codex CLI: greenroom's own Codex sessions' and
    /// those found running `codex` (no hooks).
    pub fn codex_panes(&self) -> Vec<CodexPane> {
        let Some(ServerState::Running(server)) = &self.tmux else {
            return Vec::new();
        };
        let own: HashSet<&str> = self
            .own
            .sidecars
            .values()
            .filter(|s| super::usage::is_codex(s))
            .filter_map(|s| s.tmux_session.as_deref())
            .collect();
        server
            .panes()
            .iter()
            .filter(|p| own.contains(p.session.as_str()) || self.adopted.runs(&p.id, "codex"))
            .map(|p| CodexPane {
                pane: p.id.clone(),
                window_activity: p.window_activity,
            })
            .collect()
    }

    /// Records what a capture of `pane` showed (`None`: no question).
    /// Returns whether the rows change.
    pub fn set_screen(&mut self, pane: &PaneId, asked: Option<CodexApproval>) -> bool {
        let session = match &self.tmux {
            Some(ServerState::Running(server)) => server
                .panes()
                .iter()
                .find(|p| p.id == *pane)
                .map(|p| p.session.clone()),
            _ => None,
        };
        let next = session.zip(asked);
        let last = match &next {
            Some(n) => self.screens.0.insert(pane.clone(), n.clone()),
            None => self.screens.0.remove(pane),
        };
        last != next
    }

    /// Forgets the panes that no longer run Codex (closed, or another
    /// program now).
    pub(super) fn forget_screens(&mut self) {
        if self.screens.0.is_empty() {
            return;
        }
        let live: HashSet<PaneId> = self.codex_panes().into_iter().map(|p| p.pane).collect();
        self.screens.0.retain(|pane, _| live.contains(pane));
    }
}

impl Screens {
    /// Makes each running row whose Codex pane shows the question waiting
    /// for it, unless its row says so already (a hook names it too).
    pub(super) fn apply(&self, rows: &mut [Session]) {
        if self.0.is_empty() {
            return;
        }
        for row in rows.iter_mut() {
            if row.status != Status::Running || row.archived || row.health == Health::Waiting {
                continue;
            }
            if let Some(asked) = self.of(row) {
                asked_on_screen(row, asked);
            }
        }
    }

    /// The question on the row's pane: an adopted row's own pane, else
    /// any pane of its tmux session.
    fn of(&self, row: &Session) -> Option<&CodexApproval> {
        match (&row.adopted, &row.tmux_session) {
            (Some(a), _) => self.0.get(&a.pane).map(|(_, q)| q),
            (None, Some(name)) => self
                .0
                .values()
                .find(|(session, _)| session == name)
                .map(|(_, q)| q),
            (None, None) => None,
        }
    }
}

/// The row as waiting for what Codex asks.
fn asked_on_screen(row: &mut Session, asked: &CodexApproval) {
    row.health = Health::Waiting;
    row.activity.state = Activity::AwaitingInput;
    row.activity.source = ActivitySource::Tmux;
    row.activity.detail = Some(asked.question.clone());
    row.waiting_for = Some(WaitingFor {
        question: Some(asked.question.clone()),
        tool: asked.tool().map(str::to_owned),
        command: asked.command.clone(),
        // Left empty: a digit's meaning is read from the screen when it
        // is pressed (`ops::choice`), "3. No, …" refusing.
        options: Vec::new(),
    });
    row.why = Why::default().words("Codex's approval question is on its screen: waiting");
}
