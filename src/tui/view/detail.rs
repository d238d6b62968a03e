//! The detail pane: the selected session, in three tabs (Overview,
//! Orchestration, Preview) chosen by `state.tab`.

use ratatui::prelude::*;
use ratatui::widgets::Paragraph;

use super::{Theme, changes, orchestration, overview, pane, preview};
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
    match state.tab {
        DetailTab::Overview => {
            let rows = overview::rows(session, state, max, theme);
            frame.render_widget(Paragraph::new(rows.fit(height, theme)), inner);
        }
        DetailTab::Orchestration => {
            let rows = orchestration::rows(session, max, theme);
            frame.render_widget(Paragraph::new(rows.fit(height, theme)), inner);
        }
        DetailTab::Preview => preview::render(frame, inner, session, state, keymap, theme),
        DetailTab::Changes => changes::render(frame, inner, session, &state.review, theme),
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

/// How much a group of lines matters when the pane is too short for all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Keep {
    Must,
    Useful,
    Extra,
    Minor,
    Blank,
}

/// A detail tab's text: groups of lines (one logical row each, maybe
/// wrapped), each with how much it matters.
#[derive(Default)]
pub(super) struct Rows {
    groups: Vec<(Keep, Vec<Line<'static>>)>,
}

impl Rows {
    pub fn push(&mut self, keep: Keep, lines: impl IntoIterator<Item = Line<'static>>) {
        self.groups.push((keep, lines.into_iter().collect()));
    }

    pub fn blank(&mut self) {
        self.groups.push((Keep::Blank, vec![Line::default()]));
    }

    fn len(&self) -> usize {
        self.groups.iter().map(|(_, l)| l.len()).sum()
    }

    /// The lines for a pane `height` rows tall. When the text is taller,
    /// blank lines go, then rows are taken most important first (in their
    /// order) while they fit; the last row says how much was left out.
    pub fn fit(mut self, height: usize, theme: &Theme) -> Vec<Line<'static>> {
        let total = self.len();
        if total <= height {
            return self.groups.into_iter().flat_map(|(_, l)| l).collect();
        }
        let blanks = self
            .groups
            .iter()
            .filter(|(k, _)| *k == Keep::Blank)
            .count();
        if total - blanks <= height {
            // Keep the first blank lines that still fit.
            let mut spare = height - (total - blanks);
            self.groups.retain(|(k, _)| {
                if *k != Keep::Blank {
                    return true;
                }
                let keep = spare > 0;
                spare = spare.saturating_sub(1);
                keep
            });
            return self.groups.into_iter().flat_map(|(_, l)| l).collect();
        }
        self.groups.retain(|(k, _)| *k != Keep::Blank);
        let total = self.len();
        let room = height.saturating_sub(1);
        let mut order: Vec<usize> = (0..self.groups.len()).collect();
        order.sort_by_key(|&i| (self.groups[i].0, i));
        let mut taken = vec![false; self.groups.len()];
        let mut used = 0;
        for i in order {
            let n = self.groups[i].1.len();
            if used + n <= room {
                taken[i] = true;
                used += n;
            }
        }
        let mut lines: Vec<Line<'static>> = self
            .groups
            .into_iter()
            .zip(taken)
            .filter(|(_, t)| *t)
            .flat_map(|((_, l), _)| l)
            .collect();
        if height > 0 {
            let more = total - lines.len();
            let noun = if more == 1 { "line" } else { "lines" };
            lines.push(Line::from(Span::styled(
                format!("… {more} more {noun} in a taller pane"),
                theme.dim,
            )));
        }
        lines
    }
}
