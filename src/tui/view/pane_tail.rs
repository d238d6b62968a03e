//! Under the Overview's rows, when the detail pane has room: the selected
//! session's pane, its last lines as the Preview tab's last capture saw
//! them, so what a waiting agent asks and its choices are on screen before
//! the operator answers. Nothing when there is no capture of this session
//! (the reducer asks for one only when the pane shows).

use ratatui::prelude::*;
use ratatui::widgets::Paragraph;

use super::Theme;
use super::preview::pane_lines;
use crate::model::{Session, Status};
use crate::tui::model::state::AppState;

/// The fewest of the pane's lines worth a heading: fewer, none are shown.
const FEWEST_LINES: u16 = 3;

/// Draws a blank line, a heading and the pane's last lines into `area`
/// (what the Overview's rows left), when they fit.
pub fn render(frame: &mut Frame, area: Rect, s: &Session, state: &AppState, theme: &Theme) {
    if area.height < FEWEST_LINES + 2 {
        return;
    }
    let Some(capture) = state
        .detail
        .preview
        .as_ref()
        .filter(|p| s.is(&p.id))
        .map(|p| p.text.as_str())
    else {
        return;
    };
    let lines = pane_lines(capture);
    if lines.is_empty() {
        return;
    }
    let label = match s.status {
        // The dead pane tmux keeps: how it ended.
        Status::Exited => "its pane's last lines (exited)",
        _ => "its pane",
    };
    let rule = usize::from(area.width).saturating_sub(label.chars().count() + 4);
    let heading = Line::from(vec![
        Span::styled("── ", theme.border),
        Span::styled(label, theme.dim),
        Span::styled(format!(" {}", "─".repeat(rule)), theme.border),
    ]);
    let room = usize::from(area.height - 2);
    let skip = lines.len().saturating_sub(room);
    let mut shown = vec![Line::default(), heading];
    shown.extend(lines.into_iter().skip(skip));
    frame.render_widget(Paragraph::new(shown), area);
}
