//! The header: the app name, how many sessions need the operator and how
//! long the oldest has waited, counts per health in their colours, and on the
//! right the sort mode, the active filter, problems and tmux trouble.
//! Each part has a long and a short form; the longest that fits is drawn.

use std::collections::HashMap;

use ratatui::prelude::*;

use super::Theme;
use super::text::fit;
use crate::attention;
use crate::display::age;
use crate::model::Health;
use crate::tui::model::state::{AppState, SortMode, TmuxEvents, TmuxStatus};

/// A right-side part in its long and short forms, and how much it matters
/// (higher stays longer when space runs out; 0 only when all fits long).
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
    let left = Left {
        groups: groups(state),
        queue: queue_part(state, theme),
    };
    frame.render_widget(fit_line(&left, right_parts(state, theme), max, theme), area);
}

/// The left side: the queue's summary and the counts per class.
struct Left {
    groups: Vec<(Health, usize)>,
    queue: Option<Part>,
}

/// Every class as itself, in the `f` filter's order, so the two agree.
/// Snoozed sessions are left out of the counts, like archived ones.
fn groups(state: &AppState) -> Vec<(Health, usize)> {
    let mut counts: HashMap<Health, usize> = HashMap::new();
    for r in state.list.rows.iter().filter(|r| attention::counted(r)) {
        *counts.entry(r.health).or_insert(0) += 1;
    }
    Health::ALL
        .iter()
        .map(|h| (*h, counts.get(h).copied().unwrap_or(0)))
        .filter(|(_, n)| *n > 0)
        .collect()
}

/// `3 need you · oldest 12m`: the attention queue at a glance.
fn queue_part(state: &AppState, theme: &Theme) -> Option<Part> {
    let (n, oldest) = attention::summary(&state.list.rows);
    if n == 0 {
        return None;
    }
    let waited = age(state.now, oldest);
    Some(Part {
        long: vec![
            Span::styled(format!("{n} need you"), theme.accent),
            Span::styled(format!(" · oldest {waited}"), theme.dim),
        ],
        short: vec![Span::styled(format!("{n} need you"), theme.accent)],
        keep: 5,
    })
}

/// How the queue's summary is drawn in one attempt.
#[derive(Clone, Copy)]
enum QueueForm {
    Long,
    Short,
    Hidden,
}

/// The longest form of the line that fits: long counts and parts first,
/// then shorter forms, then without the queue's summary (the counts say
/// it too), then right-side parts dropped, least important first.
fn fit_line(left: &Left, mut parts: Vec<Part>, max: usize, theme: &Theme) -> Line<'static> {
    use QueueForm::{Hidden, Long, Short};
    // A part kept 0 is shown only when the whole line fits at its longest.
    if parts.iter().any(|p| p.keep == 0) {
        let longest = Form {
            queue: Long,
            short_counts: false,
            short_right: false,
        };
        let line = compose(left, &parts, longest, max, theme);
        if line.width() <= max {
            return line;
        }
        parts.retain(|p| p.keep > 0);
    }
    let without_sort: Vec<Part> = parts.iter().filter(|p| p.keep > 1).cloned().collect();
    let line = [
        (Long, false, false, &parts),
        (Long, true, false, &parts),
        (Long, true, false, &without_sort),
        (Short, true, true, &parts),
        (Hidden, true, true, &parts),
    ]
    .into_iter()
    .map(|(queue, short_counts, short_right, parts)| {
        let form = Form {
            queue,
            short_counts,
            short_right,
        };
        compose(left, parts, form, max, theme)
    })
    .find(|l| l.width() <= max);
    if let Some(l) = line {
        return l;
    }
    let smallest = Form {
        queue: Hidden,
        short_counts: true,
        short_right: true,
    };
    loop {
        let l = compose(left, &parts, smallest, max, theme);
        let least = parts.iter().enumerate().min_by_key(|(_, p)| p.keep);
        match least {
            Some((i, _)) if l.width() > max => {
                parts.remove(i);
            }
            _ => break l,
        }
    }
}

/// Which forms one attempt at the line uses.
#[derive(Clone, Copy)]
struct Form {
    queue: QueueForm,
    short_counts: bool,
    short_right: bool,
}

fn compose(l: &Left, parts: &[Part], form: Form, max: usize, theme: &Theme) -> Line<'static> {
    let Form {
        queue,
        short_counts,
        short_right,
    } = form;
    let mut left = vec![Span::styled("greenroom", theme.title)];
    let queue = match (&l.queue, queue) {
        (Some(q), QueueForm::Long) => Some(&q.long),
        (Some(q), QueueForm::Short) => Some(&q.short),
        _ => None,
    };
    if let Some(spans) = queue {
        left.push(Span::raw("  "));
        left.extend(spans.iter().cloned());
    }
    for (h, n) in &l.groups {
        let style = theme.health(*h);
        if short_counts {
            left.push(Span::raw(" "));
            left.push(Span::styled(format!("{}{n}", h.glyph()), style));
        } else {
            left.push(Span::raw("  "));
            left.push(Span::styled(format!("{} {n} {h}", h.glyph()), style));
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
    if !state.nav.filter.is_empty() || state.nav.health_filter.is_some() {
        let mut long = vec![Span::styled("filter ", theme.dim)];
        let mut short = Vec::new();
        if !state.nav.filter.is_empty() {
            let f = format!("/{}", fit(&state.nav.filter, 24));
            long.push(Span::styled(f.clone(), theme.accent));
            short.push(Span::styled(fit(&f, 12), theme.accent));
        }
        if let Some(h) = state.nav.health_filter {
            if !state.nav.filter.is_empty() {
                long.push(Span::raw(" "));
                short.push(Span::raw(" "));
            }
            let glyph = h.glyph();
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
        let short = match state.nav.sort {
            SortMode::LastFocus => Vec::new(),
            SortMode::Triage => vec![Span::styled("triage", theme.accent)],
            SortMode::Spend => vec![Span::styled("by spend", theme.accent)],
        };
        parts.push(Part {
            long: vec![
                Span::styled("sort ", theme.dim),
                Span::styled(state.nav.sort.label(), theme.accent),
            ],
            short,
            keep: 1,
        });
    }
    parts.extend(spent_part(state, theme));
    parts.extend(
        super::budget::today_part(state, theme).map(|(long, short, keep)| Part {
            long,
            short,
            keep,
        }),
    );
    if !state.list.problems.is_empty() {
        let n = state.list.problems.len();
        let noun = if n == 1 { "problem" } else { "problems" };
        parts.push(Part {
            long: vec![Span::styled(format!("! {n} {noun}"), theme.warning)],
            short: vec![Span::styled(format!("!{n}"), theme.warning)],
            keep: 4,
        });
    }
    let tmux = match state.link.tmux {
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
        crate::tui::model::hosts::header_part(&state.hosts).map(|(long, short)| Part {
            long: vec![Span::styled(long, theme.warning)],
            short: vec![Span::styled(short, theme.warning)],
            keep: 3,
        }),
    );
    parts
}

/// What every session's agent has spent, from the transcripts: the rows
/// listed, and those that left the list or are hidden with the archive
/// (their money was spent all the same: the total only grows, and says
/// how much of it is not on the list).
fn spent_part(state: &AppState, theme: &Theme) -> Option<Part> {
    let hidden = |r: &&crate::model::Session| r.archived && !state.nav.show_archived;
    let cost = |r: &crate::model::Session| r.usage.as_ref().and_then(|u| u.cost_usd);
    let not_listed: f64 = state
        .list
        .rows
        .iter()
        .filter(hidden)
        .filter_map(cost)
        .sum::<f64>()
        + state.list.spent_gone.values().sum::<f64>();
    let costs: Vec<f64> = state
        .list
        .rows
        .iter()
        .filter_map(cost)
        .chain(state.list.spent_gone.values().copied())
        .collect();
    // A session whose model has no price adds an unknown amount: the total
    // says so rather than look complete.
    let unknown = state.list.rows.iter().any(|r| {
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
        let mut long = vec![
            Span::styled("spent ", theme.dim),
            Span::styled(long, theme.accent),
        ];
        if not_listed > 0.0 {
            long.push(Span::styled(
                format!(" (${not_listed:.2} not listed)"),
                theme.dim,
            ));
        }
        return Some(Part {
            long,
            short: vec![Span::styled(short, theme.accent)],
            keep: 2,
        });
    }
    None
}

/// Polling where tmux could push its changes: the header says so.
fn polling_part(state: &AppState, theme: &Theme) -> Option<Part> {
    if state.link.tmux != TmuxStatus::Running {
        return None;
    }
    let long = match &state.link.events {
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
