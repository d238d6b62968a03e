//! The detail pane: the selected session, in three tabs (Overview,
//! Orchestration, Preview) chosen by `state.tab`.

use ratatui::prelude::*;
use ratatui::widgets::Paragraph;

use super::{Theme, orchestration, overview, pane, preview};
use crate::tui::keymap::Keymap;
use crate::tui::state::{AppState, DetailTab};

/// Labels of the key/value rows line up at this width.
pub(super) const LABEL_W: usize = 10;

pub fn render(frame: &mut Frame, area: Rect, state: &AppState, keymap: &Keymap, theme: &Theme) {
    let block = pane(theme).title(tabs(state.tab, usize::from(area.width), theme));
    let block = match state.selected_session() {
        Some(s) => block
            .title(Line::from(Span::styled(format!(" {} ", s.name), theme.dim)).right_aligned()),
        None => block,
    };
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.is_empty() {
        return;
    }
    // One column of breathing room on the left; the text runs to the border.
    let inner = Rect {
        x: inner.x + 1,
        width: inner.width - 1,
        ..inner
    };
    let Some(session) = state.selected_session() else {
        let msg = Line::from(Span::styled("No session selected.", theme.dim));
        frame.render_widget(Paragraph::new(msg), inner);
        return;
    };
    let max = usize::from(inner.width);
    let height = usize::from(inner.height);
    match state.tab {
        DetailTab::Overview => {
            let lines = overview::lines(session, state, max, theme);
            frame.render_widget(Paragraph::new(fit_lines(lines, height, theme)), inner);
        }
        DetailTab::Orchestration => {
            let lines = orchestration::lines(session, max, theme);
            frame.render_widget(Paragraph::new(fit_lines(lines, height, theme)), inner);
        }
        DetailTab::Preview => preview::render(frame, inner, session, state, keymap, theme),
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

/// Lines for a pane `height` rows tall. When the text is taller, blank lines
/// go first; if it is still taller, the last row says how much is left out.
fn fit_lines(mut lines: Vec<Line<'static>>, height: usize, theme: &Theme) -> Vec<Line<'static>> {
    if lines.len() <= height {
        return lines;
    }
    lines.retain(|l| l.width() > 0);
    if lines.len() <= height || height == 0 {
        return lines;
    }
    let keep = height - 1;
    let more = lines.len() - keep;
    lines.truncate(keep);
    let noun = if more == 1 { "line" } else { "lines" };
    lines.push(Line::from(Span::styled(
        format!("… {more} more {noun} in a taller pane"),
        theme.dim,
    )));
    lines
}
