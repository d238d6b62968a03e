//! Where each pane goes for a terminal size: the views draw there, and the
//! reducer pages and hit-tests the sidebar by it.

use ratatui::layout::Rect;

/// From this width up, sidebar and detail sit side by side.
const SIDE_BY_SIDE_MIN_WIDTH: u16 = 70;
/// Below `SIDE_BY_SIDE_MIN_WIDTH`, the detail pane is stacked under the
/// sidebar only when the body has at least this many rows.
const STACK_MIN_BODY_HEIGHT: u16 = 14;

/// Where each pane goes for a full-screen area.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Areas {
    pub header: Rect,
    pub body: Rect,
    pub status: Rect,
    pub sidebar: Rect,
    pub detail: Option<Rect>,
}

pub fn areas(area: Rect) -> Areas {
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

/// The sidebar's list area for a full-screen area (for mouse hit-testing):
/// the Rect whose first row shows visible line `state.nav.offset`.
pub fn sidebar_list_area(area: Rect) -> Rect {
    ratatui::widgets::Block::bordered().inner(areas(area).sidebar)
}
