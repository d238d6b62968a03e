//! Spend alerts: a session whose spend crosses its `[budget]` limit, and
//! the day's spend crossing the daily one, each alerted once per crossing
//! (see `SpendWatch` for when a crossing counts). Each alert is a notice
//! of kind `over_budget`, delivered as the notifications are (terminal,
//! bell, the `[notify] command`); `alerts = false` silences it too.

use std::collections::HashSet;

use crate::model::{RowKey, Session, local_day, row_name, usd_limit};
use crate::tui::action::{Effect, UiEffect};
use crate::tui::model::notify::Notice;
use crate::tui::model::spend::today;
use crate::tui::model::state::AppState;

/// The alerts for sessions in `rows` that crossed their limit, arming
/// those within it. Kept across row rebuilds: a row said again with the
/// same spend is neither armed nor alerted again.
pub(in crate::tui) fn note_sessions(state: &mut AppState, rows: &[Session]) -> Vec<Effect> {
    let mut alerts = Vec::new();
    for r in rows {
        let Some(u) = &r.usage else { continue };
        let (Some(cost), Some(limit)) = (u.cost_usd, state.settings.budget.session_usd) else {
            continue;
        };
        let key = r.key();
        match u.over_budget_usd {
            None => {
                state.spend.armed.insert(key);
            }
            Some(_) if state.spend.armed.remove(&key) => {
                let row = super::notify::notice_row(r, state.now);
                alerts.push(over_budget(
                    state,
                    format!("greenroom: {} is over budget", row_name(r)),
                    format!("spent ${cost:.2}, over its {} limit", usd_limit(limit)),
                    vec![row],
                ));
            }
            Some(_) => {}
        }
    }
    alerts
}

/// Rows leaving the list keep what they spent today in the day's figure;
/// a row back in the list counts from its row again.
pub(in crate::tui) fn keep_today(state: &mut AppState, rows: &[Session]) {
    let keys: HashSet<RowKey> = rows.iter().map(Session::key).collect();
    for r in &state.list.rows {
        let today = r.usage.as_ref().and_then(|u| u.today);
        if let Some(t) = today.filter(|_| !keys.contains(&r.key())) {
            state.spend.gone_today.insert(r.key(), t);
        }
    }
    state.spend.armed.retain(|key| keys.contains(key));
    if !state.spend.gone_today.is_empty() {
        state.spend.gone_today.retain(|key, _| !keys.contains(key));
    }
}

/// The alert for the day's spend crossing the daily limit, once a day.
pub(in crate::tui) fn note_day(state: &mut AppState) -> Vec<Effect> {
    let Some(limit) = state.settings.budget.day_usd else {
        return Vec::new();
    };
    let day = local_day(state.now);
    let Some(spent) = today(&state.list, &state.spend.gone_today, day) else {
        return Vec::new();
    };
    if state.settings.budget.day_over(spent.usd).is_none() {
        state.spend.day_armed = Some(day);
        return Vec::new();
    }
    if state.spend.day_armed.take_if(|d| *d == day).is_none() {
        return Vec::new();
    }
    let body = format!(
        "${:.2} spent today, over the {} daily limit",
        spent.usd,
        usd_limit(limit)
    );
    let title = "greenroom: today's spend is over budget".to_owned();
    vec![over_budget(state, title, body, Vec::new())]
}

/// A spend alert as a notice: about `rows` (none for the day's figure).
fn over_budget(
    state: &AppState,
    title: String,
    body: String,
    rows: Vec<crate::tui::model::notify::NoticeRow>,
) -> Effect {
    Effect::Ui(UiEffect::Notify(Notice {
        kind: "over_budget",
        at: state.now,
        title,
        body,
        rows,
        bell: state.settings.bell,
    }))
}
