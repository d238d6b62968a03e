//! The Orchestration tab: a Maestro session's task, status, phases (with
//! errors, retries and downstream warnings), the places where its state
//! file contradicts itself, and Maestro's token counts.

use ratatui::prelude::*;

use super::Theme;
use super::tab_rows::{Keep, LABEL_W, Rows};
use super::text::{fit, hanging, kv, pad, path_spans, rpad, thousands, width};
use super::theme::phase_glyph;
use crate::model::{Orchestration, Phase, PhaseStatus, Session, TokenCounts};

/// Unresolved error messages shown per phase; the rest are counted.
const ERRORS_SHOWN: usize = 2;

pub fn rows(s: &Session, max: usize, theme: &Theme) -> Rows {
    let mut out = Rows::default();
    let Some(o) = s.orchestration.as_deref() else {
        out.push(
            Keep::Must,
            [Line::from("No Maestro orchestration for this session.")],
        );
        let why = "A Maestro state file shows here when its workspace is this session's folder.";
        out.push(
            Keep::Useful,
            hanging(vec![Span::styled(why, theme.dim)], 0, max),
        );
        return out;
    };
    let row = |label: &str, value: Vec<Span<'static>>| kv(label, value, theme.dim, LABEL_W, max);

    // The task is the tab's headline.
    let task = o.task.clone().unwrap_or_else(|| "(no task)".into());
    out.push(
        Keep::Must,
        hanging(vec![Span::styled(task, theme.title)], 0, max),
    );
    let mut status = vec![Span::raw(
        o.status.clone().unwrap_or_else(|| "no status".into()),
    )];
    status.push(Span::raw(format!(" · {}", phase_position(o))));
    if let Some(a) = &s.active_agent {
        status.push(Span::raw(" · "));
        status.push(Span::styled(format!("{a} working"), theme.accent));
    }
    if o.archived {
        status.push(Span::styled(" · archived", theme.dim));
    }
    out.push(Keep::Must, row("status", status));
    if let Some(mode) = &o.workflow_mode {
        out.push(Keep::Minor, row("workflow", vec![Span::raw(mode.clone())]));
    }

    if !o.phases.is_empty() {
        out.blank();
        phases(&mut out, &o.phases, max, theme);
    }
    if !o.contradictions.is_empty() {
        out.blank();
    }
    for c in &o.contradictions {
        let text = vec![Span::styled(format!("⚠ the file says: {c}"), theme.warning)];
        out.push(Keep::Useful, hanging(text, 2, max));
    }

    if let Some(t) = &o.token_usage {
        out.blank();
        let total = TokenCounts {
            input: t.input,
            output: t.output,
            cached: t.cached,
        };
        let mut agents: Vec<(&String, &TokenCounts)> = t.by_agent.iter().collect();
        agents.sort_by_key(|(_, c)| std::cmp::Reverse(c.input + c.output));
        tokens(&mut out, total, &agents, max, theme);
    }

    out.blank();
    let path = path_spans(&o.path.display().to_string(), theme.dim);
    out.push(Keep::Minor, row("file", path));
    out
}

/// `phase 3 of 5`, `5 phases`, `no phases`.
pub(super) fn phase_position(o: &Orchestration) -> String {
    let total = o
        .total_phases
        .map_or_else(|| o.phases.len().to_string(), |t| t.to_string());
    match (&o.current_phase, total.as_str()) {
        (Some(c), _) => format!("phase {c} of {total}"),
        (None, "0") => "no phases".into(),
        (None, "1") => "1 phase".into(),
        (None, _) => format!("{total} phases"),
    }
}

fn phases(out: &mut Rows, phases: &[Phase], max: usize, theme: &Theme) {
    let done = phases
        .iter()
        .filter(|p| p.status == PhaseStatus::Completed)
        .count();
    out.push(
        Keep::Useful,
        [Line::from(vec![
            Span::styled("Phases", theme.title),
            Span::styled(format!("  {done} of {} completed", phases.len()), theme.dim),
        ])],
    );
    let id_w = phases
        .iter()
        .map(|p| width(&p.id.to_string()))
        .max()
        .unwrap_or(1)
        .min(8);
    let indent = 2 + id_w + 2;
    let longest = phases
        .iter()
        .map(|p| width(p.name.as_deref().unwrap_or("")))
        .max()
        .unwrap_or(0);
    let name_w = longest.min(max.saturating_sub(indent) * 2 / 5).max(4);
    for p in phases {
        out.push(Keep::Must, phase_line(p, id_w, name_w, indent, max, theme));
        phase_notes(out, p, indent, max, theme);
    }
}

fn tokens(
    out: &mut Rows,
    total: TokenCounts,
    agents: &[(&String, &TokenCounts)],
    max: usize,
    theme: &Theme,
) {
    let num_w = [total.input, total.output, total.cached]
        .iter()
        .map(|n| width(&thousands(*n)))
        .max()
        .unwrap_or(0)
        .max(6);
    let label_w = agents
        .iter()
        .map(|(a, _)| width(a))
        .max()
        .unwrap_or(0)
        .max(LABEL_W - 1)
        .min(max.saturating_sub(3 * (num_w + 2)).max(6));
    let head = |label: String, style: Style| Span::styled(pad(&label, label_w), style);
    let nums = |c: &TokenCounts, style: Style| {
        [c.input, c.output, c.cached]
            .iter()
            .map(|n| Span::styled(format!("  {}", rpad(&thousands(*n), num_w)), style))
            .collect::<Vec<_>>()
    };
    let title = Line::from(vec![
        Span::styled("Tokens", theme.title),
        Span::styled("  Maestro's own count", theme.dim),
    ]);
    let mut header = vec![Span::raw(" ".repeat(label_w))];
    for h in ["input", "output", "cached"] {
        header.push(Span::styled(format!("  {}", rpad(h, num_w)), theme.dim));
    }
    let mut total_line = vec![head("total".into(), theme.title)];
    total_line.extend(nums(&total, theme.title));
    out.push(
        Keep::Extra,
        [title, Line::from(header), Line::from(total_line)],
    );
    let by_agent = agents.iter().map(|(agent, c)| {
        let mut line = vec![head(fit(agent, label_w), Style::new())];
        line.extend(nums(c, Style::new()));
        Line::from(line)
    });
    out.push(Keep::Minor, by_agent);
}

/// Text that wraps as one word (no-break spaces): `2 errors, 1 open`.
fn unbreakable(text: &str) -> String {
    text.replace(' ', "\u{a0}")
}

/// A phase's own row: glyph, id, name, agents, errors and retries.
fn phase_line(
    p: &Phase,
    id_w: usize,
    name_w: usize,
    indent: usize,
    max: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let style = theme.phase(&p.status);
    let name = p.name.clone().unwrap_or_else(|| "(no name)".into());
    let mut spans = vec![
        Span::styled(format!("{} ", phase_glyph(&p.status)), style),
        Span::raw(format!("{}  ", pad(&p.id.to_string(), id_w))),
        Span::raw(pad(&name, name_w)),
    ];
    if let PhaseStatus::Unknown(raw) = &p.status {
        spans.push(Span::styled(format!("  status {raw:?}"), theme.warning));
    }
    if !p.agents.is_empty() {
        spans.push(Span::styled(
            format!("  {}", p.agents.join(", ")),
            theme.dim,
        ));
    }
    let open = p.unresolved_errors();
    if !p.errors.is_empty() {
        let n = p.errors.len();
        let noun = if n == 1 { "error" } else { "errors" };
        let (text, style) = match open {
            0 => (format!("{n} {noun}, resolved"), theme.dim),
            o if o == n => (format!("{n} {noun}"), theme.errored),
            o => (format!("{n} {noun}, {o} open"), theme.errored),
        };
        spans.push(Span::raw("  "));
        spans.push(Span::styled(unbreakable(&text), style));
    }
    if p.retry_count > 0 {
        let noun = if p.retry_count == 1 {
            "retry"
        } else {
            "retries"
        };
        spans.push(Span::raw("  "));
        spans.push(Span::styled(
            unbreakable(&format!("↻ {} {noun}", p.retry_count)),
            theme.dim,
        ));
    }
    hanging(spans, indent, max)
}

/// Below a phase: its open errors (a few), and the warnings it passed on.
fn phase_notes(out: &mut Rows, p: &Phase, indent: usize, max: usize, theme: &Theme) {
    let unresolved = p.errors.iter().filter(|e| !e.resolved);
    for e in unresolved.clone().take(ERRORS_SHOWN) {
        let what = match (&e.kind, &e.message) {
            (Some(k), Some(m)) => format!("{k}: {m}"),
            (Some(t), None) | (None, Some(t)) => t.clone(),
            (None, None) => "error without a message".into(),
        };
        let who = e
            .agent
            .as_deref()
            .map(|a| format!(" ({a})"))
            .unwrap_or_default();
        let spans = vec![
            Span::raw(" ".repeat(indent)),
            Span::styled(format!("✖ {what}{who}"), theme.errored),
        ];
        out.push(Keep::Useful, hanging(spans, indent + 2, max));
    }
    let more = unresolved.count().saturating_sub(ERRORS_SHOWN);
    if more > 0 {
        out.push(
            Keep::Useful,
            [Line::from(Span::styled(
                format!("{}… {more} more open", " ".repeat(indent + 2)),
                theme.errored,
            ))],
        );
    }
    for w in &p.warnings {
        let spans = vec![
            Span::raw(" ".repeat(indent)),
            Span::styled(format!("↳ {w}"), theme.dim),
        ];
        out.push(Keep::Minor, hanging(spans, indent + 2, max));
    }
}
