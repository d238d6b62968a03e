//! The text of a detail tab as rows that know how much they matter, so a
//! short pane keeps the important ones. Shared by the Overview and
//! Orchestration tabs; the detail pane only draws what they return.

use ratatui::prelude::*;

use super::Theme;

/// Labels of the key/value rows line up at this width.
pub(super) const LABEL_W: usize = 10;

/// How much a group of lines matters when the pane is too short for all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Keep {
    Must,
    Useful,
    Extra,
    Minor,
    Blank,
}

/// A detail tab's text: groups of lines (one logical row each, maybe
/// wrapped), each with how much it matters.
#[derive(Default)]
pub(super) struct Rows {
    groups: Vec<(Keep, Vec<Line<'static>>)>,
}

impl Rows {
    pub fn push(&mut self, keep: Keep, lines: impl IntoIterator<Item = Line<'static>>) {
        self.groups.push((keep, lines.into_iter().collect()));
    }

    pub fn blank(&mut self) {
        self.groups.push((Keep::Blank, vec![Line::default()]));
    }

    fn len(&self) -> usize {
        self.groups.iter().map(|(_, l)| l.len()).sum()
    }

    /// The lines for a pane `height` rows tall. When the text is taller,
    /// blank lines go, then rows are taken most important first (in their
    /// order) while they fit; the last row says how much was left out.
    pub fn fit(mut self, height: usize, theme: &Theme) -> Vec<Line<'static>> {
        let total = self.len();
        if total <= height {
            return self.groups.into_iter().flat_map(|(_, l)| l).collect();
        }
        let blanks = self
            .groups
            .iter()
            .filter(|(k, _)| *k == Keep::Blank)
            .count();
        if total - blanks <= height {
            // Keep the first blank lines that still fit.
            let mut spare = height - (total - blanks);
            self.groups.retain(|(k, _)| {
                if *k != Keep::Blank {
                    return true;
                }
                let keep = spare > 0;
                spare = spare.saturating_sub(1);
                keep
            });
            return self.groups.into_iter().flat_map(|(_, l)| l).collect();
        }
        self.groups.retain(|(k, _)| *k != Keep::Blank);
        let total = self.len();
        let room = height.saturating_sub(1);
        let mut order: Vec<usize> = (0..self.groups.len()).collect();
        order.sort_by_key(|&i| (self.groups[i].0, i));
        let mut taken = vec![false; self.groups.len()];
        let mut used = 0;
        for i in order {
            let n = self.groups[i].1.len();
            if used + n <= room {
                taken[i] = true;
                used += n;
            }
        }
        let mut lines: Vec<Line<'static>> = self
            .groups
            .into_iter()
            .zip(taken)
            .filter(|(_, t)| *t)
            .flat_map(|((_, l), _)| l)
            .collect();
        if height > 0 {
            let more = total - lines.len();
            let noun = if more == 1 { "line" } else { "lines" };
            lines.push(Line::from(Span::styled(
                format!("… {more} more {noun} in a taller pane"),
                theme.dim,
            )));
        }
        lines
    }
}
