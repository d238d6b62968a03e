//! The phases at a glance, for the Overview tab: one line per phase with
//! its glyph, id, name and status, the current phase marked `▶`, so the first
//! view shows where an orchestration stands without a second tab.

use ratatui::prelude::*;

use super::Theme;
use super::tab_rows::{Keep, LABEL_W, Rows};
use super::text::{fit, pad, width};
use super::theme::phase_glyph;
use crate::model::{Orchestration, Phase, PhaseStatus};

/// Pushes the phase lines under a `phases` label; the current phase
/// matters most when the pane is short.
pub(super) fn summary(out: &mut Rows, o: &Orchestration, max: usize, theme: &Theme) {
    if o.phases.is_empty() {
        return;
    }
    let current = current(o);
    let id_w = o
        .phases
        .iter()
        .map(|p| width(&p.id.to_string()))
        .max()
        .unwrap_or(1)
        .min(8);
    // label, glyph and space, id and two spaces; the status after the name.
    let fixed = LABEL_W + 2 + id_w + 2;
    let status_w = o
        .phases
        .iter()
        .map(|p| width(&status_word(&p.status)))
        .max()
        .unwrap_or(0);
    let longest = o
        .phases
        .iter()
        .map(|p| width(p.name.as_deref().unwrap_or("")))
        .max()
        .unwrap_or(0);
    let name_w = longest.min(max.saturating_sub(fixed + 2 + status_w).max(8));
    for (i, p) in o.phases.iter().enumerate() {
        let is_current = Some(i) == current;
        let label = if i == 0 { "phases" } else { "" };
        // The current phase is marked in the label column's spare cells.
        let marker = if is_current { "▶ " } else { "  " };
        let name = p.name.as_deref().unwrap_or("(no name)");
        let name_style = if is_current {
            Style::new().add_modifier(Modifier::BOLD)
        } else {
            Style::new()
        };
        let spans = vec![
            Span::styled(pad(label, LABEL_W - 2), theme.dim),
            Span::styled(marker, theme.accent),
            Span::styled(
                format!("{} ", phase_glyph(&p.status)),
                theme.phase(&p.status),
            ),
            Span::raw(format!("{}  ", pad(&p.id.to_string(), id_w))),
            Span::styled(pad(name, name_w), name_style),
            Span::raw("  "),
            Span::styled(status_word(&p.status), theme.phase(&p.status)),
        ];
        let line = Line::from(spans);
        let line = if line.width() > max {
            Line::from(fit(&line.to_string(), max))
        } else {
            line
        };
        let keep = if is_current { Keep::Must } else { Keep::Useful };
        out.push(keep, [line]);
    }
}

/// The phase the file calls current, else the first one in progress.
fn current(o: &Orchestration) -> Option<usize> {
    let named = o
        .current_phase
        .as_ref()
        .and_then(|c| o.phases.iter().position(|p: &Phase| &p.id == c));
    named.or_else(|| {
        o.phases
            .iter()
            .position(|p| p.status == PhaseStatus::InProgress)
    })
}

/// `in progress`, `completed`; an unknown spelling as written.
fn status_word(s: &PhaseStatus) -> String {
    s.as_str().replace('_', " ")
}
