//! The orders the dashboard and `greenroom next` sort rows in.

use std::cmp::Ordering;

use crate::model::Session;

/// Sidebar order: last focus, newest first; never-focused sessions after
/// every focused one, newest created first; then by name for stability.
pub fn focus_order(a: &Session, b: &Session) -> Ordering {
    b.last_focused_at
        .cmp(&a.last_focused_at)
        .then_with(|| b.created_at.cmp(&a.created_at))
        .then_with(|| a.name.cmp(&b.name))
        .then_with(|| a.id.cmp(&b.id))
}

/// Triage order: most urgent health first, then sidebar order.
pub fn triage_order(a: &Session, b: &Session) -> Ordering {
    a.health.cmp(&b.health).then_with(|| focus_order(a, b))
}

/// Spend order (`S`): the most spent first (all of a session's
/// conversations, `usage.cost_usd`); sessions whose spend is unknown after
/// every known one; then sidebar order.
pub fn spend_order(a: &Session, b: &Session) -> Ordering {
    let cost = |s: &Session| s.usage.as_ref().and_then(|u| u.cost_usd);
    match (cost(a), cost(b)) {
        (Some(x), Some(y)) => y.total_cmp(&x),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
    .then_with(|| focus_order(a, b))
}

/// Sorts positions, then moves each row once: a row is large, and sorting
/// the rows themselves moved each of a thousand about ten times.
pub fn sort_by_last_focus(rows: &mut Vec<Session>) {
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| focus_order(&rows[a], &rows[b]));
    let mut slots: Vec<Option<Session>> = rows.drain(..).map(Some).collect();
    rows.extend(order.into_iter().filter_map(|i| slots[i].take()));
}

pub fn sort_for_triage(rows: &mut [Session]) {
    rows.sort_by(triage_order);
}
