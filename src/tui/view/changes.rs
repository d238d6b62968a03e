//! The Changes tab: the session's changed files, or one file's diff
//! (coloured by `diff_text`, which shows the file's own bytes inert),
//! scrollable, its side (staged or unstaged) named, the lines selected for
//! a comment highlighted. Pure: draws the state it is given.

use ratatui::prelude::*;
use ratatui::widgets::Paragraph;

use super::Theme;
use super::text::{fit, pad};
use crate::display::safe_path;
use crate::model::{ChangedFile, Changes, FileState, Session};
use crate::tui::model::changes::{ChangesTab, DiffPane};

pub fn render(frame: &mut Frame, area: Rect, s: &Session, tab: &ChangesTab, theme: &Theme) {
    let lines = match &s.changes {
        None => vec![Line::from(Span::styled(
            "not in a git work tree: no changes to show",
            theme.dim,
        ))],
        Some(c) => match &tab.diff {
            Some(d) => diff(d, area, theme),
            None => list(c, tab.cursor, area, theme),
        },
    };
    frame.render_widget(Paragraph::new(lines), area);
}

fn letter(state: Option<FileState>) -> char {
    state.map_or(' ', FileState::letter)
}

fn file_line(f: &ChangedFile, selected: bool, max: usize, theme: &Theme) -> Line<'static> {
    let (x, y) = if f.untracked {
        ('?', '?')
    } else {
        (letter(f.staged), letter(f.unstaged))
    };
    let counts = if f.binary {
        "binary".to_owned()
    } else if f.untracked {
        "new".to_owned()
    } else {
        format!("+{} \u{2212}{}", f.added, f.removed)
    };
    let name = match &f.from {
        Some(from) => format!("{} \u{2192} {}", safe_path(from), safe_path(&f.path)),
        None => safe_path(&f.path),
    };
    let room = max.saturating_sub(5 + counts.chars().count() + 1);
    let staged_style = if x == 'U' {
        theme.errored
    } else {
        theme.active
    };
    let mut spans = vec![
        Span::raw(if selected { "›" } else { " " }),
        Span::styled(x.to_string(), staged_style),
        Span::styled(y.to_string(), theme.errored),
        Span::raw("  "),
        Span::raw(pad(&fit(&name, room), room)),
        Span::raw(" "),
        Span::styled(counts, theme.dim),
    ];
    if f.untracked {
        spans[1].style = theme.dim;
        spans[2].style = theme.dim;
    }
    let line = Line::from(spans);
    if selected {
        line.style(theme.selected)
    } else {
        line
    }
}

fn list(c: &Changes, cursor: usize, area: Rect, theme: &Theme) -> Vec<Line<'static>> {
    let max = usize::from(area.width);
    let height = usize::from(area.height);
    if let Some(p) = &c.problem
        && c.files.is_empty()
    {
        return vec![Line::from(Span::styled(
            crate::display::safe(p),
            theme.errored,
        ))];
    }
    if c.is_clean() {
        return vec![Line::from(Span::styled(
            "no changes: the work tree is clean",
            theme.dim,
        ))];
    }
    let mut out = vec![Line::from(vec![
        Span::styled("staged", theme.active),
        Span::styled(" · ", theme.dim),
        Span::styled("unstaged", theme.errored),
        Span::styled(" · ? untracked · Enter shows the diff", theme.dim),
    ])];
    let rows = height.saturating_sub(2);
    let offset = cursor.saturating_sub(rows.saturating_sub(1));
    out.extend(
        c.files
            .iter()
            .enumerate()
            .skip(offset)
            .take(rows)
            .map(|(i, f)| file_line(f, i == cursor, max, theme)),
    );
    let hidden = c.files_total.saturating_sub(c.files.len());
    if hidden > 0 && out.len() < height {
        out.push(Line::from(Span::styled(
            format!("… and {hidden} more files greenroom does not list"),
            theme.dim,
        )));
    }
    out
}

fn diff(d: &DiffPane, area: Rect, theme: &Theme) -> Vec<Line<'static>> {
    let max = usize::from(area.width);
    let height = usize::from(area.height);
    let side = if d.file.untracked {
        "untracked (new file)"
    } else if d.staged {
        "staged"
    } else {
        "unstaged"
    };
    let mut header = vec![
        Span::styled(
            fit(&safe_path(&d.file.path), max.saturating_sub(side.len() + 3)),
            theme.title,
        ),
        Span::styled(
            format!(" · {side}"),
            if d.staged {
                theme.active
            } else {
                theme.errored
            },
        ),
    ];
    if let Some((a, b)) = d.anchor.map(|_| d.selection()) {
        header.push(Span::styled(
            format!(" · {} lines selected", b - a + 1),
            theme.accent,
        ));
    }
    let mut out = vec![Line::from(header)];
    let text = match &d.text {
        None => {
            out.push(Line::from(Span::styled("asking git…", theme.dim)));
            return out;
        }
        Some(Err(e)) => {
            out.push(Line::from(Span::styled(
                crate::display::safe(e),
                theme.errored,
            )));
            return out;
        }
        Some(Ok(t)) => t,
    };
    if text.text.is_empty() {
        out.push(Line::from(Span::styled(
            "no difference on this side",
            theme.dim,
        )));
        return out;
    }
    let lines = super::diff_text::lines(&text.text, theme);
    let rows = height.saturating_sub(1);
    let offset = d.line.saturating_sub(rows.saturating_sub(1));
    let (sel_a, sel_b) = d.selection();
    for (i, line) in lines.into_iter().enumerate().skip(offset).take(rows) {
        let selected = d.anchor.is_some() && (sel_a..=sel_b).contains(&i);
        let mut line = line;
        line.spans
            .insert(0, Span::raw(if i == d.line { "›" } else { " " }));
        if selected || i == d.line {
            line = line.patch_style(Style::new().add_modifier(Modifier::REVERSED));
        }
        out.push(line);
    }
    if text.truncated && out.len() < height {
        out.push(Line::from(Span::styled(
            "… the diff is longer than greenroom shows",
            theme.dim,
        )));
    }
    out
}
