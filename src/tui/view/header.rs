//! The header: the app name, counts per health in their colours, and on the
//! right the sort mode, the active filter, problems and tmux trouble.
//! Each part has a long and a short form; the longest that fits is drawn.

use ratatui::prelude::*;

use super::Theme;
use super::text::fit;
use super::theme::health_glyph;
use crate::model::Health;
use crate::tui::state::{AppState, SortMode, TmuxEvents, TmuxStatus};

/// A right-side part in its long and short forms, and how much it matters
/// (higher stays longer when space runs out).
#[derive(Clone)]
struct Part {
    long: Vec<Span<'static>>,
    short: Vec<Span<'static>>,
    keep: u8,
}

pub fn render(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    if area.height == 0 {
        return;
    }
    let max = usize::from(area.width);
    let counts = state.counts();
    // Every class as itself, in the `f` filter's order, so the two agree.
    let groups: Vec<(Health, usize)> = Health::ALL
        .iter()
        .map(|h| (*h, counts.get(h).copied().unwrap_or(0)))
        .filter(|(_, n)| *n > 0)
        .collect();
    let mut parts = right_parts(state, theme);

    let without_sort: Vec<Part> = parts.iter().filter(|p| p.keep > 1).cloned().collect();
    let line = [
        (false, false, &parts),
        (true, false, &parts),
        (true, false, &without_sort),
        (true, true, &parts),
    ]
    .into_iter()
    .map(|(short_counts, short_right, parts)| {
        compose(&groups, parts, short_counts, short_right, max, theme)
    })
    .find(|l| l.width() <= max);
    let line = match line {
        Some(l) => l,
        None => {
            // Drop right-side parts, least important first, until it fits.
            loop {
                let l = compose(&groups, &parts, true, true, max, theme);
                let least = parts.iter().enumerate().min_by_key(|(_, p)| p.keep);
                match least {
                    Some((i, _)) if l.width() > max => {
                        parts.remove(i);
                    }
                    _ => break l,
                }
            }
        }
    };
    frame.render_widget(line, area);
}

fn compose(
    groups: &[(Health, usize)],
    parts: &[Part],
    short_counts: bool,
    short_right: bool,
    max: usize,
    theme: &Theme,
) -> Line<'static> {
    let mut left = vec![Span::styled("greenroom", theme.title)];
    for (h, n) in groups {
        let style = theme.health(*h);
        if short_counts {
            left.push(Span::raw(" "));
            left.push(Span::styled(format!("{}{n}", health_glyph(*h)), style));
        } else {
            left.push(Span::raw("  "));
            left.push(Span::styled(format!("{} {n} {h}", health_glyph(*h)), style));
        }
    }
    let mut right: Vec<Span<'static>> = Vec::new();
    for p in parts {
        let spans = if short_right { &p.short } else { &p.long };
        if spans.is_empty() {
            continue;
        }
        if !right.is_empty() {
            right.push(Span::raw("  "));
        }
        right.extend(spans.iter().cloned());
    }
    let used = Line::from(left.clone()).width() + Line::from(right.clone()).width();
    let gap = if right.is_empty() {
        0
    } else {
        max.saturating_sub(used).max(2)
    };
    left.push(Span::raw(" ".repeat(gap)));
    left.extend(right);
    Line::from(left)
}

fn right_parts(state: &AppState, theme: &Theme) -> Vec<Part> {
    let mut parts = Vec::new();
    if !state.filter.is_empty() || state.health_filter.is_some() {
        let mut long = vec![Span::styled("filter ", theme.dim)];
        let mut short = Vec::new();
        if !state.filter.is_empty() {
            let f = format!("/{}", fit(&state.filter, 24));
            long.push(Span::styled(f.clone(), theme.accent));
            short.push(Span::styled(fit(&f, 12), theme.accent));
        }
        if let Some(h) = state.health_filter {
            if !state.filter.is_empty() {
                long.push(Span::raw(" "));
                short.push(Span::raw(" "));
            }
            let glyph = health_glyph(h);
            long.push(Span::styled(format!("{glyph} {h} only"), theme.health(h)));
            short.push(Span::styled(format!("{glyph} only"), theme.health(h)));
        }
        parts.push(Part {
            long,
            short,
            keep: 3,
        });
    }
    if state.listed() > 0 {
        // Short form: only the non-default mode is worth a mention.
        let short = match state.sort {
            SortMode::LastFocus => Vec::new(),
            SortMode::Triage => vec![Span::styled("triage", theme.accent)],
        };
        parts.push(Part {
            long: vec![
                Span::styled("sort ", theme.dim),
                Span::styled(state.sort.label(), theme.accent),
            ],
            short,
            keep: 1,
        });
    }
    // What every session's agent has spent, from the transcripts.
    let costs: Vec<f64> = state
        .rows
        .iter()
        .filter_map(|r| r.usage.as_ref().and_then(|u| u.cost_usd))
        .collect();
    // A session whose model has no price adds an unknown amount: the total
    // says so rather than look complete.
    let unknown = state.rows.iter().any(|r| {
        r.usage
            .as_ref()
            .is_some_and(|u| u.cost_usd.is_none() && !u.unpriced_models.is_empty())
    });
    if !costs.is_empty() || unknown {
        let total: f64 = costs.iter().sum();
        let (long, short) = match (costs.is_empty(), unknown) {
            (true, _) => ("$?".to_owned(), "$?".to_owned()),
            (false, true) => (format!("${total:.2} + ?"), format!("${total:.0}+?")),
            (false, false) => (format!("${total:.2}"), format!("${total:.0}")),
        };
        parts.push(Part {
            long: vec![
                Span::styled("spent ", theme.dim),
                Span::styled(long, theme.accent),
            ],
            short: vec![Span::styled(short, theme.accent)],
            keep: 2,
        });
    }
    if !state.problems.is_empty() {
        let n = state.problems.len();
        let noun = if n == 1 { "problem" } else { "problems" };
        parts.push(Part {
            long: vec![Span::styled(format!("! {n} {noun}"), theme.warning)],
            short: vec![Span::styled(format!("!{n}"), theme.warning)],
            keep: 4,
        });
    }
    let tmux = match state.tmux {
        TmuxStatus::NotInstalled => Some(("tmux not installed: read-only", "no tmux")),
        TmuxStatus::NoServer => Some(("no tmux server", "no server")),
        TmuxStatus::Unknown | TmuxStatus::Running => None,
    };
    if let Some((long, short)) = tmux {
        parts.push(Part {
            long: vec![Span::styled(long, theme.warning)],
            short: vec![Span::styled(short, theme.warning)],
            keep: 2,
        });
    }
    parts.extend(polling_part(state, theme));
    parts.extend(
        crate::tui::hosts::header_part(state).map(|(long, short)| Part {
            long: vec![Span::styled(long, theme.warning)],
            short: vec![Span::styled(short, theme.warning)],
            keep: 3,
        }),
    );
    parts
}

/// Polling where tmux could push its changes: the header says so.
fn polling_part(state: &AppState, theme: &Theme) -> Option<Part> {
    if state.tmux != TmuxStatus::Running {
        return None;
    }
    let long = match &state.events {
        TmuxEvents::Lost { .. } => "tmux events lost: polling".to_owned(),
        TmuxEvents::Off(version) => format!("{version}: polling"),
        _ => return None,
    };
    Some(Part {
        long: vec![Span::styled(long, theme.dim)],
        short: vec![Span::styled("polling", theme.dim)],
        keep: 1,
    })
}
