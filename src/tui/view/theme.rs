//! Colours and styles, and the phase glyphs (each health class's glyph is
//! `Health::glyph`).

use ratatui::style::{Color, Modifier, Style};

use crate::model::{Health, PhaseStatus};

/// The dashboard's styles. Views read it; nothing in it changes at run time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Theme {
    pub errored: Style,
    pub waiting: Style,
    pub stuck: Style,
    /// Its agent finished its turn and the operator has not looked since.
    pub ready: Style,
    pub active: Style,
    pub idle: Style,
    /// Dormant, killed and exited: sessions with no running process.
    pub dormant: Style,
    pub done: Style,
    /// The selected sidebar row.
    pub selected: Style,
    pub border: Style,
    /// Block titles and the app name.
    pub title: Style,
    /// The active detail tab.
    pub tab_active: Style,
    /// Labels, secondary text, hints.
    pub dim: Style,
    /// Key names in hints and help.
    pub key: Style,
    pub accent: Style,
    /// Contradictions, problems, unresolved errors.
    pub warning: Style,
    /// The "needs a look" marker on a row.
    pub attention: Style,
}

impl Theme {
    pub fn dark() -> Self {
        let fg = |c: Color| Style::new().fg(c);
        Self {
            errored: fg(Color::LightRed).add_modifier(Modifier::BOLD),
            waiting: fg(Color::Yellow).add_modifier(Modifier::BOLD),
            stuck: fg(Color::LightMagenta),
            ready: fg(Color::LightBlue).add_modifier(Modifier::BOLD),
            active: fg(Color::Green),
            idle: fg(Color::Cyan),
            dormant: fg(Color::Indexed(244)),
            done: fg(Color::Blue),
            selected: Style::new()
                .bg(Color::Indexed(236))
                .add_modifier(Modifier::BOLD),
            border: fg(Color::Indexed(240)),
            title: fg(Color::LightGreen).add_modifier(Modifier::BOLD),
            tab_active: fg(Color::Black)
                .bg(Color::LightGreen)
                .add_modifier(Modifier::BOLD),
            dim: fg(Color::Indexed(244)),
            key: fg(Color::LightCyan).add_modifier(Modifier::BOLD),
            accent: fg(Color::LightGreen),
            warning: fg(Color::LightYellow),
            attention: fg(Color::LightYellow).add_modifier(Modifier::BOLD),
        }
    }

    pub fn light() -> Self {
        let fg = |c: Color| Style::new().fg(c);
        Self {
            errored: fg(Color::Red).add_modifier(Modifier::BOLD),
            waiting: fg(Color::Indexed(130)).add_modifier(Modifier::BOLD),
            stuck: fg(Color::Magenta),
            ready: fg(Color::Indexed(20)).add_modifier(Modifier::BOLD),
            active: fg(Color::Indexed(28)),
            idle: fg(Color::Indexed(31)),
            dormant: fg(Color::Gray),
            done: fg(Color::Blue),
            selected: Style::new()
                .bg(Color::Indexed(253))
                .add_modifier(Modifier::BOLD),
            border: fg(Color::Gray),
            title: fg(Color::Indexed(28)).add_modifier(Modifier::BOLD),
            tab_active: fg(Color::White)
                .bg(Color::Indexed(28))
                .add_modifier(Modifier::BOLD),
            dim: fg(Color::Indexed(244)),
            key: fg(Color::Indexed(25)).add_modifier(Modifier::BOLD),
            accent: fg(Color::Indexed(28)),
            warning: fg(Color::Indexed(130)),
            attention: fg(Color::Indexed(130)).add_modifier(Modifier::BOLD),
        }
    }

    /// NO_COLOR: modifiers only (bold, reverse, dim), never a colour.
    pub fn no_color() -> Self {
        let m = |m: Modifier| Style::new().add_modifier(m);
        Self {
            errored: m(Modifier::BOLD),
            waiting: m(Modifier::BOLD),
            stuck: m(Modifier::BOLD),
            ready: m(Modifier::BOLD),
            active: Style::new(),
            idle: Style::new(),
            dormant: m(Modifier::DIM),
            done: m(Modifier::DIM),
            selected: m(Modifier::REVERSED),
            border: m(Modifier::DIM),
            title: m(Modifier::BOLD),
            tab_active: m(Modifier::REVERSED | Modifier::BOLD),
            dim: m(Modifier::DIM),
            key: m(Modifier::BOLD),
            accent: Style::new(),
            warning: m(Modifier::BOLD),
            attention: m(Modifier::BOLD),
        }
    }

    /// NO_COLOR set (non-empty) -> no colour; GREENROOM_THEME=light|dark; else dark.
    pub fn from_env(no_color: Option<&str>, theme: Option<&str>) -> Self {
        if no_color.is_some_and(|v| !v.is_empty()) {
            return Self::no_color();
        }
        match theme.map(|t| t.trim().to_ascii_lowercase()).as_deref() {
            Some("light") => Self::light(),
            _ => Self::dark(),
        }
    }

    pub fn health(&self, h: Health) -> Style {
        match h {
            Health::Errored => self.errored,
            Health::Waiting => self.waiting,
            Health::Stuck => self.stuck,
            Health::Ready => self.ready,
            Health::Active => self.active,
            Health::Idle => self.idle,
            Health::Dormant | Health::Killed | Health::Exited => self.dormant,
            Health::Done => self.done,
        }
    }

    pub fn phase(&self, s: &PhaseStatus) -> Style {
        match s {
            PhaseStatus::Completed => self.done,
            PhaseStatus::InProgress => self.active,
            PhaseStatus::Failed => self.errored,
            PhaseStatus::Pending | PhaseStatus::Skipped => self.dim,
            PhaseStatus::Unknown(_) => self.warning,
        }
    }
}

pub fn phase_glyph(s: &PhaseStatus) -> &'static str {
    match s {
        PhaseStatus::Completed => "✓",
        PhaseStatus::InProgress => "●",
        PhaseStatus::Failed => "✗",
        PhaseStatus::Pending => "□",
        PhaseStatus::Skipped => "–",
        PhaseStatus::Unknown(_) => "?",
    }
}
