//! The dashboard's views: pure functions of ([`AppState`], [`Keymap`],
//! [`Theme`]) that draw one frame. No IO, no clock (`state.now` is the time).
//!
//! Layout, top to bottom: a one-line header, the body, a one-line status
//! line. The body holds the sidebar and the detail pane side by side from
//! 70 columns up; narrower, the sidebar is stacked above the detail pane
//! (or alone when the terminal is also short). Overlays (help, problems)
//! are drawn centered over the body, or over the whole screen when the
//! body is too small for them.

mod budget;
pub mod changes;
mod detail;
mod dialog;
mod diff_text;
mod empty;
mod git_lines;
mod header;
mod help;
pub mod layer;
mod orchestration;
mod overview;
mod pane_tail;
mod phases;
mod preview;
mod problems;
mod sidebar;
mod status_line;
mod tab_rows;
mod text;
pub mod theme;

use ratatui::prelude::*;
use ratatui::widgets::{Block, BorderType};

pub use theme::Theme;

use super::keymap::Keymap;
use crate::tui::model::layout::areas;
pub use crate::tui::model::layout::sidebar_list_area;
use crate::tui::model::state::{AppState, Mode, Overlay};

/// A bordered pane in the dashboard's style.
fn pane<'a>(theme: &Theme) -> Block<'a> {
    Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(theme.border)
}

/// Draws one frame.
pub fn render(frame: &mut Frame, state: &AppState, keymap: &Keymap, theme: &Theme) {
    let full = frame.area();
    let a = areas(full);
    header::render(frame, a.header, state, theme);
    if state.listed() == 0 {
        empty::render(frame, a.body, state, keymap, theme);
    } else {
        sidebar::render(frame, a.sidebar, state, keymap, theme);
        if let Some(detail) = a.detail {
            detail::render(frame, detail, state, keymap, theme);
        }
    }
    status_line::render(frame, a.status, state, keymap, theme);
    match &state.mode {
        Mode::Normal | Mode::Filter | Mode::Review => {}
        Mode::Overlay(Overlay::Help) => help::render(
            frame,
            a.body,
            full,
            keymap,
            (state.nav.help_page, state.nav.help_scroll),
            theme,
        ),
        Mode::Overlay(Overlay::Problems) => {
            problems::render(frame, a.body, full, state, keymap, theme)
        }
        Mode::Dialog(d) => dialog::render(frame, a.body, full, d, keymap, theme),
    }
}

/// A `w` x `h` box centered in `body` when it fits there, else in `full`
/// (covering header and status line), shrunk to what the screen has.
fn overlay_area(w: u16, h: u16, body: Rect, full: Rect) -> Rect {
    let within = if w <= body.width && h <= body.height {
        body
    } else {
        full
    };
    let (w, h) = (w.min(within.width), h.min(within.height));
    Rect {
        x: within.x + (within.width - w) / 2,
        y: within.y + (within.height - h) / 2,
        width: w,
        height: h,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_cover_the_screen_at_every_size() {
        for (w, h) in [
            (0, 0),
            (1, 1),
            (40, 10),
            (60, 20),
            (69, 30),
            (70, 10),
            (200, 60),
        ] {
            let area = Rect::new(0, 0, w, h);
            let a = areas(area);
            assert_eq!(a.header.height + a.body.height + a.status.height, h);
            assert!(a.sidebar.width <= w && a.sidebar.height <= a.body.height);
            let list = sidebar_list_area(area);
            assert!(list.height <= a.sidebar.height);
        }
    }

    #[test]
    fn wide_screens_put_the_sidebar_beside_the_detail() {
        let a = areas(Rect::new(0, 0, 160, 48));
        assert_eq!(a.sidebar.width, 48);
        assert_eq!(a.detail.map(|d| d.x), Some(48));
        let a = areas(Rect::new(0, 0, 60, 20));
        assert_eq!(a.sidebar.width, 60);
        assert_eq!(a.detail.map(|d| d.y), Some(1 + 7));
        let a = areas(Rect::new(0, 0, 250, 40));
        assert_eq!(
            (a.sidebar.width, a.detail.map(|d| d.width)),
            (108, Some(142))
        );
        let a = areas(Rect::new(0, 0, 40, 10));
        assert_eq!(a.detail, None);
        assert_eq!(
            sidebar_list_area(Rect::new(0, 0, 40, 10)),
            Rect::new(1, 2, 38, 6)
        );
    }
}
