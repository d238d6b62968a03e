//! The detail pane: the selected session, in three tabs (Overview,
//! Orchestration, Preview) chosen by `state.detail.tab`.

use ratatui::prelude::*;
use ratatui::widgets::Paragraph;

use super::{Theme, changes, orchestration, overview, pane, pane_tail, preview};
use crate::tui::keymap::Keymap;
use crate::tui::model::detail::overview_shows_pane;
use crate::tui::model::state::{AppState, DetailTab};

pub fn render(frame: &mut Frame, area: Rect, state: &AppState, keymap: &Keymap, theme: &Theme) {
    let block = pane(theme).title(tabs(state.detail.tab, usize::from(area.width), theme));
    let block = match state.selected_session() {
        Some(s) => block.title(
            Line::from(Span::styled(
                format!(" {} ", crate::model::row_name(s)),
                theme.dim,
            ))
            .right_aligned(),
        ),
        None => block,
    };
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.is_empty() {
        return;
    }
    // A column of breathing room on each side.
    let inner = if inner.width >= 3 {
        Rect {
            x: inner.x + 1,
            width: inner.width - 2,
            ..inner
        }
    } else {
        inner
    };
    let Some(session) = state.selected_session() else {
        let msg = Line::from(Span::styled("No session selected.", theme.dim));
        frame.render_widget(Paragraph::new(msg), inner);
        return;
    };
    let max = usize::from(inner.width);
    let height = usize::from(inner.height);
    match state.detail.tab {
        DetailTab::Overview => {
            let lines = overview::rows(session, state, max, theme).fit(height, theme);
            let used = u16::try_from(lines.len()).unwrap_or(inner.height);
            frame.render_widget(Paragraph::new(lines), inner);
            if overview_shows_pane(inner.height) {
                let below = Rect {
                    y: inner.y + used.min(inner.height),
                    height: inner.height.saturating_sub(used),
                    ..inner
                };
                pane_tail::render(frame, below, session, state, theme);
            }
        }
        DetailTab::Orchestration => {
            let rows = orchestration::rows(session, max, theme);
            frame.render_widget(Paragraph::new(rows.fit(height, theme)), inner);
        }
        DetailTab::Preview => preview::render(frame, inner, session, state, keymap, theme),
        DetailTab::Changes => changes::render(frame, inner, session, &state.detail.review, theme),
    }
}

/// ` Overview │ Orchestration │ Preview `, the active tab highlighted; only
/// the active one (with its position) when the pane is narrow.
fn tabs(active: DetailTab, pane_width: usize, theme: &Theme) -> Line<'static> {
    let style = |t: DetailTab| {
        if t == active {
            theme.tab_active
        } else {
            theme.dim
        }
    };
    let mut spans = Vec::new();
    for (i, t) in DetailTab::ALL.into_iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled("│", theme.border));
        }
        spans.push(Span::styled(format!(" {} ", t.label()), style(t)));
    }
    let line = Line::from(spans);
    if line.width() + 4 <= pane_width {
        return line;
    }
    let n = DetailTab::ALL
        .iter()
        .position(|t| *t == active)
        .unwrap_or(0)
        + 1;
    Line::from(vec![
        Span::styled(format!(" {} ", active.label()), theme.tab_active),
        Span::styled(format!(" {n}/{} ", DetailTab::ALL.len()), theme.dim),
    ])
}
