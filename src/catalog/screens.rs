//! What the panes of Codex CLI and OpenCode show: Codex's approval
//! question, OpenCode's permission prompt, read from a capture the engine
//! takes (`engine::screens`) and held here as a fact, by pane. A Codex that
//! asks keeps redrawing, so tmux never calls it quiet; an OpenCode that
//! asks draws nothing more, so tmux calls it idle; and without greenroom's
//! hooks (or plugin) neither says a word: the question on its screen is
//! what makes its row waiting, with the command it holds.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};

use super::Catalog;
use crate::model::{Activity, ActivitySource, Health, PaneId, Session, Status, WaitingFor, Why};
use crate::sources::codex_screen::{self, CodexApproval};
use crate::sources::opencode_screen::{self, OpencodePermission};
use crate::tmux::ServerState;

/// The agents whose screens are read, by the name a found pane runs.
const SCREEN_AGENTS: [&str; 2] = ["codex", "opencode"];

/// A pane that runs Codex CLI or OpenCode, and when tmux last saw its
/// window move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScreenPane {
    pub pane: PaneId,
    pub window_activity: Option<DateTime<Utc>>,
}

/// What a screen asks the operator, in its agent's own dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asked {
    Codex(CodexApproval),
    Opencode(OpencodePermission),
}

impl Asked {
    /// The dialog at the bottom of `screen`, whichever agent drew it (each
    /// reader knows only its own agent's dialog).
    pub fn read(screen: &str) -> Option<Asked> {
        codex_screen::approval(screen)
            .map(Asked::Codex)
            .or_else(|| opencode_screen::permission(screen).map(Asked::Opencode))
    }

    fn question(&self) -> &str {
        match self {
            Asked::Codex(a) => &a.question,
            Asked::Opencode(p) => &p.question,
        }
    }

    fn tool(&self) -> Option<&'static str> {
        match self {
            Asked::Codex(a) => a.tool(),
            Asked::Opencode(p) => p.tool(),
        }
    }

    fn command(&self) -> Option<&String> {
        match self {
            Asked::Codex(a) => a.command.as_ref(),
            Asked::Opencode(p) => p.command.as_ref(),
        }
    }

    fn why(&self) -> &'static str {
        match self {
            Asked::Codex(_) => "Codex's approval question is on its screen: waiting",
            Asked::Opencode(_) => "OpenCode's permission prompt is on its screen: waiting",
        }
    }
}

/// The question each such pane's last capture showed, with the pane's
/// tmux session (what greenroom's own rows are known by).
#[derive(Debug, Default)]
pub(super) struct Screens(HashMap<PaneId, (String, Asked)>);

impl Catalog {
    /// The panes running Codex CLI or OpenCode: greenroom's own sessions of
    /// them and those found running `codex` or `opencode` (no hooks).
    pub fn screen_panes(&self) -> Vec<ScreenPane> {
        let Some(ServerState::Running(server)) = &self.tmux else {
            return Vec::new();
        };
        let own: HashSet<&str> = self
            .own
            .sidecars
            .values()
            .filter(|s| super::usage::is_codex(s) || super::usage::is_opencode(s))
            .filter_map(|s| s.tmux_session.as_deref())
            .collect();
        let found = |p: &PaneId| SCREEN_AGENTS.iter().any(|a| self.adopted.runs(p, a));
        server
            .panes()
            .iter()
            .filter(|p| own.contains(p.session.as_str()) || found(&p.id))
            .map(|p| ScreenPane {
                pane: p.id.clone(),
                window_activity: p.window_activity,
            })
            .collect()
    }

    /// Records what a capture of `pane` showed (`None`: no question).
    /// Returns whether the rows change.
    pub fn set_screen(&mut self, pane: &PaneId, asked: Option<Asked>) -> bool {
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

    /// Forgets the panes that no longer run Codex or OpenCode (closed, or
    /// another program now).
    pub(super) fn forget_screens(&mut self) {
        if self.screens.0.is_empty() {
            return;
        }
        let live: HashSet<PaneId> = self.screen_panes().into_iter().map(|p| p.pane).collect();
        self.screens.0.retain(|pane, _| live.contains(pane));
    }
}

impl Screens {
    /// Makes each running row whose pane shows its agent's question waiting
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
    fn of(&self, row: &Session) -> Option<&Asked> {
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

/// The row as waiting for what its agent asks.
fn asked_on_screen(row: &mut Session, asked: &Asked) {
    row.health = Health::Waiting;
    row.activity.state = Activity::AwaitingInput;
    row.activity.source = ActivitySource::Tmux;
    row.activity.detail = Some(asked.question().to_owned());
    row.waiting_for = Some(WaitingFor {
        question: Some(asked.question().to_owned()),
        tool: asked.tool().map(str::to_owned),
        command: asked.command().cloned(),
        // Left empty: a digit's meaning is read from the screen when it
        // is pressed (`ops::choice`), "3. No, …" refusing.
        options: Vec::new(),
    });
    row.why = Why::default().words(asked.why());
}
