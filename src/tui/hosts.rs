//! The reducer's part for other hosts: each host's rows as its
//! `watch --json` stream says them, the state of its connection (live, or
//! down with why and since when, retried with backoff), and sending what
//! the operator does to a host's row to that host. No IO.
//!
//! A host's row has the id `HOST/ID` and the name `HOST:NAME` in the list,
//! so rows of two hosts never collide and the filter finds a host by name.
//! While its host is down a row stays, greyed, saying why.

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, Utc};

use super::action::{Action, Effect};
use super::state::AppState;
use crate::model::Session;
use crate::sources::watch_stream::{Line, RemoteRow};

mod route;
pub use route::route;

/// Longest wait between two tries.
const BACKOFF_MAX: i64 = 60;
/// A live stream with no line for this long (the heartbeat is 5 s) is down.
const SILENT_AFTER: i64 = 20;
/// A connection that has not sent its snapshot after this long is down.
const CONNECT_LIMIT: i64 = 30;

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
    /// Rows with ids already `HOST/ID`; names as the host wrote them.
    pub rows: Vec<Session>,
    pub link: Link,
    /// Problems the host reported, as lines.
    pub problems: Vec<String>,
    /// Which connection lines belong to: an older one's are dropped.
    pub attempt: u64,
    pub backoff_secs: i64,
    pub last_line: DateTime<Utc>,
}

impl HostView {
    pub fn new(now: DateTime<Utc>) -> Self {
        Self {
            rows: Vec::new(),
            link: Link::Idle,
            problems: Vec::new(),
            attempt: 0,
            backoff_secs: 1,
            last_line: now,
        }
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

/// The host and its own id, when `row_id` is a host's row.
pub fn split<'a>(state: &'a AppState, row_id: &'a str) -> Option<(&'a str, &'a str)> {
    let (host, id) = row_id.split_once('/')?;
    let view = state.hosts.get(host)?;
    view.rows
        .iter()
        .any(|r| r.id == row_id)
        .then_some((host, id))
}

/// The host whose group a row sorts in (`None`: this machine's); cheap,
/// for sorting: the id's prefix, when it names a host.
pub fn group_of<'a>(hosts: &BTreeMap<String, HostView>, row_id: &'a str) -> Option<&'a str> {
    let (host, _) = row_id.split_once('/')?;
    hosts.contains_key(host).then_some(host)
}

/// Whether the row's host is down (its row is shown greyed).
pub fn greyed(state: &AppState, row_id: &str) -> bool {
    split(state, row_id)
        .and_then(|(h, _)| state.hosts.get(h))
        .is_some_and(|v| !matches!(v.link, Link::Live { .. }))
}

/// What the header says about hosts that are down: "build down" (one), or
/// "2 of 3 hosts down", and a short form; `None` when every host is live.
pub fn header_part(state: &AppState) -> Option<(String, String)> {
    let down: Vec<&String> = state
        .hosts
        .iter()
        .filter(|(_, v)| matches!(v.link, Link::Down { .. }))
        .map(|(n, _)| n)
        .collect();
    match down.as_slice() {
        [] => None,
        [one] => Some((format!("{one} down"), "host down".into())),
        many => Some((
            format!("{} of {} hosts down", many.len(), state.hosts.len()),
            format!("{} hosts down", many.len()),
        )),
    }
}

/// The local rows with every host's after them, tagged, faults said.
pub fn merge(state: &AppState, mut local: Vec<Session>) -> Vec<Session> {
    for (host, view) in &state.hosts {
        let fault = match &view.link {
            Link::Down { why, since, .. } => Some(format!(
                "{host} down since {}: {why}",
                since.format("%H:%M:%S")
            )),
            Link::Connecting { since } if !view.rows.is_empty() => Some(format!(
                "{host}: reconnecting since {}",
                since.format("%H:%M:%S")
            )),
            _ => None,
        };
        local.extend(view.rows.iter().map(|r| shown(host, r, fault.as_deref())));
    }
    local
}

/// A host's row as the list shows it: named after its host, and saying
/// its host's fault, if any.
fn shown(host: &str, r: &Session, fault: Option<&str>) -> Session {
    let mut r = r.clone();
    r.name = format!("{host}:{}", r.name);
    if let Some(f) = fault {
        r.activity.detail = Some(f.to_owned());
    }
    r
}

fn local_rows(state: &AppState) -> Vec<Session> {
    state
        .rows
        .iter()
        .filter(|r| split(state, &r.id).is_none())
        .cloned()
        .collect()
}

/// A row a live host had already sent, changed: its new row, to be
/// swapped in alone, as a local record's is. `Err`: not such a row, for
/// [`news`] to take the long way.
fn changed_alone(
    state: &mut AppState,
    host: &str,
    attempt: u64,
    r: Box<RemoteRow>,
) -> Result<Session, Box<RemoteRow>> {
    let now = state.now;
    let Some(view) = state.hosts.get_mut(host) else {
        return Err(r);
    };
    let id = format!("{host}/{}", r.session.id);
    let live = attempt == view.attempt && matches!(view.link, Link::Live { .. });
    if !live || !state.rows.iter().any(|x| x.id == id) {
        return Err(r);
    }
    let Some(old) = view.rows.iter_mut().find(|x| x.id == id) else {
        return Err(r);
    };
    *old = prefixed(host, *r);
    let row = shown(host, old, None);
    view.last_line = now;
    Ok(row)
}

fn prefixed(host: &str, row: RemoteRow) -> Session {
    let mut s = row.session;
    s.id = format!("{host}/{}", s.id);
    s
}

/// Hosts' news, in the order said: rows change, or a host is down and
/// tried again later. The rows of live hosts that changed alone go in
/// together (a host's 900 rows turning idle at once are 900 lines: one
/// swap and one sort, not 900 of each, nor 900 lists built anew).
pub fn news(state: &mut AppState, said: Vec<HostSaid>) -> Vec<Effect> {
    let mut effects = Vec::new();
    let mut alone = Vec::new();
    for HostSaid {
        host,
        attempt,
        news,
    } in said
    {
        let news = match news {
            HostNews::Line(Line::Added(r) | Line::Changed(r)) => {
                match changed_alone(state, &host, attempt, r) {
                    Ok(row) => {
                        alone.push(row);
                        continue;
                    }
                    Err(r) => HostNews::Line(Line::Changed(r)),
                }
            }
            other => other,
        };
        if !alone.is_empty() {
            effects.extend(super::rows::change_rows(state, std::mem::take(&mut alone)));
        }
        effects.extend(news_one(state, &host, attempt, news));
    }
    if !alone.is_empty() {
        effects.extend(super::rows::change_rows(state, alone));
    }
    effects
}

/// Joins hosts' news that arrived one after another into one action, in
/// order; every other action keeps its place.
pub fn gather(actions: Vec<Action>) -> Vec<Action> {
    let mut out: Vec<Action> = Vec::with_capacity(actions.len());
    for action in actions {
        match (out.last_mut(), action) {
            (Some(Action::Hosts(said)), Action::Hosts(more)) => said.extend(more),
            (_, action) => out.push(action),
        }
    }
    out
}

/// One piece of a host's news the long way: its rows merged anew.
fn news_one(state: &mut AppState, host: &str, attempt: u64, news: HostNews) -> Vec<Effect> {
    let now = state.now;
    let local = local_rows(state);
    let Some(view) = state.hosts.get_mut(host) else {
        return Vec::new();
    };
    if attempt != view.attempt {
        return Vec::new();
    }
    view.last_line = now;
    let mut said = None;
    match news {
        HostNews::Line(Line::Snapshot { rows, problems, .. }) => {
            view.rows = rows.into_iter().map(|r| prefixed(host, r)).collect();
            view.problems = problems;
            if matches!(view.link, Link::Down { .. }) {
                said = Some(format!("{host} is back"));
            }
            view.link = Link::Live { since: now };
            view.backoff_secs = 1;
        }
        HostNews::Line(Line::Added(r) | Line::Changed(r)) => {
            let s = prefixed(host, *r);
            match view.rows.iter_mut().find(|x| x.id == s.id) {
                Some(old) => *old = s,
                None => view.rows.push(s),
            }
        }
        HostNews::Line(Line::Removed(id)) => {
            let id = format!("{host}/{id}");
            view.rows.retain(|r| r.id != id);
        }
        HostNews::Line(Line::Problems(p)) => view.problems = p,
        HostNews::Line(Line::Heartbeat | Line::Other) => return Vec::new(),
        HostNews::Down(why) => {
            said = Some(format!("{host}: {why}"));
            go_down(view, why, now);
        }
    }
    if let Some(text) = said {
        state.say(text);
    }
    let rows = merge(state, local);
    super::rows::replace_rows(state, rows)
}

fn go_down(view: &mut HostView, why: String, now: DateTime<Utc>) {
    let since = match &view.link {
        Link::Down { since, .. } => *since,
        _ => now,
    };
    view.link = Link::Down {
        why,
        since,
        retry_at: now + Duration::seconds(view.backoff_secs),
    };
    view.backoff_secs = (view.backoff_secs * 2).min(BACKOFF_MAX);
}

/// The clock: connections due, and streams gone silent.
pub fn tick(state: &mut AppState, now: DateTime<Utc>) -> Vec<Effect> {
    let mut effects = Vec::new();
    let mut changed = false;
    for (host, view) in &mut state.hosts {
        let silent = now - view.last_line;
        match view.link.clone() {
            Link::Live { .. } if silent > Duration::seconds(SILENT_AFTER) => {
                go_down(view, format!("no word for {SILENT_AFTER} s"), now);
                changed = true;
            }
            Link::Connecting { since } if now - since > Duration::seconds(CONNECT_LIMIT) => {
                go_down(view, format!("no answer in {CONNECT_LIMIT} s"), now);
                changed = true;
            }
            Link::Idle => {}
            Link::Down { retry_at, .. } if retry_at <= now => {}
            _ => continue,
        }
        if matches!(view.link, Link::Idle)
            || matches!(&view.link, Link::Down { retry_at, .. } if *retry_at <= now)
        {
            view.attempt += 1;
            view.last_line = now;
            if matches!(view.link, Link::Idle) {
                view.link = Link::Connecting { since: now };
            }
            // A host that is down stays greyed, saying why, until its snapshot.
            effects.push(Effect::ConnectHost {
                host: host.clone(),
                attempt: view.attempt,
            });
        }
    }
    // Only a link that went down changes rows (its own, greyed): the
    // clock alone copies none of them (a thousand, each second).
    if changed {
        let local = local_rows(state);
        let rows = merge(state, local);
        effects.extend(super::rows::replace_rows(state, rows));
    }
    effects
}
