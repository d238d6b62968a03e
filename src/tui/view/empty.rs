//! The empty state: no sessions anywhere. Says where greenroom looked and
//! how to start one, so a first run is never a blank screen.

use ratatui::prelude::*;
use ratatui::widgets::Paragraph;

use super::sidebar::first_key;
use super::text::{hanging, pad, path_spans};
use super::{Theme, pane};
use crate::tui::action::Command;
use crate::tui::keymap::Keymap;
use crate::tui::model::state::AppState;

/// Folders listed before "and N more".
const LOOKED_SHOWN: usize = 8;

pub fn render(frame: &mut Frame, area: Rect, state: &AppState, keymap: &Keymap, theme: &Theme) {
    let block = pane(theme).title(Span::styled(" Sessions ", theme.title));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.width < 3 {
        return;
    }
    let inner = Rect {
        x: inner.x + 1,
        width: inner.width - 2,
        ..inner
    };
    let max = usize::from(inner.width);
    let mut lines: Vec<Line<'static>> = vec![
        Line::from(Span::styled("No sessions yet.", theme.title)),
        Line::default(),
    ];

    how_to_start(&mut lines, keymap, max, theme);
    where_looked(&mut lines, state, max, theme);
    problems_note(&mut lines, state, keymap, max, theme);
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The ways to start a session, keys aligned.
fn how_to_start(lines: &mut Vec<Line<'static>>, keymap: &Keymap, max: usize, theme: &Theme) {
    let how: [(String, &str); 3] = [
        (first_key(keymap, Command::New), "start one here"),
        ("greenroom spawn".into(), "start one from a shell"),
        (
            "--state-dir DIR".into(),
            "read Maestro state from a workspace",
        ),
    ];
    let key_w = how
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0)
        + 2;
    lines.push(Line::from(Span::styled("Start a session:", theme.dim)));
    for (key, what) in how {
        lines.extend(hanging(
            vec![
                Span::raw("  "),
                Span::styled(pad(&key, key_w), theme.key),
                Span::raw(what),
            ],
            key_w + 2,
            max,
        ));
    }
    lines.push(Line::default());
}

/// The folders greenroom read, so an empty list is explained.
fn where_looked(lines: &mut Vec<Line<'static>>, state: &AppState, max: usize, theme: &Theme) {
    if state.list.looked_in.is_empty() {
        lines.push(Line::from(Span::styled(
            "greenroom was given no folder to look in.",
            theme.dim,
        )));
    } else {
        lines.push(Line::from(Span::styled("greenroom looked in:", theme.dim)));
        for p in state.list.looked_in.iter().take(LOOKED_SHOWN) {
            let mut spans = vec![Span::raw("  ")];
            spans.extend(path_spans(&p.display().to_string(), Style::new()));
            lines.extend(hanging(spans, 4, max));
        }
        let more = state.list.looked_in.len().saturating_sub(LOOKED_SHOWN);
        if more > 0 {
            lines.push(Line::from(Span::styled(
                format!("  … and {more} more"),
                theme.dim,
            )));
        }
    }
}

/// Files that could not be read, and the key that lists them.
fn problems_note(
    lines: &mut Vec<Line<'static>>,
    state: &AppState,
    keymap: &Keymap,
    max: usize,
    theme: &Theme,
) {
    if !state.list.problems.is_empty() {
        let n = state.list.problems.len();
        let key = first_key(keymap, Command::ShowProblems);
        lines.push(Line::default());
        lines.extend(hanging(
            vec![Span::styled(
                format!(
                    "! {n} {} could not be read: {key} lists {}",
                    if n == 1 { "file" } else { "files" },
                    if n == 1 { "it" } else { "them" },
                ),
                theme.warning,
            )],
            2,
            max,
        ));
    }
}
