//! The dashboard's state: plain data the reducer changes and the views read.
//! Each part in its own file (the rows, the navigation, the detail pane,
//! triage, the tmux link, the settings); here what holds them together and
//! what needs more than one of them (the selection's place in the list, the
//! list's order and filters).

use std::path::PathBuf;

use chrono::{DateTime, Utc};

pub use super::detail::{DetailPane, Preview};
use super::dialog::Dialog;
pub use super::mode::{DetailTab, Mode, Overlay, SortMode};
pub use super::nav::Nav;
pub use super::row_list::RowList;
pub use super::settings::Settings;
pub use super::tmux_link::{BesidePane, PollState, TmuxEvents, TmuxLink, TmuxStatus};
pub use super::triage::Triage;
use crate::catalog::{focus_order, spend_order, triage_order};
use crate::model::{Health, RowKey, Session};

/// How long a status-line message stays.
const STATUS_SECONDS: i64 = 6;

/// A message shown in the status line until `until`, or until what it
/// says stops being so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusLine {
    pub text: String,
    pub until: DateTime<Utc>,
    pub holds: Holds,
}

/// What a status-line message says is so, for as long as it is: the
/// reducer withdraws the message once it is not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Holds {
    /// The report of something done ("killed a"): true for its seconds.
    Said,
    /// "nothing needs you": while the queue `w` walks is empty.
    NothingQueued,
    /// About rows as they were (a refusal, a step of the queue): while each
    /// is listed with that health.
    Rows(Vec<(RowKey, Health)>),
    /// "n marked": while that many rows are marked.
    Marked(usize),
    /// tmux did not answer a poll: until it answers one.
    TmuxFailing,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AppState {
    /// The rows, the problems, which rows the sidebar shows.
    pub list: RowList,
    /// The selection, the sidebar's window, the sort, filters and marks.
    pub nav: Nav,
    /// The detail pane: its tab, the preview, the Changes tab.
    pub detail: DetailPane,
    /// What has the keys: the list, a dialog, an overlay.
    pub mode: Mode,
    pub status: Option<StatusLine>,
    /// The time at the last tick: the reducer reads no clock.
    pub now: DateTime<Utc>,
    /// Other machines (`[[hosts]]`): their rows and connections.
    pub hosts: std::collections::BTreeMap<String, super::hosts::HostView>,
    /// What greenroom knows of tmux and its link to it, and the pane beside.
    pub link: TmuxLink,
    /// What triage keeps of the rows: attention marks, health seen, rows
    /// handled, the jump back.
    pub triage: Triage,
    /// What config.toml says, copied at the start: read only.
    pub settings: Settings,
    /// Spend against the budget: what the alerts remember.
    pub spend: super::spend::SpendWatch,
    /// What notifications keep: sent, held back, what the operator looks at.
    pub notify: super::notify::Notifier,
}

impl AppState {
    pub fn new(now: DateTime<Utc>, looked_in: Vec<PathBuf>) -> Self {
        Self {
            list: RowList {
                looked_in,
                ..RowList::default()
            },
            nav: Nav::default(),
            detail: DetailPane::default(),
            mode: Mode::Normal,
            status: None,
            now,
            hosts: Default::default(),
            link: TmuxLink::default(),
            triage: Triage::default(),
            settings: Settings::default(),
            spend: Default::default(),
            notify: Default::default(),
        }
    }

    /// Shows `text` in the status line for a few seconds.
    pub fn say(&mut self, text: impl Into<String>) {
        self.say_while(text, Holds::Said);
    }

    /// Shows `text` for a few seconds, or until what `holds` names stops
    /// being so.
    pub fn say_while(&mut self, text: impl Into<String>, holds: Holds) {
        self.status = Some(StatusLine {
            text: text.into(),
            until: self.now + chrono::Duration::seconds(STATUS_SECONDS),
            holds,
        });
    }

    /// What the selected row is now, for a message about it.
    pub fn selected_as_is(&self) -> Holds {
        match self.selected_session() {
            Some(s) => Holds::Rows(vec![(s.key(), s.health)]),
            None => Holds::Said,
        }
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

    /// The selected row's position in `visible`.
    pub fn cursor(&self) -> Option<usize> {
        self.list.position(self.nav.selected.as_ref()?)
    }

    pub fn selected_session(&self) -> Option<&Session> {
        self.list.shown(self.nav.selected.as_ref()?)
    }

    /// How many rows the sidebar lists before filters: archived ones only
    /// while they are shown (`A`).
    pub fn listed(&self) -> usize {
        if self.nav.show_archived {
            self.list.rows.len()
        } else {
            self.list.rows.iter().filter(|r| !r.archived).count()
        }
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
        let nav = &self.nav;
        let needle = nav.filter.to_lowercase();
        let rows = &self.list.rows;
        let mut visible: Vec<usize> = (0..rows.len())
            .filter(|&i| nav.show_archived || !rows[i].archived)
            .filter(|&i| nav.health_filter.is_none_or(|h| h == rows[i].health))
            .filter(|&i| needle.is_empty() || matches_filter(&rows[i], &needle))
            .collect();
        let order = match nav.sort {
            SortMode::LastFocus => focus_order,
            SortMode::Triage => triage_order,
            SortMode::Spend => spend_order,
        };
        // Each host's rows together, after the local ones (not in triage,
        // where the most urgent comes first whichever host it is on).
        let groups: Vec<Option<&str>> = match nav.sort {
            SortMode::LastFocus if !self.hosts.is_empty() => rows
                .iter()
                .map(|r| r.host.as_ref().map(|p| p.name.as_str()))
                .collect(),
            _ => Vec::new(),
        };
        let group = |i: usize| groups.get(i).copied().flatten();
        visible.sort_by(|&a, &b| {
            group(a)
                .cmp(&group(b))
                .then_with(|| order(&rows[a], &rows[b]))
        });
        if self.settings.pin_attention && nav.sort == SortMode::LastFocus {
            pin_attention(rows, &mut visible);
        }
        self.list.sorts += 1;
        self.list.visible = visible;
        if self.cursor().is_none() {
            let line = old_cursor
                .unwrap_or(0)
                .min(self.list.visible.len().saturating_sub(1));
            self.nav.selected = self.list.key_at(line);
        }
        self.clamp_offset();
    }

    /// Keeps the selected line inside the sidebar's window.
    pub fn clamp_offset(&mut self) {
        let cursor = self.cursor();
        let nav = &mut self.nav;
        let page = nav.page.max(1);
        match cursor {
            Some(c) if c < nav.offset => nav.offset = c,
            Some(c) if c >= nav.offset + page => nav.offset = c + 1 - page,
            _ => {}
        }
        nav.offset = nav.offset.min(self.list.visible.len().saturating_sub(1));
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
