//! Keys as data: every binding has a description, so help is generated from
//! the same table that dispatches. Keys can be rebound in config.toml:
//!
//! ```toml
//! [keys]
//! attach = ["enter", "a"]
//! quit = ["q", "ctrl-c"]
//! ```

use std::collections::BTreeMap;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::Command;

/// One key: a code and whether Ctrl or Alt is held (Shift is in the character).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
    pub alt: bool,
}

impl Key {
    pub const fn plain(code: KeyCode) -> Self {
        Self {
            code,
            ctrl: false,
            alt: false,
        }
    }

    pub fn from_event(e: &KeyEvent) -> Self {
        // Shift is already in an uppercase character; BackTab stands for Shift-Tab.
        Self {
            code: e.code,
            ctrl: e.modifiers.contains(KeyModifiers::CONTROL),
            alt: e.modifiers.contains(KeyModifiers::ALT),
        }
    }

    /// Parses `j`, `G`, `enter`, `ctrl-c`, `pgdn`, `?`, `space`, `f5`...
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut key = Key::plain(KeyCode::Null);
        let mut rest = text.trim();
        loop {
            let lower = rest.to_ascii_lowercase();
            if let Some(r) = lower
                .strip_prefix("ctrl-")
                .or_else(|| lower.strip_prefix("c-"))
            {
                key.ctrl = true;
                rest = &rest[rest.len() - r.len()..];
            } else if let Some(r) = lower
                .strip_prefix("alt-")
                .or_else(|| lower.strip_prefix("m-"))
            {
                key.alt = true;
                rest = &rest[rest.len() - r.len()..];
            } else {
                break;
            }
        }
        key.code = match rest.to_ascii_lowercase().as_str() {
            "enter" | "return" => KeyCode::Enter,
            "esc" | "escape" => KeyCode::Esc,
            "tab" => KeyCode::Tab,
            "backtab" | "shift-tab" => KeyCode::BackTab,
            "space" => KeyCode::Char(' '),
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            "pgup" | "pageup" => KeyCode::PageUp,
            "pgdn" | "pagedown" => KeyCode::PageDown,
            "backspace" => KeyCode::Backspace,
            "delete" | "del" => KeyCode::Delete,
            f if f.len() >= 2 && f.starts_with('f') && f[1..].parse::<u8>().is_ok() => {
                KeyCode::F(f[1..].parse().unwrap_or(1))
            }
            _ => {
                let mut chars = rest.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => KeyCode::Char(c),
                    _ => return Err(format!("unknown key {text:?}")),
                }
            }
        };
        Ok(key)
    }

    pub fn label(&self) -> String {
        let base = match self.code {
            KeyCode::Enter => "Enter".to_owned(),
            KeyCode::Esc => "Esc".to_owned(),
            KeyCode::Tab => "Tab".to_owned(),
            KeyCode::BackTab => "S-Tab".to_owned(),
            KeyCode::Char(' ') => "Space".to_owned(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Up => "↑".to_owned(),
            KeyCode::Down => "↓".to_owned(),
            KeyCode::Left => "←".to_owned(),
            KeyCode::Right => "→".to_owned(),
            KeyCode::Home => "Home".to_owned(),
            KeyCode::End => "End".to_owned(),
            KeyCode::PageUp => "PgUp".to_owned(),
            KeyCode::PageDown => "PgDn".to_owned(),
            KeyCode::F(n) => format!("F{n}"),
            other => format!("{other:?}"),
        };
        match (self.ctrl, self.alt) {
            (true, _) => format!("C-{base}"),
            (_, true) => format!("M-{base}"),
            _ => base,
        }
    }
}

/// A command, its description for help, and the help section it belongs to.
pub struct Binding {
    pub command: Command,
    pub description: &'static str,
    pub section: &'static str,
    pub defaults: &'static [&'static str],
}

/// The default keymap, k9s/lazygit style.
pub const BINDINGS: &[Binding] = &[
    Binding {
        command: Command::Down,
        description: "next session",
        section: "Move",
        defaults: &["j", "down"],
    },
    Binding {
        command: Command::Up,
        description: "previous session",
        section: "Move",
        defaults: &["k", "up"],
    },
    Binding {
        command: Command::Top,
        description: "first session",
        section: "Move",
        defaults: &["g", "home"],
    },
    Binding {
        command: Command::Bottom,
        description: "last session",
        section: "Move",
        defaults: &["G", "end"],
    },
    Binding {
        command: Command::PageDown,
        description: "page down",
        section: "Move",
        defaults: &["pgdn", "ctrl-d"],
    },
    Binding {
        command: Command::PageUp,
        description: "page up",
        section: "Move",
        defaults: &["pgup", "ctrl-u"],
    },
    Binding {
        command: Command::Attach,
        description: "attach to the session",
        section: "Act",
        defaults: &["enter"],
    },
    Binding {
        command: Command::New,
        description: "new session",
        section: "Act",
        defaults: &["n"],
    },
    Binding {
        command: Command::Kill,
        description: "kill the session",
        section: "Act",
        defaults: &["x"],
    },
    Binding {
        command: Command::Restore,
        description: "restore a dormant session",
        section: "Act",
        defaults: &["r"],
    },
    Binding {
        command: Command::Dismiss,
        description: "dismiss (archive) the session",
        section: "Act",
        defaults: &["D"],
    },
    Binding {
        command: Command::Send,
        description: "send a message",
        section: "Act",
        defaults: &["s"],
    },
    Binding {
        command: Command::Mark,
        description: "mark for a bulk kill or dismiss",
        section: "Act",
        defaults: &["space"],
    },
    Binding {
        command: Command::OpenBeside,
        description: "open in a pane beside",
        section: "Act",
        defaults: &["o"],
    },
    Binding {
        command: Command::ToggleTriage,
        description: "triage sort (health first)",
        section: "View",
        defaults: &["t"],
    },
    Binding {
        command: Command::Filter,
        description: "filter by name, folder, branch, task",
        section: "View",
        defaults: &["/"],
    },
    Binding {
        command: Command::CycleHealthFilter,
        description: "cycle a health filter",
        section: "View",
        defaults: &["f"],
    },
    Binding {
        command: Command::ToggleArchived,
        description: "show archived sessions too",
        section: "View",
        defaults: &["A"],
    },
    Binding {
        command: Command::NextTab,
        description: "next detail tab",
        section: "View",
        defaults: &["tab"],
    },
    Binding {
        command: Command::TogglePreview,
        description: "live preview of the pane",
        section: "View",
        defaults: &["p"],
    },
    Binding {
        command: Command::ShowProblems,
        description: "files greenroom could not read",
        section: "View",
        defaults: &["!"],
    },
    Binding {
        command: Command::Help,
        description: "this help",
        section: "View",
        defaults: &["?"],
    },
    Binding {
        command: Command::Quit,
        description: "quit (sessions keep running)",
        section: "View",
        defaults: &["q", "ctrl-c"],
    },
];

/// The live key table: defaults, with config overrides applied per command.
#[derive(Debug, Clone)]
pub struct Keymap {
    keys: Vec<(Key, Command)>,
}

impl Keymap {
    /// `overrides`: command name -> keys, from config.toml's `[keys]`.
    /// Refuses an unknown command or key name, and a key two commands
    /// would share (the first would silently win, so the other stops
    /// working).
    pub fn new(overrides: &BTreeMap<String, Vec<String>>) -> Result<Self, String> {
        let known: Vec<&str> = BINDINGS.iter().map(|b| b.command.name()).collect();
        if let Some(unknown) = overrides.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(format!(
                "[keys] has no command {unknown:?}; use one of: {}",
                known.join(", ")
            ));
        }
        let mut keys: Vec<(Key, Command)> = Vec::new();
        for b in BINDINGS {
            let texts: Vec<&str> = match overrides.get(b.command.name()) {
                Some(list) => list.iter().map(String::as_str).collect(),
                None => b.defaults.to_vec(),
            };
            for t in texts {
                let key = Key::parse(t).map_err(|e| {
                    format!(
                        "[keys] {}: {e}; key names are a character (j, G, /), enter, esc, tab, \
                         space, up, down, pgup, pgdn, home, end, f1..f12, with ctrl- or alt-",
                        b.command.name()
                    )
                })?;
                if let Some((_, other)) = keys.iter().find(|(k, c)| *k == key && *c != b.command) {
                    return Err(conflict(key, *other, b.command, overrides));
                }
                keys.push((key, b.command));
            }
        }
        Ok(Self { keys })
    }

    pub fn lookup(&self, key: Key) -> Option<Command> {
        self.keys.iter().find(|(k, _)| *k == key).map(|(_, c)| *c)
    }

    /// The keys bound to a command, as shown in help and hints.
    pub fn keys_for(&self, command: Command) -> Vec<Key> {
        self.keys
            .iter()
            .filter(|(_, c)| *c == command)
            .map(|(k, _)| *k)
            .collect()
    }

    pub fn label(&self, command: Command) -> String {
        self.keys_for(command)
            .iter()
            .map(Key::label)
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// Checks config.toml's `[keys]` without building the dashboard, so every
/// command refuses a bad binding, not only the dashboard at start.
pub fn check(overrides: &BTreeMap<String, Vec<String>>) -> Result<(), String> {
    Keymap::new(overrides).map(drop)
}

/// "key j is bound to both down and quit": names both bindings, and says
/// which of them `[keys]` set.
fn conflict(
    key: Key,
    first: Command,
    second: Command,
    overrides: &BTreeMap<String, Vec<String>>,
) -> String {
    let describe = |c: Command| match overrides.get(c.name()) {
        Some(list) => format!("`{}` ({} = {list:?})", c.name(), c.name()),
        None => {
            let what = BINDINGS
                .iter()
                .find(|b| b.command == c)
                .map_or("", |b| b.description);
            format!("`{}` ({what}, its default key)", c.name())
        }
    };
    format!(
        "[keys]: {} is bound to both {} and {}; give one of them another key",
        key.label(),
        describe(first),
        describe(second)
    )
}

impl Default for Keymap {
    fn default() -> Self {
        Self::new(&BTreeMap::new()).unwrap_or(Self { keys: Vec::new() })
    }
}
