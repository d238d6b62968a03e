//! The reducer's part for other hosts: each host's rows as its
//! `watch --json` stream says them, the state of its connection (live, or
//! down with why and since when, retried with backoff), and sending what
//! the operator does to a host's row to that host. No IO.
//!
//! A host's row carries its place, typed (`Session.host`): what the
//! operator does to it goes to that host (`op::decide`). Its id is the
//! host's own; the list names it by its `RowKey` (host and id), so rows of
//! two hosts, or of a host and this machine, never collide. While its host
//! is down a row stays, greyed, saying why.

use crate::tui::action::HostEffect;
use chrono::{DateTime, Duration, Utc};

use crate::model::Session;
use crate::sources::wire::{Line, RemoteRow};
use crate::tui::action::{Action, Effect};
pub use crate::tui::model::hosts::{
    HostNews, HostSaid, HostView, Link, MAX_ROWS, cap_note, greyed, header_part, initial,
};
use crate::tui::model::state::AppState;

/// A live stream with no line for this long (the heartbeat is 5 s) is down.
const SILENT_AFTER: i64 = 20;
/// A connection that has not sent its snapshot after this long is down.
const CONNECT_LIMIT: i64 = 30;
/// A stream live this long has proven healthy: its backoff starts afresh.
const HEALTHY_AFTER: i64 = 30;

/// The local rows with every host's after them, tagged, faults said.
pub fn merge(state: &AppState, mut local: Vec<Session>) -> Vec<Session> {
    for (host, view) in &state.hosts {
        let fault = fault_of(host, view);
        local.extend(view.rows.iter().map(|r| shown(r, fault.as_deref())));
    }
    local
}

/// What a host's rows say of its link, if anything is wrong with it.
fn fault_of(host: &str, view: &HostView) -> Option<String> {
    match &view.link {
        Link::Down { why, since, .. } => Some(format!(
            "{host} down since {}: {why}",
            since.format("%H:%M:%S")
        )),
        Link::Connecting { since } if !view.rows.is_empty() => Some(format!(
            "{host}: reconnecting since {}",
            since.format("%H:%M:%S")
        )),
        _ => None,
    }
}

/// A host's row as the list shows it: saying its host's fault, if any
/// (the screen names it after its host, from its typed `host`).
fn shown(r: &Session, fault: Option<&str>) -> Session {
    let mut r = r.clone();
    if let Some(f) = fault {
        r.activity.detail = Some(f.to_owned());
    }
    r
}

fn local_rows(state: &AppState) -> Vec<Session> {
    state
        .list
        .rows
        .iter()
        .filter(|r| r.host.is_none())
        .cloned()
        .collect()
}

/// What one line did to the list.
enum Touched {
    Nothing,
    /// One row changed in place: its new look.
    Row(Box<Session>),
    /// A row came: its look (the list is built anew, as for `All`).
    New(Box<Session>),
    /// Rows came, went, or their host's state changed: the list is built
    /// anew, once for the whole burst.
    All,
}

/// Hosts' news, in the order said: rows change, or a host is down and
/// tried again later. Each line costs the same however many rows there
/// are (a host's rows are found by id); the list is then sorted once for
/// the burst: rows that changed alone are swapped in together, and a row
/// that came or went builds the list anew, once. A row's turn to urgent is
/// noted at its line, as if the lines came one by one.
pub fn news(state: &mut AppState, said: Vec<HostSaid>) -> Vec<Effect> {
    let mut alone = Vec::new();
    let mut all = false;
    let mut alerts = Vec::new();
    for HostSaid {
        host,
        attempt,
        news,
    } in said
    {
        match news_one(state, &host, attempt, news) {
            Touched::Nothing => {}
            Touched::Row(row) => {
                alerts.extend(crate::tui::reduce::rows::note_turns(
                    state,
                    std::slice::from_ref(&*row),
                ));
                alone.push(*row);
            }
            Touched::New(row) => {
                alerts.extend(crate::tui::reduce::rows::note_turns(
                    state,
                    std::slice::from_ref(&*row),
                ));
                all = true;
            }
            Touched::All => all = true,
        }
    }
    if all {
        let local = local_rows(state);
        let rows = merge(state, local);
        alerts.extend(crate::tui::reduce::rows::replace_rows(state, rows));
    } else if !alone.is_empty() {
        alerts.extend(crate::tui::reduce::rows::change_rows(state, alone));
    }
    alerts
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

/// One piece of a host's news, applied to its rows.
fn news_one(state: &mut AppState, host: &str, attempt: u64, news: HostNews) -> Touched {
    let now = state.now;
    let Some(view) = state.hosts.get_mut(host) else {
        return Touched::Nothing;
    };
    if attempt != view.attempt {
        return Touched::Nothing;
    }
    view.last_line = now;
    let live = matches!(view.link, Link::Live { .. });
    let mut said = None;
    let touched = match news {
        HostNews::Line(Line::Snapshot { rows, problems, .. }) => {
            said = snapshot(view, host, rows, problems, now);
            Touched::All
        }
        HostNews::Line(Line::Added(r) | Line::Changed(r)) => {
            let (touched, note) = row_line(view, host, r.session, live);
            said = note;
            touched
        }
        HostNews::Line(Line::Removed(id)) => match view.index.remove(&id) {
            Some(i) => {
                view.rows.swap_remove(i);
                if let Some(moved) = view.rows.get(i) {
                    view.index.insert(moved.id.clone(), i);
                }
                Touched::All
            }
            None => Touched::Nothing,
        },
        HostNews::Line(Line::Problems(p)) => {
            view.set_problems(host, p);
            Touched::Nothing
        }
        // A heartbeat only says the stream lives.
        HostNews::Line(Line::Heartbeat | Line::Other) => Touched::Nothing,
        HostNews::Down(why) => {
            said = Some(format!("{host}: {why}"));
            go_down(view, why, now);
            Touched::All
        }
    };
    if let Some(text) = said {
        state.say(text);
    }
    touched
}

/// A host's snapshot: its rows, all of them anew, and its problems; what
/// the status line says of it, if anything.
fn snapshot(
    view: &mut HostView,
    host: &str,
    rows: Vec<RemoteRow>,
    problems: Vec<String>,
    now: DateTime<Utc>,
) -> Option<String> {
    let total = rows.len();
    view.rows = rows.into_iter().take(MAX_ROWS).map(|r| r.session).collect();
    view.index_rows();
    view.over_cap = total > MAX_ROWS;
    view.set_problems(host, problems);
    let mut said = None;
    if matches!(view.link, Link::Down { .. }) {
        said = Some(format!("{host} is back"));
    }
    if view.over_cap {
        said = Some(cap_note(host));
    }
    // The wait and "down since" are reset only once the stream has
    // proven healthy (see `tick`): a host that sends its snapshot and
    // then a line greenroom cannot read is not tried every second.
    view.link = Link::Live { since: now };
    said
}

/// A row a host added or changed, found by its id: in place, new, or
/// left out past the cap (said once).
fn row_line(view: &mut HostView, host: &str, s: Session, live: bool) -> (Touched, Option<String>) {
    match view.index.get(&s.id).copied() {
        Some(i) if live => {
            view.rows[i] = s;
            (Touched::Row(Box::new(shown(&view.rows[i], None))), None)
        }
        Some(i) => {
            view.rows[i] = s;
            (Touched::All, None)
        }
        None if view.rows.len() >= MAX_ROWS => {
            if view.over_cap {
                return (Touched::Nothing, None);
            }
            view.over_cap = true;
            let problems = std::mem::take(&mut view.problems);
            view.set_problems(host, problems);
            (Touched::Nothing, Some(cap_note(host)))
        }
        None => {
            view.index.insert(s.id.clone(), view.rows.len());
            let fault = fault_of(host, view);
            let look = shown(&s, fault.as_deref());
            view.rows.push(s);
            (Touched::New(Box::new(look)), None)
        }
    }
}

fn go_down(view: &mut HostView, why: String, now: DateTime<Utc>) {
    let since = match &view.link {
        Link::Down { since, .. } => *since,
        _ => *view.down_since.get_or_insert(now),
    };
    view.down_since = Some(since);
    view.link = Link::Down {
        why,
        since,
        retry_at: now + view.backoff.fail(),
    };
}

/// The clock: connections due, and streams gone silent.
pub fn tick(state: &mut AppState, now: DateTime<Utc>) -> Vec<Effect> {
    let mut effects = Vec::new();
    let mut changed = false;
    for (host, view) in &mut state.hosts {
        let silent = now - view.last_line;
        // A stream live for a while has proven healthy: the next fault
        // starts the wait afresh.
        if let Link::Live { since } = view.link
            && now - since >= Duration::seconds(HEALTHY_AFTER)
        {
            view.backoff.reset();
            view.down_since = None;
        }
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
            effects.push(Effect::Host(HostEffect::Connect {
                host: host.clone(),
                attempt: view.attempt,
            }));
        }
    }
    // Only a link that went down changes rows (its own, greyed): the
    // clock alone copies none of them (a thousand, each second).
    if changed {
        let local = local_rows(state);
        let rows = merge(state, local);
        effects.extend(crate::tui::reduce::rows::replace_rows(state, rows));
    }
    effects
}
