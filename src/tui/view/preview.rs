//! The Preview tab: the session's pane as `capture-pane -e` saw it, with
//! its colours, bottom lines first (where the prompt is). When there is
//! nothing to show, a line says why.

use ansi_to_tui::IntoText;
use ratatui::prelude::*;
use ratatui::widgets::Paragraph;

use super::Theme;
use super::sidebar::first_key;
use super::text::hanging;
use crate::model::{Session, Source, Status};
use crate::tui::action::Command;
use crate::tui::keymap::Keymap;
use crate::tui::model::state::{AppState, TmuxStatus};

pub fn render(
    frame: &mut Frame,
    area: Rect,
    s: &Session,
    state: &AppState,
    keymap: &Keymap,
    theme: &Theme,
) {
    let max = usize::from(area.width);
    let capture = state
        .detail
        .preview
        .as_ref()
        .filter(|p| s.is(&p.id))
        .map(|p| p.text.as_str());
    // An exited session's dead pane (tmux keeps it) is the news: how it
    // ended is in its last lines.
    let dead_pane = s.status == Status::Exited && capture.is_some();
    if let Some(why) = unavailable(s, state, keymap).filter(|_| !dead_pane) {
        let lines = hanging(vec![Span::styled(why, theme.dim)], 0, max);
        frame.render_widget(Paragraph::new(lines), area);
        return;
    }
    let mut area = area;
    if dead_pane && area.height > 1 {
        let restore = first_key(keymap, Command::Restore);
        let note = match s.can_restore() {
            true => format!("exited: its pane's last lines · {restore} restores it"),
            false => "exited: its pane's last lines".to_owned(),
        };
        let line = Line::from(Span::styled(note, theme.dim));
        frame.render_widget(Paragraph::new(line), Rect { height: 1, ..area });
        area.y += 1;
        area.height -= 1;
    }
    let Some(capture) = capture else {
        let line = Line::from(Span::styled("waiting for the pane…", theme.dim));
        frame.render_widget(Paragraph::new(line), area);
        return;
    };
    let lines = pane_lines(capture);
    if lines.is_empty() {
        let line = Line::from(Span::styled("the pane is empty", theme.dim));
        frame.render_widget(Paragraph::new(line), area);
        return;
    }
    let skip = lines.len().saturating_sub(usize::from(area.height));
    let shown: Vec<Line> = lines.into_iter().skip(skip).collect();
    frame.render_widget(Paragraph::new(shown), area);
}

/// A capture's lines with their colours, without the blank lines under
/// the prompt of a pane that is not full.
pub(super) fn pane_lines(capture: &str) -> Vec<Line<'static>> {
    let mut lines = match capture.as_bytes().into_text() {
        Ok(text) => text.lines,
        // Not valid escape sequences: show the text without its colours.
        Err(_) => capture.lines().map(|l| Line::from(l.to_owned())).collect(),
    };
    while lines.last().is_some_and(is_blank) {
        lines.pop();
    }
    lines
}

fn is_blank(line: &Line) -> bool {
    line.spans.iter().all(|s| s.content.trim().is_empty())
}

/// Why there is no pane to show, if there is none.
fn unavailable(s: &Session, state: &AppState, keymap: &Keymap) -> Option<String> {
    if state.link.tmux == TmuxStatus::NotInstalled {
        return Some("tmux is not installed: there is no pane to preview.".into());
    }
    if s.can_attach() {
        return None;
    }
    let restore = first_key(keymap, Command::Restore);
    Some(match (&s.status, s.source) {
        (status, _) if s.can_restore() => format!(
            "session is {}: restore it with {restore}",
            status.as_str().to_lowercase()
        ),
        (status, _) if status.is_stopped() => {
            format!(
                "session is {}: no pane to preview",
                s.status.as_str().to_lowercase()
            )
        }
        (_, Source::Maestro) => {
            "a Maestro session without a greenroom session: no tmux pane to preview".into()
        }
        _ => "no tmux session is known for this session".into(),
    })
}
