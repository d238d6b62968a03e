//! Other hosts as the dashboard knows them: each one's rows as its
//! `watch --json` stream says them and the state of its connection (live,
//! or down with why and since when, retried with backoff). Plain data.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, Utc};

use super::backoff::Backoff;
use crate::model::Session;
use crate::sources::wire::Line;

/// Longest wait between two tries.
const BACKOFF_MAX: i64 = 60;
/// The most rows shown from one host; past it, a problem says so.
pub use crate::hosts::stream::MAX_ROWS;

/// What one host's connection is doing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    /// Not tried yet.
    Idle,
    Connecting {
        since: DateTime<Utc>,
    },
    Live {
        since: DateTime<Utc>,
    },
    Down {
        why: String,
        since: DateTime<Utc>,
        retry_at: DateTime<Utc>,
    },
}

/// One host as the dashboard knows it.
#[derive(Debug, Clone, PartialEq)]
pub struct HostView {
    /// Rows with ids and names as the host wrote them.
    pub rows: Vec<Session>,
    pub link: Link,
    /// Problems the host reported, as lines.
    pub problems: Vec<String>,
    /// Which connection lines belong to: an older one's are dropped.
    pub attempt: u64,
    /// The wait before the next try after a fault.
    pub backoff: Backoff,
    pub last_line: DateTime<Utc>,
    /// Where each row is in `rows`, by id: a line about a row finds it
    /// without a scan.
    pub index: HashMap<String, usize>,
    /// When the host went down, until its stream has proven healthy again.
    pub down_since: Option<DateTime<Utc>>,
    /// The host has more than [`MAX_ROWS`] rows: the rest are not shown.
    pub over_cap: bool,
}

impl HostView {
    pub fn new(now: DateTime<Utc>) -> Self {
        Self {
            rows: Vec::new(),
            link: Link::Idle,
            problems: Vec::new(),
            attempt: 0,
            backoff: Backoff::new(BACKOFF_MAX),
            last_line: now,
            index: HashMap::new(),
            down_since: None,
            over_cap: false,
        }
    }

    pub fn index_rows(&mut self) {
        self.index = self
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| (r.id.clone(), i))
            .collect();
    }

    /// The host's problems, and the cap's when its rows are past it.
    pub fn set_problems(&mut self, host: &str, mut problems: Vec<String>) {
        if self.over_cap {
            problems.push(cap_note(host));
        }
        self.problems = problems;
    }
}

/// What a host's connection reported.
#[derive(Debug, Clone, PartialEq)]
pub enum HostNews {
    Line(Line),
    /// The connection ended or was refused: why, in one line.
    Down(String),
}

/// What connection `attempt` to a `[[hosts]]` entry said.
#[derive(Debug, Clone, PartialEq)]
pub struct HostSaid {
    pub host: String,
    pub attempt: u64,
    pub news: HostNews,
}

/// The hosts named in config.toml, none connected yet.
pub fn initial(names: &[String], now: DateTime<Utc>) -> BTreeMap<String, HostView> {
    names
        .iter()
        .map(|n| (n.clone(), HostView::new(now)))
        .collect()
}

/// Whether the row's host is down (its row is shown greyed).
pub fn greyed(hosts: &BTreeMap<String, HostView>, row: &Session) -> bool {
    row.host
        .as_ref()
        .and_then(|p| hosts.get(p.name.as_str()))
        .is_some_and(|v| v.index.contains_key(&row.id) && !matches!(v.link, Link::Live { .. }))
}

/// What the header says about hosts that are down: "build down" (one), or
/// "2 of 3 hosts down", and a short form; `None` when every host is live.
pub fn header_part(hosts: &BTreeMap<String, HostView>) -> Option<(String, String)> {
    let down: Vec<&String> = hosts
        .iter()
        .filter(|(_, v)| matches!(v.link, Link::Down { .. }))
        .map(|(n, _)| n)
        .collect();
    match down.as_slice() {
        [] => None,
        [one] => Some((format!("{one} down"), "host down".into())),
        many => Some((
            format!("{} of {} hosts down", many.len(), hosts.len()),
            format!("{} hosts down", many.len()),
        )),
    }
}

/// What the problems say of a host past its row cap.
pub fn cap_note(host: &str) -> String {
    format!("{host} has more than {MAX_ROWS} sessions: only {MAX_ROWS} are shown")
}
