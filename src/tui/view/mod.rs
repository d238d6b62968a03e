//! The dashboard's views: pure functions of ([`AppState`], [`Keymap`],
//! [`Theme`]) that draw one frame. No IO, no clock (`state.now` is the time).
//!
//! Layout, top to bottom: a one-line header, the body, a one-line status
//! line. The body holds the sidebar and the detail pane side by side from
//! 70 columns up; narrower, the sidebar is stacked above the detail pane
//! (or alone when the terminal is also short). Overlays (help, problems)
//! are drawn centered over the body, or over the whole screen when the
//! body is too small for them.

pub mod changes;
mod detail;
mod dialog;
pub mod layer;
mod diff_text;
mod empty;
mod git_lines;
mod header;
mod help;
mod orchestration;
mod overview;
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
use crate::tui::model::state::{AppState, Mode, Overlay};

/// From this width up, sidebar and detail sit side by side.
const SIDE_BY_SIDE_MIN_WIDTH: u16 = 70;
/// Below `SIDE_BY_SIDE_MIN_WIDTH`, the detail pane is stacked under the
/// sidebar only when the body has at least this many rows.
const STACK_MIN_BODY_HEIGHT: u16 = 14;

/// Where each pane goes for a full-screen area.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Areas {
    header: Rect,
    body: Rect,
    status: Rect,
    sidebar: Rect,
    detail: Option<Rect>,
}

fn areas(area: Rect) -> Areas {
    let header = Rect {
        height: area.height.min(1),
        ..area
    };
    let status = if area.height >= 2 {
        Rect {
            y: area.bottom() - 1,
            height: 1,
            ..area
        }
    } else {
        Rect { height: 0, ..area }
    };
    let body = Rect {
        y: area.y + header.height,
        height: area.height - header.height - status.height,
        ..area
    };
    let (sidebar, detail) = if body.width >= SIDE_BY_SIDE_MIN_WIDTH {
        let w = sidebar_width(body.width);
        let sidebar = Rect { width: w, ..body };
        let detail = Rect {
            x: body.x + w,
            width: body.width - w,
            ..body
        };
        (sidebar, Some(detail))
    } else if body.height >= STACK_MIN_BODY_HEIGHT {
        let h = two_fifths(body.height);
        let sidebar = Rect { height: h, ..body };
        let detail = Rect {
            y: body.y + h,
            height: body.height - h,
            ..body
        };
        (sidebar, Some(detail))
    } else {
        (body, None)
    };
    Areas {
        header,
        body,
        status,
        sidebar,
        detail,
    }
}

/// Up to 160 columns the sidebar takes two fifths, at most 48; wider, it
/// takes two of every three columns beyond 160, so long names and tasks
/// get the room a wide terminal has (108 of 250, the detail keeps 142).
fn sidebar_width(body: u16) -> u16 {
    let base = two_fifths(body).clamp(24, 48);
    let extra = u32::from(body.saturating_sub(WIDE_FROM)) * 2 / 3;
    base.saturating_add(u16::try_from(extra).unwrap_or(u16::MAX))
}

/// From this width up the sidebar grows with the terminal.
const WIDE_FROM: u16 = 160;

fn two_fifths(n: u16) -> u16 {
    u16::try_from(u32::from(n) * 2 / 5).unwrap_or(u16::MAX)
}

/// A bordered pane in the dashboard's style.
fn pane<'a>(theme: &Theme) -> Block<'a> {
    Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(theme.border)
}

/// The sidebar's list area for a full-screen area (for mouse hit-testing):
/// the Rect whose first row shows visible line `state.offset`.
pub fn sidebar_list_area(area: Rect) -> Rect {
    Block::bordered().inner(areas(area).sidebar)
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
        Mode::Overlay(Overlay::Help) => {
            help::render(frame, a.body, full, keymap, state.help_page, theme)
        }
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
