//! The dashboard's state: plain data the reducer changes and the views read.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;

use chrono::{DateTime, Utc};

use super::dialog::Dialog;
pub use super::mode::{DetailTab, Mode, Overlay, SortMode};
pub use super::settings::Settings;
pub use super::tmux_link::{BesidePane, PollState, TmuxEvents, TmuxLink, TmuxStatus};
use crate::catalog::{focus_order, triage_order};
use crate::model::{Health, Problem, RowKey, Session};

/// How long a status-line message stays.
const STATUS_SECONDS: i64 = 6;

/// What triage keeps of the rows between updates.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Triage {
    /// Sessions that turned waiting, errored or stuck and were not looked at since.
    pub attention: BTreeSet<RowKey>,
    /// Health at the last update, to see transitions.
    pub last_health: HashMap<RowKey, Health>,
    /// Sessions the operator came back from (attached, then detached), with
    /// the health they had: `w` skips them until their health changes.
    pub handled: HashMap<RowKey, Health>,
    /// The session selected before the last jump (`w`, `W`, jump back).
    pub jumped_from: Option<RowKey>,
}

/// A message shown in the status line until `until`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusLine {
    pub text: String,
    pub until: DateTime<Utc>,
}

/// The last pane capture of a session, with its colours (ANSI).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preview {
    pub id: RowKey,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AppState {
    /// Every row, in the catalog's order (last focus).
    pub rows: Vec<Session>,
    /// Indices into `rows`: what the sidebar shows, in order.
    pub visible: Vec<usize>,
    /// The selected session's id: selection follows the session, not the line.
    pub selected: Option<RowKey>,
    /// The first sidebar line on screen.
    pub offset: usize,
    pub sort: SortMode,
    pub filter: String,
    pub health_filter: Option<Health>,
    pub tab: DetailTab,
    /// The Changes tab's cursor and open diff (for the selected session).
    pub review: super::changes::ChangesTab,
    pub mode: Mode,
    pub status: Option<StatusLine>,
    pub problems: Vec<Problem>,
    pub preview: Option<Preview>,
    pub now: DateTime<Utc>,
    /// Where sessions were looked for, for the empty state.
    pub looked_in: Vec<PathBuf>,
    /// Sidebar lines per page, from the terminal size.
    pub page: usize,
    /// Sessions marked with Space for a bulk kill or dismiss.
    pub marked: BTreeSet<RowKey>,
    /// A session just started: selected when its row first arrives.
    pub select_when_seen: Option<RowKey>,
    /// Show archived and dismissed sessions too (`A`).
    pub show_archived: bool,
    /// Help's page: 0 the list's keys, 1 the dialogs' and the filter's.
    pub help_page: usize,
    /// The selected session's pane activity the preview last followed: new
    /// activity in tmux means a fresh capture.
    pub seen_activity: Option<(RowKey, Option<DateTime<Utc>>)>,
    /// Other machines (`[[hosts]]`): their rows and connections.
    pub hosts: std::collections::BTreeMap<String, super::hosts::HostView>,
    /// What greenroom knows of tmux and its link to it, and the pane beside.
    pub link: TmuxLink,
    /// What triage keeps of the rows: attention marks, health seen, rows
    /// handled, the jump back.
    pub triage: Triage,
    /// What the rows that left the list had spent, by row: the money was
    /// spent all the same, so the header's total keeps it (a row that
    /// comes back, the archive shown again, counts as a row again).
    pub spent_gone: HashMap<RowKey, f64>,
    /// What config.toml says, copied at the start: read only.
    pub settings: Settings,
    /// How many times the list was sorted anew (a host's burst of lines is
    /// one sort, whatever its length): counted for tests.
    pub sorts: u64,
}

impl AppState {
    pub fn new(now: DateTime<Utc>, looked_in: Vec<PathBuf>) -> Self {
        Self {
            rows: Vec::new(),
            visible: Vec::new(),
            selected: None,
            offset: 0,
            sort: SortMode::LastFocus,
            filter: String::new(),
            health_filter: None,
            tab: DetailTab::Overview,
            review: Default::default(),
            mode: Mode::Normal,
            status: None,
            problems: Vec::new(),
            preview: None,
            now,
            looked_in,
            page: 10,
            marked: BTreeSet::new(),
            select_when_seen: None,
            show_archived: false,
            help_page: 0,
            seen_activity: None,
            hosts: Default::default(),
            sorts: 0,
            link: TmuxLink::default(),
            triage: Triage::default(),
            spent_gone: HashMap::new(),
            settings: Settings::default(),
        }
    }

    /// Shows `text` in the status line for a few seconds.
    pub fn say(&mut self, text: impl Into<String>) {
        self.status = Some(StatusLine {
            text: text.into(),
            until: self.now + chrono::Duration::seconds(STATUS_SECONDS),
        });
    }

    /// The open dialog, if a dialog has the keys.
    pub fn dialog(&self) -> Option<&Dialog> {
        match &self.mode {
            Mode::Dialog(d) => Some(d),
            _ => None,
        }
    }

    /// The open overlay, if one has the keys.
    pub fn overlay(&self) -> Option<Overlay> {
        match self.mode {
            Mode::Overlay(o) => Some(o),
            _ => None,
        }
    }

    /// The pane beside, when one is open.
    pub fn beside_pane(&self) -> Option<&crate::tmux::Beside> {
        match &self.link.beside {
            BesidePane::Open(b) => Some(b),
            _ => None,
        }
    }

    /// The selected row's position in `visible`.
    pub fn cursor(&self) -> Option<usize> {
        let id = self.selected.as_ref()?;
        self.visible
            .iter()
            .position(|&i| self.rows.get(i).is_some_and(|r| r.is(id)))
    }

    pub fn selected_session(&self) -> Option<&Session> {
        let id = self.selected.as_ref()?;
        self.visible
            .iter()
            .map(|&i| &self.rows[i])
            .find(|s| s.is(id))
    }

    pub fn visible_sessions(&self) -> impl Iterator<Item = &Session> {
        self.visible.iter().map(|&i| &self.rows[i])
    }

    /// How many rows the sidebar lists before filters: archived ones only
    /// while they are shown (`A`).
    pub fn listed(&self) -> usize {
        if self.show_archived {
            self.rows.len()
        } else {
            self.rows.iter().filter(|r| !r.archived).count()
        }
    }

    /// How many sessions are in each health class (all rows, unfiltered).
    pub fn counts(&self) -> HashMap<Health, usize> {
        let mut counts = HashMap::new();
        for r in self.rows.iter().filter(|r| !r.archived) {
            *counts.entry(r.health).or_insert(0) += 1;
        }
        counts
    }

    /// Recomputes `visible` from rows, sort and filters; keeps the selection
    /// on the same session when it is still shown, else on the same line.
    pub fn refresh_visible(&mut self) {
        let line = self.cursor();
        self.refresh_visible_at(line);
    }

    /// As [`Self::refresh_visible`], falling back to `line` when the
    /// selected session is gone (the caller knows the line before the rows changed).
    pub fn refresh_visible_at(&mut self, old_cursor: Option<usize>) {
        let needle = self.filter.to_lowercase();
        let rows = &self.rows;
        let mut visible: Vec<usize> = (0..rows.len())
            .filter(|&i| self.show_archived || !rows[i].archived)
            .filter(|&i| self.health_filter.is_none_or(|h| h == rows[i].health))
            .filter(|&i| needle.is_empty() || matches_filter(&rows[i], &needle))
            .collect();
        let order = match self.sort {
            SortMode::LastFocus => focus_order,
            SortMode::Triage => triage_order,
        };
        // Each host's rows together, after the local ones (not in triage,
        // where the most urgent comes first whichever host it is on).
        let groups: Vec<Option<&str>> = match self.sort {
            SortMode::LastFocus if !self.hosts.is_empty() => rows
                .iter()
                .map(|r| r.host.as_ref().map(|p| p.name.as_str()))
                .collect(),
            _ => Vec::new(),
        };
        let group = |i: usize| groups.get(i).copied().flatten();
        self.sorts += 1;
        visible.sort_by(|&a, &b| {
            group(a)
                .cmp(&group(b))
                .then_with(|| order(&rows[a], &rows[b]))
        });
        if self.settings.pin_attention && self.sort == SortMode::LastFocus {
            pin_attention(rows, &mut visible);
        }
        self.visible = visible;
        if self.cursor().is_none() {
            let line = old_cursor
                .unwrap_or(0)
                .min(self.visible.len().saturating_sub(1));
            self.selected = self.visible.get(line).map(|&i| self.rows[i].key());
        }
        self.clamp_offset();
    }

    /// Keeps the selected line inside the sidebar's window.
    pub fn clamp_offset(&mut self) {
        let page = self.page.max(1);
        match self.cursor() {
            Some(c) if c < self.offset => self.offset = c,
            Some(c) if c >= self.offset + page => self.offset = c + 1 - page,
            _ => {}
        }
        self.offset = self.offset.min(self.visible.len().saturating_sub(1));
    }
}

/// Substring match over what an operator remembers a session by.
fn matches_filter(s: &Session, needle: &str) -> bool {
    let hit = |t: &str| t.to_lowercase().contains(needle);
    // As the screen shows it: a host's rows are found by the host's name too.
    hit(&crate::model::row_name(s))
        || hit(&s.cwd.to_string_lossy())
        || s.branch.as_deref().is_some_and(hit)
        || s.orchestration
            .as_ref()
            .and_then(|o| o.task.as_deref())
            .is_some_and(hit)
        || s.agent.as_deref().is_some_and(hit)
}

/// The pinned group: the sessions in the attention queue move to the top
/// of the list, in queue order; every other keeps its place relative to
/// the rest. Moving through the list changes neither order.
fn pin_attention(rows: &[Session], visible: &mut [usize]) {
    visible.sort_by(|&a, &b| {
        let (ra, rb) = (&rows[a], &rows[b]);
        match (
            crate::attention::in_queue(ra),
            crate::attention::in_queue(rb),
        ) {
            (true, true) => crate::attention::queue_order(ra, rb),
            (true, false) => std::cmp::Ordering::Less,
            (false, true) => std::cmp::Ordering::Greater,
            // Stable sort: the rest keep the order they came in.
            (false, false) => std::cmp::Ordering::Equal,
        }
    });
}
