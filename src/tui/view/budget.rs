//! Spend against the `[budget]`: the header's day figure, the sidebar's
//! and the detail pane's mark. `▲` marks what is over its limit, so it
//! reads without colour.

use ratatui::prelude::*;

use super::Theme;
use super::tab_rows::{Keep, LABEL_W, Rows};
use super::text::kv;
use crate::model::{Session, Usage, local_day, usd_limit};
use crate::tui::model::spend::{over, today};
use crate::tui::model::state::AppState;

/// The mark of spend over its limit.
pub const OVER: &str = "▲";

/// `$12.40/$50 today` (`▲ $62.10/$50 today` when over): the day's spend
/// against the daily limit, in long and short forms and how much it
/// matters. Without a daily limit, `$3.10 today`, only when the whole
/// header fits at its longest. Nothing before any usage is known.
pub(super) fn today_part(
    state: &AppState,
    theme: &Theme,
) -> Option<(Vec<Span<'static>>, Vec<Span<'static>>, u8)> {
    let spent = today(&state.list, &state.spend.gone_today, local_day(state.now))?;
    let plus = if spent.partial { "+?" } else { "" };
    let Some(limit) = state.settings.budget.day_usd else {
        let long = vec![
            Span::styled(format!("${:.2}{plus}", spent.usd), theme.accent),
            Span::styled(" today", theme.dim),
        ];
        return Some((long, Vec::new(), 0));
    };
    let is_over = state.settings.budget.day_over(spent.usd).is_some();
    let (mark, style) = if is_over {
        (format!("{OVER} "), theme.warning)
    } else {
        (String::new(), theme.accent)
    };
    let long = vec![
        Span::styled(
            format!("{mark}${:.2}{plus}/{}", spent.usd, usd_limit(limit)),
            style,
        ),
        Span::styled(" today", theme.dim),
    ];
    let short = vec![Span::styled(
        format!("{mark}${:.0}{plus}/{}", spent.usd, usd_limit(limit)),
        style,
    )];
    Some((long, short, 3))
}

/// The sidebar's cost cell: the spend, with the mark when over its limit;
/// the mark alone when costs are not shown.
pub(super) fn cost_cell(s: &Session, cost: String, show_cost: bool) -> String {
    match (over(s), show_cost) {
        (true, true) => format!("{cost}{OVER}"),
        (true, false) => OVER.to_owned(),
        (false, true) => cost,
        (false, false) => String::new(),
    }
}

/// The detail pane's line under `usage` for a session over its limit:
/// `budget  ▲ over: $5.20 spent, the limit is $5 a session`.
pub(super) fn detail_row(out: &mut Rows, u: &Usage, max: usize, theme: &Theme) {
    let Some(limit) = u.over_budget_usd else {
        return;
    };
    let cost = u.cost_usd.unwrap_or_default();
    let limit = usd_limit(limit);
    let text = format!("{OVER} over: ${cost:.2} spent, the limit is {limit} a session");
    let value = vec![Span::styled(text, theme.warning)];
    out.push(Keep::Useful, kv("budget", value, theme.dim, LABEL_W, max));
}
