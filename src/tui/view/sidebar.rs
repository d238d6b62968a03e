//! The sidebar: one line per visible session, from `state.nav.offset`.
//!
//! `› ✖ name        detail text       agent  4m •`
//! The glyph carries the health without colour; the detail column (the
//! activity's text, or a Maestro task) appears when there is room; `•`
//! marks a session that needs a look since it last changed; `▲` after
//! the spend, one over its `[budget]` limit.

use ratatui::prelude::*;
use ratatui::widgets::Paragraph;

use super::budget::cost_cell;
use super::text::{fit, pad, rpad, width};
use super::{Theme, pane};
use crate::display::age;
use crate::model::row_name;
use crate::model::{Session, Source};
use crate::tui::action::Command;
use crate::tui::keymap::Keymap;
use crate::tui::model::spend::over;
use crate::tui::model::state::AppState;

/// Below this inner width the agent column is left out.
const AGENT_MIN_WIDTH: usize = 34;
const AGENT_MAX: usize = 11;
/// The detail column is shown only when it gets at least this many cells.
const DETAIL_MIN: usize = 8;

/// Column widths for one frame.
struct Columns {
    name: usize,
    detail: usize,
    agent: usize,
    /// What the session's agent has spent; 0 when hidden.
    cost: usize,
    /// The work tree's changed files, `+3 ~2`; 0 when no row has any.
    changes: usize,
    age: usize,
}

/// `+3 ~2`: files new to git, files changed; empty for a clean tree or a
/// folder outside git.
fn changes_text(s: &Session) -> String {
    s.changes.as_ref().map(|c| c.compact()).unwrap_or_default()
}

fn cost_text(s: &Session) -> String {
    // A model with no price: the spend is unknown, and says so.
    if s.usage
        .as_ref()
        .is_some_and(|u| u.cost_usd.is_none() && !u.unpriced_models.is_empty())
    {
        return "$?".into();
    }
    s.usage
        .as_ref()
        .and_then(|u| u.cost_usd)
        .map(|c| {
            if c < 100.0 {
                format!("${c:.2}")
            } else {
                format!("${c:.0}")
            }
        })
        .unwrap_or_default()
}

pub fn render(frame: &mut Frame, area: Rect, state: &AppState, keymap: &Keymap, theme: &Theme) {
    let rows = usize::from(area.height.saturating_sub(2));
    let total = state.list.visible.len();
    let cursor = state.cursor();
    let offset = window(state.nav.offset, cursor, rows, total);

    let count = if total > rows && rows > 0 {
        format!(" {}/{total} ", cursor.map_or(offset, |c| c) + 1)
    } else if total < state.listed() {
        format!(" {total} of {} ", state.listed())
    } else {
        format!(" {total} ")
    };
    let block = pane(theme)
        .title(Span::styled(" Sessions ", theme.title))
        .title(Line::from(Span::styled(count, theme.dim)).right_aligned());
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.is_empty() {
        return;
    }

    if total == 0 {
        frame.render_widget(Paragraph::new(no_match(state, keymap, theme)), inner);
        return;
    }

    let max = usize::from(inner.width);
    let page: Vec<&Session> = state
        .list
        .visible_sessions()
        .skip(offset)
        .take(rows)
        .collect();
    let cols = columns(state, &page, max);
    let lines: Vec<Line> = page
        .iter()
        .map(|s| {
            let selected = state.nav.selected.as_ref().is_some_and(|k| s.is(k));
            row(s, state, &cols, selected, max, theme)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The first line to draw: `state.nav.offset`, moved only if the selection
/// would otherwise be off screen (the reducer's page may be a guess).
fn window(offset: usize, cursor: Option<usize>, rows: usize, total: usize) -> usize {
    let offset = offset.min(total.saturating_sub(1));
    match cursor {
        Some(c) if c < offset => c,
        Some(c) if rows > 0 && c >= offset + rows => c + 1 - rows,
        _ => offset,
    }
}

fn agent_label(s: &Session) -> &str {
    match (&s.agent, s.source) {
        (Some(a), _) => a,
        (None, Source::Maestro) => "maestro",
        (None, Source::AgentOrchestrator) => "ao",
        (None, Source::Tmux) => "tmux",
        (None, Source::Greenroom) => "",
    }
}

/// The age column: how long the state has lasted, or for a snoozed
/// session how long the snooze has left (`z 24m`).
fn age_cell(s: &Session, now: chrono::DateTime<chrono::Utc>) -> String {
    match s.snoozed_until {
        Some(until) => crate::attention::snooze_mark(until, now),
        None => age(now, s.activity.since),
    }
}

fn detail_text(s: &Session) -> String {
    // What a waiting agent asks, in its own words where it said them.
    if let Some(q) = s.waiting_for.as_ref().and_then(|w| w.line()) {
        return q;
    }
    if let Some(d) = s
        .activity
        .detail
        .as_deref()
        .filter(|d| !d.trim().is_empty())
    {
        return d.trim().to_owned();
    }
    // AO's own state as it spells it, with what the work is.
    if let Some(a) = &s.agent_orchestrator
        && let Some(status) = &a.status
    {
        return match a.summary.as_deref().or(a.issue.as_deref()) {
            Some(what) => format!("{status} · {what}"),
            None => status.clone(),
        };
    }
    s.orchestration
        .as_ref()
        .and_then(|o| o.task.clone())
        .unwrap_or_default()
}

fn columns(state: &AppState, page: &[&Session], max: usize) -> Columns {
    let age_w = page
        .iter()
        .map(|s| width(&age_cell(s, state.now)))
        .max()
        .unwrap_or(0)
        .max(3);
    let agent_w = if max >= AGENT_MIN_WIDTH {
        page.iter()
            .map(|s| width(agent_label(s)))
            .max()
            .unwrap_or(0)
            .min(AGENT_MAX)
    } else {
        0
    };
    let names: Vec<usize> = page.iter().map(|s| width(&row_name(s))).collect();
    let details = page
        .iter()
        .map(|s| width(&detail_text(s)))
        .max()
        .unwrap_or(0);
    let has_detail = details > 0;
    let cost_w = if max >= AGENT_MIN_WIDTH {
        let cell = |s: &&Session| cost_cell(s, cost_text(s), state.settings.show_cost);
        page.iter().map(|s| width(&cell(s))).max().unwrap_or(0)
    } else {
        0
    };
    let changes_w = if max >= AGENT_MIN_WIDTH {
        page.iter()
            .map(|s| width(&changes_text(s)))
            .max()
            .unwrap_or(0)
    } else {
        0
    };
    let right = age_w + cost_w + usize::from(cost_w > 0) + changes_w + usize::from(changes_w > 0);
    let mut with_agent = fit_columns(max, right, agent_w, &names, details);
    // What a row is waiting on beats which agent it runs: when both do
    // not fit, the agent column goes (the detail pane names the agent).
    if with_agent.detail == 0 && has_detail && agent_w > 0 {
        let without = fit_columns(max, right, 0, &names, details);
        if without.detail > 0 {
            with_agent = without;
        }
    }
    with_agent.age = age_w;
    with_agent.cost = cost_w;
    with_agent.changes = changes_w;
    with_agent
}

/// `names` are the widths of the names on the page, `details` the widest
/// detail text (0 when no row has one).
fn fit_columns(max: usize, age: usize, agent: usize, names: &[usize], details: usize) -> Columns {
    // gutter, glyph, space, [space agent], space age, space mark
    let fixed = 3 + if agent > 0 { agent + 1 } else { 0 } + 1 + age + 2;
    let room = max.saturating_sub(fixed);
    let has_detail = details > 0;
    // One very long name must not take every row's detail column: with
    // details to show, names get at most three fifths of the room, or
    // whatever the details leave. The column is as wide as the longest name
    // within that, so a longer one is cut in its own cell and the other
    // rows look as they would without it.
    let cap = if has_detail {
        (room * 3 / 5).max(room.saturating_sub(details + 1))
    } else {
        room
    };
    let fitting = names.iter().copied().filter(|w| *w <= cap).max();
    let longest = names.iter().copied().max().unwrap_or(0);
    let name = fitting.unwrap_or(longest.min(cap)).clamp(room.min(8), room);
    let spare = room - name;
    let detail = if has_detail && spare > DETAIL_MIN {
        spare - 1
    } else {
        0
    };
    Columns {
        name: room - if detail > 0 { detail + 1 } else { 0 },
        detail,
        agent,
        cost: 0,
        changes: 0,
        age,
    }
}

fn row(
    s: &Session,
    state: &AppState,
    cols: &Columns,
    selected: bool,
    max: usize,
    theme: &Theme,
) -> Line<'static> {
    let key = s.key();
    let attention = state.triage.attention.contains(&key);
    let quiet = s.health.is_quiet() || crate::tui::model::hosts::greyed(&state.hosts, s);
    let mut name_style = if quiet { theme.dim } else { Style::new() };
    if attention {
        name_style = name_style.add_modifier(Modifier::BOLD);
    }
    let mut spans = vec![
        Span::raw(match (selected, state.nav.marked.contains(&key)) {
            (true, true) => "»",
            (true, false) => "›",
            (false, true) => "+",
            (false, false) => " ",
        }),
        Span::styled(s.health.glyph(), theme.health(s.health)),
        Span::raw(" "),
        Span::styled(pad(&row_name(s), cols.name), name_style),
    ];
    if cols.detail > 0 {
        spans.push(Span::raw(" "));
        spans.push(Span::styled(pad(&detail_text(s), cols.detail), theme.dim));
    }
    if cols.agent > 0 {
        spans.push(Span::raw(" "));
        let style = if quiet { theme.dim } else { Style::new() };
        spans.push(Span::styled(pad(agent_label(s), cols.agent), style));
    }
    if cols.changes > 0 {
        spans.push(Span::raw(" "));
        spans.push(Span::styled(
            rpad(&changes_text(s), cols.changes),
            theme.accent,
        ));
    }
    if cols.cost > 0 {
        spans.push(Span::raw(" "));
        let cell = cost_cell(s, cost_text(s), state.settings.show_cost);
        let style = if over(s) { theme.warning } else { theme.dim };
        spans.push(Span::styled(rpad(&cell, cols.cost), style));
    }
    spans.push(Span::raw(" "));
    spans.push(Span::styled(
        rpad(&age_cell(s, state.now), cols.age),
        theme.dim,
    ));
    spans.push(Span::raw(" "));
    spans.push(if attention {
        Span::styled("•", theme.attention)
    } else {
        Span::raw(" ")
    });
    let used = Line::from(spans.clone()).width();
    spans.push(Span::raw(" ".repeat(max.saturating_sub(used))));
    let line = Line::from(spans);
    if selected {
        line.style(theme.selected)
    } else {
        line
    }
}

fn no_match(state: &AppState, keymap: &Keymap, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![Line::from(Span::styled(" No session matches.", theme.dim))];
    if !state.nav.filter.is_empty() {
        let key = first_key(keymap, Command::Filter);
        lines.push(Line::from(vec![
            Span::styled(" filter ", theme.dim),
            Span::styled(format!("/{}", fit(&state.nav.filter, 30)), theme.accent),
            Span::styled(format!(": {key} then Esc clears it"), theme.dim),
        ]));
    }
    if let Some(h) = state.nav.health_filter {
        let key = first_key(keymap, Command::CycleHealthFilter);
        lines.push(Line::from(Span::styled(
            format!(" only {h}: {key} cycles to the next"),
            theme.dim,
        )));
    }
    lines
}

/// The first key bound to a command, for hints ("?" rather than "?/F1").
pub(super) fn first_key(keymap: &Keymap, command: Command) -> String {
    keymap
        .keys_for(command)
        .first()
        .map_or_else(|| command.name().to_owned(), |k| k.label())
}
