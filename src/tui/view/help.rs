//! The help overlay, generated from the keymap: every binding's keys (as
//! configured) and description, grouped by section. The sections are laid
//! out in as many columns as fit; on small screens labels shorten to the
//! first key and long descriptions wrap, so nothing is silently cut.

use ratatui::prelude::*;
use ratatui::widgets::{Clear, Paragraph};

use super::sidebar::first_key;
use super::text::{pad, width, wrap};
use super::{Theme, overlay_area, pane};
use crate::tui::action::Command;
use crate::tui::keymap::{BINDINGS, Keymap, Layer};

/// Space between a key and its description, and between columns (wider
/// when nothing needs to wrap).
const KEY_GAP: usize = 2;
const COL_GAP: usize = 2;
const COL_GAP_WIDE: usize = 4;
/// Descriptions are not wrapped narrower than this.
const MIN_DESC: usize = 12;

struct Section {
    name: &'static str,
    entries: Vec<(String, &'static str)>,
}

/// One way of laying the help out.
struct Layout {
    /// Sections per column (contiguous, in keymap order).
    columns: Vec<Vec<usize>>,
    short: bool,
    /// Description width when wrapping; `None`: natural widths.
    desc_w: Option<Vec<usize>>,
    blank: bool,
    gap: usize,
    width: usize,
    height: usize,
}

/// `page` 0 lists the list's keys, 1 the filter's, the dialogs' and the
/// overlays' (the keymap's other layers).
pub fn render(
    frame: &mut Frame,
    body: Rect,
    full: Rect,
    keymap: &Keymap,
    (page, scroll): (usize, usize),
    theme: &Theme,
) {
    let full_sections = sections(keymap, page, false);
    let short_sections = sections(keymap, page, true);
    // The most the overlay can take: the whole screen, less borders and padding.
    let max_w = usize::from(full.width).saturating_sub(4);
    let max_h = usize::from(full.height).saturating_sub(2);
    let layout = choose(&full_sections, &short_sections, max_w, max_h);
    let secs = if layout.short {
        &short_sections
    } else {
        &full_sections
    };

    let w = u16::try_from(layout.width + 4).unwrap_or(u16::MAX);
    let h = u16::try_from(layout.height + 2).unwrap_or(u16::MAX);
    let area = overlay_area(w, h, body, full);
    let close = first_key(keymap, Command::Help);
    let other = keymap
        .first_label_in(Layer::Overlay, Command::NextPage)
        .unwrap_or_default();
    let title = match page {
        0 => " Keys ",
        _ => " Keys in the filter and dialogs ",
    };
    let more = match page {
        0 => format!(" {other}: dialogs "),
        _ => format!(" {other}: the list "),
    };
    let mut block = pane(theme)
        .title(Span::styled(title, theme.title))
        .title(Line::from(Span::styled(more, theme.dim)).right_aligned())
        .title_bottom(
            Line::from(Span::styled(format!(" {close} closes "), theme.dim)).right_aligned(),
        );
    let inner = block.inner(area);
    let columns: Vec<(Vec<Line<'static>>, usize)> = layout
        .columns
        .iter()
        .enumerate()
        .map(|(i, col)| {
            let chosen: Vec<&Section> = col.iter().map(|&s| &secs[s]).collect();
            let desc_w = layout.desc_w.as_ref().map(|d| d[i]);
            column(&chosen, desc_w, layout.blank, theme)
        })
        .collect();
    // Too short a screen scrolls (↓ ↑ j k), down to the last line.
    let height = usize::from(inner.height);
    let longest = columns.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
    let top = scroll.min(longest.saturating_sub(height));
    if longest > height {
        let at = format!(" ↓↑ scroll: {}-{} of {longest} ", top + 1, top + height);
        block = block.title_bottom(Line::from(Span::styled(at, theme.dim)));
    } else if area.width >= 60 && page == 0 {
        // Only the list's keys are rebound in config.toml.
        let note = Span::styled(" rebind keys in config.toml [keys] ", theme.dim);
        block = block.title_bottom(Line::from(note));
    }
    frame.render_widget(Clear, area);
    frame.render_widget(block, area);

    let mut x = inner.x + 1;
    for (lines, col_w) in columns {
        let right = inner.right().saturating_sub(1);
        let width = u16::try_from(col_w)
            .unwrap_or(u16::MAX)
            .min(right.saturating_sub(x));
        let rect = Rect { x, width, ..inner };
        let lines: Vec<Line<'static>> = lines.into_iter().skip(top).take(height).collect();
        frame.render_widget(Paragraph::new(lines), rect);
        x = x
            .saturating_add(width)
            .saturating_add(u16::try_from(layout.gap).unwrap_or(0));
    }
}

fn sections(keymap: &Keymap, page: usize, short: bool) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    let listed = BINDINGS
        .iter()
        .filter(|b| b.help_page() == page && b.in_help());
    for b in listed {
        let key = if short {
            keymap
                .first_label_in(b.layer, b.command)
                .unwrap_or_default()
        } else {
            keymap.label_in(b.layer, b.command)
        };
        let key = if key.is_empty() { "-".into() } else { key };
        match out.iter_mut().find(|s| s.name == b.section) {
            Some(s) => s.entries.push((key, b.description)),
            None => out.push(Section {
                name: b.section,
                entries: vec![(key, b.description)],
            }),
        }
    }
    out
}

/// The lines of one column and its width. `desc_w`: wrap descriptions.
fn column(
    secs: &[&Section],
    desc_w: Option<usize>,
    blank: bool,
    theme: &Theme,
) -> (Vec<Line<'static>>, usize) {
    let key_w = secs
        .iter()
        .flat_map(|s| s.entries.iter().map(|(k, _)| width(k)))
        .max()
        .unwrap_or(0);
    let natural = secs
        .iter()
        .flat_map(|s| s.entries.iter().map(|(_, d)| width(d)))
        .max()
        .unwrap_or(0);
    let desc_w = desc_w.unwrap_or(natural);
    let mut lines = Vec::new();
    for (i, s) in secs.iter().enumerate() {
        if i > 0 && blank {
            lines.push(Line::default());
        }
        lines.push(Line::from(Span::styled(s.name, theme.title)));
        for (key, desc) in &s.entries {
            let parts = wrap(vec![Span::raw(*desc)], desc_w);
            for (j, part) in parts.into_iter().enumerate() {
                let k = if j == 0 { key.as_str() } else { "" };
                let mut spans = vec![Span::styled(pad(k, key_w + KEY_GAP), theme.key)];
                spans.extend(part);
                lines.push(Line::from(spans));
            }
        }
    }
    let title_w = secs.iter().map(|s| width(s.name)).max().unwrap_or(0);
    (lines, (key_w + KEY_GAP + desc_w).max(title_w))
}

/// Every contiguous split of `n` sections into columns (n is small).
fn partitions(n: usize) -> Vec<Vec<Vec<usize>>> {
    if n == 0 {
        return vec![vec![]];
    }
    if n > 6 {
        return vec![vec![(0..n).collect()]];
    }
    let mut out = Vec::new();
    for mask in 0..(1u32 << (n - 1)) {
        let mut cols = vec![vec![0]];
        for i in 1..n {
            if mask & (1 << (i - 1)) != 0 {
                cols.push(Vec::new());
            }
            if let Some(last) = cols.last_mut() {
                last.push(i);
            }
        }
        out.push(cols);
    }
    out
}

/// Picks the layout that fits `max_w` x `max_h`, preferring natural widths,
/// full key labels, blank lines between sections, then the lowest height.
fn choose(full: &[Section], short: &[Section], max_w: usize, max_h: usize) -> Layout {
    let mut candidates = Vec::new();
    for (is_short, secs) in [(false, full), (true, short)] {
        for cols in partitions(secs.len()) {
            for blank in [true, false] {
                let shape = Shape {
                    secs,
                    cols: &cols,
                    short: is_short,
                    blank,
                };
                candidates.extend(natural(&shape, max_w).or_else(|| wrapped(&shape, max_w)));
            }
        }
    }
    let rank = |l: &Layout| {
        (
            l.desc_w.is_some(),
            l.short,
            !l.blank,
            l.height,
            l.columns.len(),
        )
    };
    let fitting = candidates
        .iter()
        .enumerate()
        .filter(|(_, l)| l.height <= max_h)
        .min_by_key(|(_, l)| rank(l))
        .map(|(i, _)| i);
    let best = fitting.or_else(|| {
        candidates
            .iter()
            .enumerate()
            .min_by_key(|(_, l)| (l.height, rank(l)))
            .map(|(i, _)| i)
    });
    match best {
        Some(i) => candidates.swap_remove(i),
        None => Layout {
            columns: vec![(0..full.len()).collect()],
            short: true,
            desc_w: Some(vec![max_w.saturating_sub(8).max(1)]),
            blank: false,
            gap: COL_GAP,
            width: max_w,
            height: max_h,
        },
    }
}

/// One way of splitting the sections into columns, before widths.
struct Shape<'a> {
    secs: &'a [Section],
    cols: &'a [Vec<usize>],
    short: bool,
    blank: bool,
}

impl Shape<'_> {
    fn pick(&self, c: &[usize]) -> Vec<&Section> {
        c.iter().map(|&i| &self.secs[i]).collect()
    }

    fn gaps(&self) -> usize {
        COL_GAP * self.cols.len().saturating_sub(1)
    }
}

/// The shape at its natural widths, when they fit.
fn natural(shape: &Shape, max_w: usize) -> Option<Layout> {
    let none = no_theme();
    let k = shape.cols.len();
    let measured: Vec<(usize, usize)> = shape
        .cols
        .iter()
        .map(|c| {
            let (l, w) = column(&shape.pick(c), None, shape.blank, &none);
            (l.len(), w)
        })
        .collect();
    let natural: usize = measured.iter().map(|m| m.1).sum();
    if natural + shape.gaps() > max_w {
        return None;
    }
    let wide = COL_GAP_WIDE * k.saturating_sub(1);
    let gap = if natural + wide <= max_w {
        COL_GAP_WIDE
    } else {
        COL_GAP
    };
    Some(Layout {
        columns: shape.cols.to_vec(),
        short: shape.short,
        desc_w: None,
        blank: shape.blank,
        gap,
        width: natural + gap * k.saturating_sub(1),
        height: measured.iter().map(|m| m.0).max().unwrap_or(0),
    })
}

/// The shape with descriptions wrapped: two columns try every split of the
/// width (the lowest wins); more columns share it equally.
fn wrapped(shape: &Shape, max_w: usize) -> Option<Layout> {
    let none = no_theme();
    let k = shape.cols.len();
    let room = max_w.saturating_sub(shape.gaps());
    let splits: Vec<Vec<usize>> = match k {
        2 => (1..room).map(|w1| vec![w1, room - w1]).collect(),
        _ => vec![vec![room / k.max(1); k]],
    };
    let key_ws: Vec<usize> = shape
        .cols
        .iter()
        .map(|c| {
            shape
                .pick(c)
                .iter()
                .flat_map(|s| s.entries.iter().map(|(k, _)| width(k)))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let (height, descs) = splits
        .iter()
        .filter_map(|widths| {
            let descs: Vec<usize> = widths
                .iter()
                .zip(&key_ws)
                .map(|(w, key_w)| w.saturating_sub(key_w + KEY_GAP))
                .collect();
            if descs.iter().any(|d| *d < MIN_DESC) {
                return None;
            }
            let height = shape
                .cols
                .iter()
                .zip(&descs)
                .map(|(c, d)| column(&shape.pick(c), Some(*d), shape.blank, &none).0.len())
                .max()
                .unwrap_or(0);
            Some((height, descs))
        })
        .min_by_key(|(height, _)| *height)?;
    Some(Layout {
        columns: shape.cols.to_vec(),
        short: shape.short,
        desc_w: Some(descs),
        blank: shape.blank,
        gap: COL_GAP,
        width: room + shape.gaps(),
        height,
    })
}

/// Measuring needs no colours.
fn no_theme() -> Theme {
    Theme::no_color()
}
