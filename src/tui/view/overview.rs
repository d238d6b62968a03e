//! The Overview tab: why the session has its health, what it is doing,
//! what Maestro says about it, and where it lives, as aligned
//! `label  value` rows, most urgent first.

use ratatui::prelude::*;

use super::orchestration::phase_position;
use super::tab_rows::{Keep, LABEL_W, Rows};
use super::text::{compact, hanging, kv, path_spans};
use super::{Theme, git_lines};
use crate::display::age;
use crate::model::{
    Activity, AoDetails, Health, Orchestration, PhaseStatus, Session, Status, Usage,
};
use crate::tui::model::state::AppState;

pub fn rows(s: &Session, state: &AppState, max: usize, theme: &Theme) -> Rows {
    let mut out = Rows::default();
    title_rows(&mut out, s, max, theme);
    health_rows(&mut out, s, state, max, theme);
    if let Some(o) = &s.orchestration {
        maestro_rows(&mut out, s, o, max, theme);
    }
    if let Some(u) = &s.usage {
        usage_rows(&mut out, u, max, theme);
    }
    if let Some(a) = &s.agent_orchestrator {
        ao_rows(&mut out, a, max, theme);
    }
    where_it_lives(&mut out, s, state, max, theme);
    out
}

/// The row's name as the screen shows it, its status and its source.
fn title_rows(out: &mut Rows, s: &Session, max: usize, theme: &Theme) {
    let mut title = vec![Span::styled(
        crate::model::row_name(s).into_owned(),
        theme.title,
    )];
    if let Some(status) = status_word(&s.status) {
        title.push(Span::styled(format!(" · {status}"), theme.dim));
    }
    title.push(Span::styled(format!(" · {}", s.source.as_str()), theme.dim));
    out.push(Keep::Must, hanging(title, 2, max));
    out.blank();
}

/// The state once, with its source and age (`● active · hook · 13s`); the
/// agent's own words (what it asks, else what it is doing); why it has its
/// health when that says more than the state; what is wrong with its files.
fn health_rows(out: &mut Rows, s: &Session, state: &AppState, max: usize, theme: &Theme) {
    let row = |label: &str, value: Vec<Span<'static>>| kv(label, value, theme.dim, LABEL_W, max);
    let mut health = vec![Span::styled(
        format!(
            "{} {}",
            s.health.glyph(),
            crate::health::provenance(s, state.now)
        ),
        theme.health(s.health),
    )];
    if let Some(why) = reason(s) {
        health.push(Span::raw(format!(": {why}")));
    }
    if let Some(until) = s.snoozed_until {
        let mark = crate::attention::snooze_mark(until, state.now);
        health.push(Span::styled(format!(" · snoozed, {mark}"), theme.dim));
    }
    out.push(Keep::Must, row("health", health));
    match s.waiting_for.as_ref().and_then(|w| w.line()) {
        Some(q) => out.push(Keep::Must, row("asks", vec![Span::styled(q, theme.accent)])),
        None => {
            if let Some(d) = s
                .activity
                .detail
                .as_deref()
                .filter(|d| !d.trim().is_empty())
            {
                out.push(Keep::Must, row("", vec![Span::raw(d.trim().to_owned())]));
            }
        }
    }
    if s.why.adds() {
        let why = vec![Span::styled(s.why.at(state.now), theme.dim)];
        out.push(Keep::Useful, row("why", why));
    }
    for p in &s.problems {
        let text = vec![Span::styled(format!("⚠ {p}"), theme.warning)];
        out.push(Keep::Useful, row("problem", text));
    }
}

/// Agent Orchestrator's own words: its lifecycle state, and the work.
fn ao_rows(out: &mut Rows, a: &AoDetails, max: usize, theme: &Theme) {
    let row = |label: &str, value: Vec<Span<'static>>| kv(label, value, theme.dim, LABEL_W, max);
    out.blank();
    let mut state = vec![Span::styled(
        a.status.clone().unwrap_or_else(|| "no status".into()),
        theme.accent,
    )];
    if let Some(r) = &a.reason {
        state.push(Span::styled(format!(" · {r}"), theme.dim));
    }
    out.push(Keep::Must, row("ao", state));
    for (label, value, keep) in [
        ("pr", &a.pr, Keep::Must),
        ("issue", &a.issue, Keep::Useful),
        ("summary", &a.summary, Keep::Useful),
    ] {
        if let Some(v) = value {
            out.push(keep, row(label, vec![Span::raw(v.clone())]));
        }
    }
}

/// The status worth showing: Maestro rows have none greenroom knows.
fn status_word(status: &Status) -> Option<String> {
    match status {
        Status::Unknown(s) if s.is_empty() || s.eq_ignore_ascii_case("unknown") => None,
        other => Some(other.as_str().to_lowercase()),
    }
}

/// Why a session has its health, when its status does not say it.
fn reason(s: &Session) -> Option<String> {
    match s.health {
        Health::Errored if s.activity.state != Activity::Error => {
            if let Some(o) = s
                .orchestration
                .as_deref()
                .filter(|o| o.has_unresolved_failure())
            {
                let failed = o.phases.iter().find(|p| p.status == PhaseStatus::Failed);
                return Some(match failed {
                    Some(p) => {
                        let errors = match p.unresolved_errors() {
                            0 => String::new(),
                            1 => ", 1 open error".into(),
                            n => format!(", {n} open errors"),
                        };
                        format!("phase {} failed{errors}", p.id)
                    }
                    None => "the Maestro orchestration failed".into(),
                });
            }
            // The why line gives the exit status when there is one.
            (s.status == Status::Exited && !s.why.adds())
                .then(|| "the pane exited with an error".into())
        }
        // The status says it: `stuck · silent 14m`.
        _ => None,
    }
}

fn usage(u: &Usage, theme: &Theme) -> Vec<Span<'static>> {
    // Reasoning is part of the output (Codex records how much); only shown
    // where the agent says.
    let reasoning = if u.reasoning > 0 {
        format!(" (reasoning {})", compact(u.reasoning))
    } else {
        String::new()
    };
    let mut v = vec![Span::raw(format!(
        "in {} · out {}{reasoning} · cache {} read, {} written",
        compact(u.input),
        compact(u.output),
        compact(u.cache_read),
        compact(u.cache_write)
    ))];
    if let Some(cost) = u.cost_usd {
        v.push(Span::raw(format!(" · ${cost:.2}")));
    }
    if !u.unpriced_models.is_empty() {
        let models = u.unpriced_models.join(", ");
        v.push(Span::styled(
            format!(" · cost unknown: no price for {models}"),
            theme.warning,
        ));
    }
    let source = match u.cost_source.as_deref() {
        Some("claude-code") => " · Claude Code's own total",
        _ => " · transcript",
    };
    v.push(Span::styled(source, theme.dim));
    v
}

/// What Maestro says: the task, where the orchestration is, its
/// contradictions, phases and its own token count.
fn maestro_rows(out: &mut Rows, s: &Session, o: &Orchestration, max: usize, theme: &Theme) {
    let row = |label: &str, value: Vec<Span<'static>>| kv(label, value, theme.dim, LABEL_W, max);
    let plain = |t: &str| vec![Span::raw(t.to_owned())];
    out.blank();
    if let Some(task) = &o.task {
        out.push(Keep::Must, row("task", plain(task)));
    }
    let mut m = vec![Span::raw(
        o.status.clone().unwrap_or_else(|| "no status".into()),
    )];
    m.push(Span::raw(format!(" · {}", phase_position(o))));
    if let Some(a) = &s.active_agent {
        m.push(Span::raw(" · "));
        m.push(Span::styled(format!("{a} working"), theme.accent));
    }
    out.push(Keep::Must, row("maestro", m));
    if !o.contradictions.is_empty() {
        let n = o.contradictions.len();
        let text = if n == 1 {
            "⚠ a contradiction: see the Orchestration tab".to_owned()
        } else {
            format!("⚠ {n} contradictions: see the Orchestration tab")
        };
        out.push(
            Keep::Useful,
            row("", vec![Span::styled(text, theme.warning)]),
        );
    }
    super::phases::summary(out, o, max, theme);
    if let Some(t) = &o.token_usage {
        let mut v = vec![Span::raw(format!(
            "in {} · out {} · cached {}",
            compact(t.input),
            compact(t.output),
            compact(t.cached)
        ))];
        v.push(Span::styled(" · Maestro's own count", theme.dim));
        out.push(Keep::Extra, row("tokens", v));
    }
}

/// What the agent's transcript says it spent: in all, per minute, per model.
fn usage_rows(out: &mut Rows, u: &Usage, max: usize, theme: &Theme) {
    let row = |label: &str, value: Vec<Span<'static>>| kv(label, value, theme.dim, LABEL_W, max);
    out.push(Keep::Extra, row("usage", usage(u, theme)));
    super::budget::detail_row(out, u, max, theme);
    if u.tokens_per_minute > 0.0 {
        let rate = format!(
            "{} tokens/min over the last 5 minutes",
            compact(u.tokens_per_minute as u64)
        );
        out.push(Keep::Minor, row("", vec![Span::styled(rate, theme.dim)]));
    }
    if u.by_model.len() > 1 {
        for (model, m) in &u.by_model {
            let text = format!(
                "{model}: in {} · out {} · cache {} / {}",
                compact(m.input),
                compact(m.output),
                compact(m.cache_read),
                compact(m.cache_write)
            );
            out.push(Keep::Minor, row("", vec![Span::styled(text, theme.dim)]));
        }
    }
}

/// Where the session lives: folder, branch, tmux session, agent.
/// An agent greenroom did not start: its pane, and whether it has hooks.
fn adopted_pane(s: &Session, t: &str, theme: &Theme) -> Vec<Span<'static>> {
    let pane = s.adopted.as_ref().map(|a| a.pane.as_str()).unwrap_or("");
    let hooks = match s.adopted.as_ref().is_some_and(|a| a.hooks) {
        true => " · not started by greenroom",
        false => " · not started by greenroom · no hooks",
    };
    vec![
        Span::raw(format!("{t} (pane {pane})")),
        Span::styled(hooks, theme.dim),
    ]
}

/// Branch, changes and a git problem from the work tree (the recorded
/// branch outside one), and the pull request.
fn git_rows(out: &mut Rows, s: &Session, max: usize, theme: &Theme) {
    let row = |label: &str, value: Vec<Span<'static>>| kv(label, value, theme.dim, LABEL_W, max);
    match &s.changes {
        Some(c) => {
            out.push(Keep::Useful, row("branch", git_lines::branch(c, theme)));
            out.push(Keep::Useful, row("changes", git_lines::counts(c, theme)));
            if let Some(p) = &c.problem {
                let text = vec![Span::styled(crate::display::safe(p), theme.errored)];
                out.push(Keep::Useful, row("git", text));
            }
        }
        None => {
            if let Some(b) = &s.branch {
                out.push(Keep::Extra, row("branch", vec![Span::raw(b.clone())]));
            }
        }
    }
    if let Some(pr) = git_lines::pull_request(s, theme) {
        out.push(Keep::Useful, row("pr", pr));
    }
}

fn where_it_lives(out: &mut Rows, s: &Session, state: &AppState, max: usize, theme: &Theme) {
    let row = |label: &str, value: Vec<Span<'static>>| kv(label, value, theme.dim, LABEL_W, max);
    let plain = |t: &str| vec![Span::raw(t.to_owned())];
    out.blank();
    let cwd = path_spans(&s.cwd.display().to_string(), Style::new());
    out.push(Keep::Useful, row("cwd", cwd));
    git_rows(out, s, max, theme);
    match &s.tmux_session {
        // Not greenroom's session: the agent's own pane in it.
        Some(t) if s.adopted.is_some() => {
            out.push(Keep::Extra, row("tmux", adopted_pane(s, t, theme)))
        }
        Some(t) if s.status.is_live() => out.push(Keep::Extra, row("tmux", plain(t))),
        Some(t) => {
            let v = vec![
                Span::raw(t.clone()),
                Span::styled(" · not running", theme.dim),
            ];
            out.push(Keep::Extra, row("tmux", v));
        }
        None => out.push(
            Keep::Extra,
            row("tmux", vec![Span::styled("none", theme.dim)]),
        ),
    }
    if let Some(a) = &s.agent {
        out.push(Keep::Extra, row("agent", plain(a)));
    }
    if let Some(id) = &s.agent_session_id {
        out.push(Keep::Minor, row("agent id", plain(id)));
    }
    if s.last_focused_at.is_some() {
        let ago = format!("{} ago", age(state.now, s.last_focused_at));
        out.push(
            Keep::Minor,
            row("focused", vec![Span::styled(ago, theme.dim)]),
        );
    }
}
