//! The status line: a message from the last action if there is one, else
//! the filter prompt while typing, else the few keys that matter now.

use ratatui::prelude::*;

use super::Theme;
use super::sidebar::first_key;
use super::text::{fit, width};
use crate::tui::action::Command;
use crate::tui::keymap::{Keymap, Layer};
use crate::tui::model::state::{AppState, Mode, Overlay, SortMode, TmuxStatus};

pub fn render(frame: &mut Frame, area: Rect, state: &AppState, keymap: &Keymap, theme: &Theme) {
    if area.height == 0 {
        return;
    }
    let max = usize::from(area.width);
    // What the operator is typing comes first: a message (a host over its
    // row cap, say) must not hide the filter for its seconds on screen.
    let line = if state.mode == Mode::Filter {
        filter_prompt(state, keymap, max, theme)
    } else if let Some(status) = &state.status {
        Line::from(vec![
            Span::raw(" "),
            Span::styled(fit(&status.text, max.saturating_sub(2)), theme.accent),
        ])
    } else if state.mode == Mode::Review {
        // The Changes tab's own keys, from its keymap layer.
        let keys: Vec<String> = keymap
            .hints(Layer::Review)
            .into_iter()
            .map(|(key, word)| format!("{key} {word}"))
            .collect();
        Line::from(Span::styled(
            fit(&format!(" {}", keys.join("  ")), max),
            theme.dim,
        ))
    } else {
        hint_line(&hints(state), keymap, max, theme)
    };
    frame.render_widget(line, area);
}

fn filter_prompt(state: &AppState, keymap: &Keymap, max: usize, theme: &Theme) -> Line<'static> {
    let n = state.list.visible.len();
    let keys: Vec<String> = keymap
        .hints(Layer::Filter)
        .into_iter()
        .map(|(key, word)| format!("{key} {word}"))
        .collect();
    let tail = format!(
        "  {} · {n} {}",
        keys.join(" · "),
        if n == 1 { "match" } else { "matches" }
    );
    // Keep the end of what is typed in view, as an input field does.
    let room = max.saturating_sub(3 + width(&tail)).max(8);
    let chars: Vec<char> = state.nav.filter.chars().collect();
    let typed: String = chars[chars.len().saturating_sub(room)..].iter().collect();
    Line::from(vec![
        Span::styled(" /", theme.key),
        Span::raw(fit(&typed, room)),
        Span::styled("█", theme.accent),
        Span::styled(tail, theme.dim),
    ])
}

/// The hints for this moment, most useful first; `help` is always last.
fn hints(state: &AppState) -> Vec<(Command, &'static str)> {
    match state.overlay() {
        Some(Overlay::Help) => return vec![(Command::Help, "close"), (Command::Quit, "close")],
        Some(Overlay::Problems) => return vec![(Command::ShowProblems, "close")],
        None => {}
    }
    let mut h = Vec::new();
    if state.link.beside_pane().is_some() {
        h.push((Command::OpenBeside, "close beside"));
    }
    if let Some(s) = state.selected_session() {
        let tmux_ok = state.link.tmux != TmuxStatus::NotInstalled;
        let live = s.can_attach() && tmux_ok;
        if live && s.health == crate::model::Health::Waiting {
            h.extend([(Command::Allow, "allow"), (Command::Deny, "deny")]);
        }
        if crate::attention::in_queue(s) {
            h.push((Command::Snooze, "snooze"));
        }
        if live {
            h.extend([
                (Command::Attach, "attach"),
                (Command::Send, "send"),
                (Command::Kill, "kill"),
            ]);
        } else {
            if s.can_restore() && tmux_ok {
                h.push((Command::Restore, "restore"));
            }
            if s.can_dismiss() {
                h.push((Command::Dismiss, "dismiss"));
            }
        }
    }
    h.push((Command::New, "new"));
    if state.listed() > 0 {
        if state.nav.filter.is_empty() {
            h.push((Command::Filter, "filter"));
        } else {
            h.push((Command::Filter, "edit filter"));
        }
        h.push(match state.nav.sort {
            SortMode::LastFocus => (Command::ToggleTriage, "triage"),
            SortMode::Triage => (Command::ToggleTriage, "by focus"),
            SortMode::Spend => (Command::ToggleSpendSort, "by focus"),
        });
        h.push((Command::NextTab, "tab"));
    }
    if !state.list.problems.is_empty() {
        h.push((Command::ShowProblems, "problems"));
    }
    h.push((Command::Quit, "quit"));
    h.push((Command::Help, "help"));
    h
}

/// Packs hints left to right until the line is full, keeping the last one
/// (help) whatever else is dropped.
fn hint_line(
    hints: &[(Command, &'static str)],
    keymap: &Keymap,
    max: usize,
    theme: &Theme,
) -> Line<'static> {
    let spans_for = |(c, d): &(Command, &'static str)| {
        vec![
            Span::styled(first_key(keymap, *c), theme.key),
            Span::styled(format!(" {d}"), theme.dim),
        ]
    };
    let Some((last, rest)) = hints.split_last() else {
        return Line::default();
    };
    let last = spans_for(last);
    let last_w = Line::from(last.clone()).width() + 2;
    let mut spans = vec![Span::raw(" ")];
    let mut used = 1;
    for h in rest {
        let s = spans_for(h);
        let w = Line::from(s.clone()).width() + 2;
        if used + w + last_w > max {
            break;
        }
        spans.extend(s);
        spans.push(Span::raw("  "));
        used += w;
    }
    spans.extend(last);
    Line::from(spans)
}
