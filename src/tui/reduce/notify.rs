//! Every decision about notifications: which sessions that just turned are
//! worth one (their class switched on, not looked at, not notified a moment
//! ago), and when: at once, or held back by the overall gap and sent
//! together with whatever else turned meanwhile, at the next tick after it.
//! The driver only delivers the [`Notice`]s decided here.

use chrono::{DateTime, Duration, Utc};

use crate::model::{RowKey, Session};
use crate::tui::action::{Effect, UiEffect};
use crate::tui::model::notify::{Notice, NoticeRow};
use crate::tui::model::state::AppState;

/// How recent the operator's input must be for the selection to be what
/// they look at (the dwell's rule, `look::present`).
pub use crate::tui::reduce::look::PRESENT;

/// A session is notified at most once in this long, however often it turns.
pub const PER_SESSION_GAP: Duration = Duration::seconds(60);
/// Notices go out at most once in this long; what turns meanwhile is held
/// and sent as one.
pub const OVERALL_GAP: Duration = Duration::seconds(5);
/// What a notice says of a row that turned at `now`.
pub(in crate::tui) fn notice_row(r: &Session, now: DateTime<Utc>) -> NoticeRow {
    NoticeRow {
        key: r.key(),
        name: crate::model::row_name(r).into_owned(),
        health: r.health,
        why: r.why.at(now),
        asks: r.waiting_for.as_ref().and_then(|w| w.line()),
        target: r.key().host.is_none().then(|| r.tmux_target()).flatten(),
    }
}

/// Rows that just turned into a class that needs the operator: the ones
/// worth a notice are noted, and sent now unless the overall gap holds them.
pub(in crate::tui) fn turned(state: &mut AppState, rows: Vec<NoticeRow>) -> Vec<Effect> {
    if !state.settings.alerts {
        return Vec::new();
    }
    let now = state.now;
    let fresh: Vec<NoticeRow> = rows.into_iter().filter(|r| wanted(state, r)).collect();
    for r in &fresh {
        state.notify.sent.insert(r.key.clone(), now);
    }
    state.notify.pending.extend(fresh);
    flush(state)
}

/// The held notices, as one, once the overall gap has passed (called at
/// each tick too; nothing held, nothing to do). A held session the operator
/// went to meanwhile, or that turned again, is left out.
pub(in crate::tui) fn flush(state: &mut AppState) -> Vec<Effect> {
    let now = state.now;
    if state.notify.pending.is_empty()
        || state
            .notify
            .last_sent
            .is_some_and(|t| now - t < OVERALL_GAP)
    {
        return Vec::new();
    }
    let mut rows = std::mem::take(&mut state.notify.pending);
    rows.retain(|r| {
        state.triage.last_health.get(&r.key) == Some(&r.health) && !looked_at(state, r)
    });
    state
        .notify
        .sent
        .retain(|_, at| now - *at < PER_SESSION_GAP);
    if rows.is_empty() {
        return Vec::new();
    }
    // Most urgent first; the order they turned in among equals.
    rows.sort_by_key(|r| r.health);
    state.notify.last_sent = Some(now);
    vec![Effect::Ui(UiEffect::Notify(notice(
        rows,
        now,
        state.settings.bell,
    )))]
}

fn wanted(state: &AppState, r: &NoticeRow) -> bool {
    let now = state.now;
    state.settings.notify_on.contains(&r.health)
        && !looked_at(state, r)
        && state
            .notify
            .sent
            .get(&r.key)
            .is_none_or(|at| now - *at >= PER_SESSION_GAP)
        && !state.notify.pending.iter().any(|p| p.key == r.key)
}

/// Whether the operator is looking at the row: a tmux client shows its
/// pane, or it is the dashboard's selection while they type in it.
pub fn looked_at(state: &AppState, r: &NoticeRow) -> bool {
    let typing = crate::tui::reduce::look::present(state);
    let selected = |key: &RowKey| state.nav.selected.as_ref() == Some(key);
    (typing && selected(&r.key))
        || r.target
            .as_ref()
            .is_some_and(|t| state.notify.looked_at.contains(t))
}

/// One notice for `rows` (at least one): a single session by its name and
/// what it asks, several by their count and names.
fn notice(rows: Vec<NoticeRow>, at: DateTime<Utc>, bell: bool) -> Notice {
    let (title, body) = match &rows[..] {
        [one] => (
            format!("greenroom: {} is {}", one.name, one.health),
            one.asks.clone().unwrap_or_else(|| one.why.clone()),
        ),
        many => (
            format!("greenroom: {} sessions need you", many.len()),
            many.iter()
                .map(|r| format!("{} {}", r.name, r.health))
                .collect::<Vec<_>>()
                .join(", "),
        ),
    };
    Notice {
        kind: "needs_you",
        at,
        title,
        body,
        rows,
        bell,
    }
}
