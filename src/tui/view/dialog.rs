//! Dialogs drawn over the body: confirm a kill or dismiss, type a message,
//! the new-session form.

use ratatui::prelude::*;
use ratatui::widgets::{Clear, Padding, Paragraph, Wrap};

use super::text::fit;
use super::{Theme, overlay_area, pane};
use crate::tui::keymap::Keymap;
use crate::tui::model::dialog::{Dialog, SpawnField, SpawnForm};

pub fn render(
    frame: &mut Frame,
    body: Rect,
    full: Rect,
    dialog: &Dialog,
    keymap: &Keymap,
    theme: &Theme,
) {
    // The hint line comes from the dialog's keymap layer, as help does.
    let hints = keymap.hints(super::layer::of_dialog(dialog));
    let hint = keys(&hints, theme);
    let (title, lines, width) = match dialog {
        Dialog::Confirm {
            action,
            names,
            panes_only,
            ..
        } => confirm(action.verb(), names, *panes_only, hint, theme),
        Dialog::Send { name, text, .. } => send(name, text, hint, theme),
        Dialog::Spawn(form) => spawn(form, hint, theme),
        Dialog::DismissWorktree {
            name,
            path,
            dirty,
            second,
            work,
            ..
        } => dismiss_worktree(name, path, (*dirty, *second), work, hint, theme),
    };
    // Each line's one-space indent is the dialog's margin, drawn as
    // padding: a line that wraps keeps it, and the height counts the rows
    // the wrapped text takes, so nothing is cut at the bottom.
    let lines: Vec<Line<'static>> = lines.into_iter().map(unindent).collect();
    let text_width = usize::from(width.min(full.width).saturating_sub(4)).max(1);
    let rows: usize = lines.iter().map(|l| wrapped_rows(l, text_width)).sum();
    let height = u16::try_from(rows + 2).unwrap_or(u16::MAX);
    let area = overlay_area(width, height, body, full);
    let block = pane(theme)
        .title(Span::styled(format!(" {title} "), theme.title))
        .padding(Padding::horizontal(1));
    let inner = block.inner(area);
    frame.render_widget(Clear, area);
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}

/// A line without the one space it starts with (the margin padding draws).
fn unindent(mut line: Line<'static>) -> Line<'static> {
    if let Some(first) = line.spans.first_mut()
        && let Some(rest) = first.content.strip_prefix(' ')
    {
        first.content = rest.to_owned().into();
    }
    line
}

/// The rows a line takes when wrapped at word boundaries to `width`.
fn wrapped_rows(line: &Line<'_>, width: usize) -> usize {
    let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
    let (mut rows, mut col) = (1, 0);
    for word in text.split(' ') {
        let w = Span::raw(word).width();
        let needed = if col == 0 { w } else { col + 1 + w };
        if needed <= width {
            col = needed;
            continue;
        }
        if col > 0 {
            rows += 1;
        }
        // A word longer than the line breaks across rows.
        rows += w.saturating_sub(1) / width;
        col = w % width;
    }
    rows
}

/// The folders an ambiguous Tab left, on one line under the field.
fn candidates(names: &[String], theme: &Theme) -> Line<'static> {
    const ROOM: usize = 70;
    let mut text = String::new();
    let mut shown = 0;
    for n in names {
        let item = format!("{}/  ", fit(n, 30));
        if text.chars().count() + item.chars().count() > ROOM {
            break;
        }
        text.push_str(&item);
        shown += 1;
    }
    if shown < names.len() {
        text.push_str(&format!("… {} more", names.len() - shown));
    }
    Line::from(vec![
        Span::raw("            "),
        Span::styled(text.trim_end().to_owned(), theme.dim),
    ])
}

fn keys(parts: &[(String, &'static str)], theme: &Theme) -> Line<'static> {
    let mut spans = vec![Span::raw(" ")];
    for (i, (key, what)) in parts.iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled("  ", theme.dim));
        }
        spans.push(Span::styled(key.clone(), theme.key));
        spans.push(Span::styled(format!(" {what}"), theme.dim));
    }
    Line::from(spans)
}

fn confirm(
    verb: &str,
    names: &[String],
    panes_only: bool,
    hint: Line<'static>,
    theme: &Theme,
) -> (String, Vec<Line<'static>>, u16) {
    let what = match names {
        [one] => one.clone(),
        many => format!("{} sessions", many.len()),
    };
    let mut lines = vec![Line::from(vec![
        Span::raw(format!(" {verb} ")),
        Span::styled(what, theme.accent.add_modifier(Modifier::BOLD)),
        Span::raw("?"),
    ])];
    if names.len() > 1 {
        lines.push(Line::from(Span::styled(
            format!(" {}", fit(&names.join(", "), 56)),
            theme.dim,
        )));
    }
    let one = names.len() == 1;
    let note = match (verb, panes_only, one) {
        ("Kill", true, true) => " Only the agent's pane closes; the session's other windows stay.",
        ("Kill", true, false) => {
            " Only the agents' panes close; their sessions' other windows stay."
        }
        ("Kill", false, true) => " Its tmux session ends; the record stays and r restores it.",
        ("Kill", false, false) => " Their tmux sessions end; the records stay: r restores them.",
        (_, _, true) => " The record moves to the archive; nothing is deleted.",
        (_, _, false) => " The records move to the archive; nothing is deleted.",
    };
    lines.push(Line::from(Span::styled(note, theme.dim)));
    lines.push(Line::default());
    lines.push(hint);
    (format!("{verb}?"), lines, 64)
}

fn dismiss_worktree(
    name: &str,
    path: &std::path::Path,
    (dirty, second): (bool, bool),
    work: &[String],
    hint: Line<'static>,
    theme: &Theme,
) -> (String, Vec<Line<'static>>, u16) {
    let path = crate::display::safe_path(path);
    let mut lines = vec![
        Line::from(vec![
            Span::raw(" Dismiss "),
            Span::styled(name.to_owned(), theme.accent.add_modifier(Modifier::BOLD)),
            Span::raw("?"),
        ]),
        Line::from(Span::styled(
            format!(" greenroom made its worktree {}", fit(&path, 40)),
            theme.dim,
        )),
        Line::from(Span::styled(
            " w removes it too (and its branch, if merged); y keeps it.",
            theme.dim,
        )),
    ];
    if second {
        lines.push(Line::from(Span::styled(
            " It has uncommitted changes: w again removes them with it.",
            theme.warning,
        )));
        for item in work.iter().take(WORK_LINES) {
            lines.push(Line::from(Span::styled(
                format!("   {}", fit(&crate::display::safe(item), 60)),
                theme.warning,
            )));
        }
        if work.len() > WORK_LINES {
            lines.push(Line::from(Span::styled(
                format!("   … {} more", work.len() - WORK_LINES),
                theme.warning,
            )));
        }
    } else if dirty {
        lines.push(Line::from(Span::styled(
            " It has uncommitted changes (w asks again).",
            theme.warning,
        )));
    }
    lines.push(Line::default());
    lines.push(hint);
    ("Dismiss?".to_owned(), lines, 68)
}

/// The work a worktree holds, lines shown at most.
const WORK_LINES: usize = 8;

/// A message's lines shown at most; a longer paste shows its end.
const SEND_LINES: usize = 10;

fn send(
    name: &str,
    text: &str,
    hint: Line<'static>,
    theme: &Theme,
) -> (String, Vec<Line<'static>>, u16) {
    let all: Vec<&str> = text.split('\n').collect();
    let hidden = all.len().saturating_sub(SEND_LINES);
    let mut lines = Vec::new();
    if hidden > 0 {
        let noun = if hidden == 1 { "line" } else { "lines" };
        lines.push(Line::from(Span::styled(
            format!("   … {hidden} {noun} above"),
            theme.dim,
        )));
    }
    let last = all.len() - 1;
    for (i, l) in all.iter().enumerate().skip(hidden) {
        let mut spans = vec![
            Span::styled(if i == 0 { " > " } else { "   " }, theme.accent),
            Span::raw((*l).to_owned()),
        ];
        if i == last {
            spans.push(Span::styled("█", theme.accent));
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::default());
    lines.push(hint);
    (format!("Send to {name}"), lines, 72)
}

fn spawn(
    form: &SpawnForm,
    hint: Line<'static>,
    theme: &Theme,
) -> (String, Vec<Line<'static>>, u16) {
    let mut lines = Vec::new();
    for field in SpawnField::ALL {
        let focused = form.focus == field;
        let value = match field {
            SpawnField::Name => form.name.clone(),
            SpawnField::Cwd => form.cwd.clone(),
            SpawnField::Agent => match form.agent_name() {
                Some(a) => format!("‹ {a} ›"),
                None => "(none)".into(),
            },
            SpawnField::Worktree => form.worktree.clone(),
            SpawnField::Prompt => form.prompt.clone(),
        };
        let placeholder = match field {
            SpawnField::Worktree if value.is_empty() => "new branch, or empty to use the folder",
            SpawnField::Prompt if value.is_empty() => "first message to the agent, optional",
            _ => "",
        };
        let mut spans = vec![
            Span::styled(if focused { " › " } else { "   " }, theme.accent),
            Span::styled(format!("{:<9}", field.label()), theme.dim),
            Span::styled(
                fit(&value, 60),
                if focused {
                    Style::new().add_modifier(Modifier::BOLD)
                } else {
                    Style::new()
                },
            ),
        ];
        if focused && field != SpawnField::Agent {
            spans.push(Span::styled("█", theme.accent));
        }
        if !placeholder.is_empty() {
            spans.push(Span::styled(placeholder, theme.dim));
        }
        if field == SpawnField::Agent && form.agent_missing() {
            spans.push(Span::styled("  not installed (not on PATH)", theme.warning));
        }
        lines.push(Line::from(spans));
        if field == SpawnField::Cwd && !form.candidates.is_empty() {
            lines.push(candidates(&form.candidates, theme));
        }
    }
    lines.push(Line::default());
    if let Some(e) = &form.error {
        lines.push(Line::from(Span::styled(format!(" {e}"), theme.warning)));
        lines.push(Line::default());
    }
    if form.busy {
        lines.push(Line::from(Span::styled(" starting…", theme.dim)));
    } else {
        lines.push(hint);
    }
    ("New session".into(), lines, 84)
}
