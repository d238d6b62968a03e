//! The problems overlay: every file greenroom could not use, with why.
//! Nothing is silent: what does not fit is counted, and `greenroom ls
//! --json` lists it all.

use ratatui::prelude::*;
use ratatui::widgets::{Clear, Paragraph};

use super::sidebar::first_key;
use super::text::{hanging, path_spans, width};
use super::{Theme, overlay_area, pane};
use crate::tui::action::Command;
use crate::tui::keymap::Keymap;
use crate::tui::model::state::AppState;

/// The overlay is never wider than this: long paths wrap instead.
const MAX_WIDTH: usize = 100;
const NONE: &str = "No problems: every file greenroom found was read.";

pub fn render(
    frame: &mut Frame,
    body: Rect,
    full: Rect,
    state: &AppState,
    keymap: &Keymap,
    theme: &Theme,
) {
    let max = text_width(state, full);
    let lines = problem_lines(
        state,
        max,
        usize::from(full.height).saturating_sub(2),
        theme,
    );
    let w = u16::try_from(max + 4).unwrap_or(u16::MAX);
    let h = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
    let area = overlay_area(w, h, body, full);
    let close = first_key(keymap, Command::ShowProblems);
    let block = pane(theme)
        .title(Span::styled(
            format!(" Problems ({}) ", state.list.problems.len()),
            theme.title,
        ))
        .title_bottom(
            Line::from(Span::styled(format!(" {close} closes "), theme.dim)).right_aligned(),
        );
    let inner = block.inner(area);
    frame.render_widget(Clear, area);
    frame.render_widget(block, area);
    let inner = Rect {
        x: inner.x + 1,
        width: inner.width.saturating_sub(2),
        ..inner
    };
    frame.render_widget(Paragraph::new(lines), inner);
}

/// How wide the overlay's text is: its longest line, within the screen.
fn text_width(state: &AppState, full: Rect) -> usize {
    let natural = state
        .list
        .problems
        .iter()
        .map(|p| width(&p.path.display().to_string()).max(width(&p.error) + 2))
        .max()
        .unwrap_or(0)
        .max(36)
        .max(if state.list.problems.is_empty() {
            width(NONE)
        } else {
            0
        });
    natural
        .min(MAX_WIDTH)
        .min(usize::from(full.width).saturating_sub(4))
        .max(1)
}

/// Each problem's path and error, wrapped to `max`, as many as fit in
/// `room` lines, then how many more there are.
fn problem_lines(state: &AppState, max: usize, room: usize, theme: &Theme) -> Vec<Line<'static>> {
    let mut blocks: Vec<Vec<Line<'static>>> = Vec::new();
    for p in &state.list.problems {
        let mut lines = hanging(
            path_spans(&p.path.display().to_string(), Style::new()),
            0,
            max,
        );
        lines.extend(hanging(
            vec![
                Span::raw("  "),
                Span::styled(p.error.clone(), theme.warning),
            ],
            2,
            max,
        ));
        blocks.push(lines);
    }
    let mut lines: Vec<Line<'static>> = Vec::new();
    if blocks.is_empty() {
        // Wrapped rather than cut when the screen is narrower than the text.
        lines.extend(hanging(vec![Span::styled(NONE, theme.dim)], 0, max));
    }
    let total = blocks.len();
    for (i, b) in blocks.into_iter().enumerate() {
        let left = total - i;
        // Keep a line for "and N more" unless this is the last block.
        let reserve = usize::from(left > 1);
        if lines.len() + b.len() + reserve > room {
            lines.push(Line::from(Span::styled(
                format!("… and {left} more: greenroom ls --json lists them all"),
                theme.dim,
            )));
            break;
        }
        lines.extend(b);
    }
    lines
}
