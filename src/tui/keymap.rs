//! Keys as data, one layer per input mode, in one table
//! (`keymap/bindings.rs`, one row per binding): every row has the command's
//! `[keys]` name and a description, so `Command::name()`, help and each
//! dialog's hint line are generated from the same table that dispatches. The main layer's keys can
//! be rebound in config.toml; the dialogs' layers keep their defaults:
//!
//! ```toml
//! [keys]
//! attach = ["enter", "a"]
//! quit = ["q", "ctrl-c"]
//! ```

mod bindings;
mod key;
mod layer;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

pub use bindings::{BINDINGS, Binding};
pub use key::Key;
pub use layer::Layer;

use super::action::Command;

/// The live key table: defaults, with config overrides applied to the
/// main layer's commands.
#[derive(Debug, Clone)]
pub struct Keymap {
    keys: Vec<(Layer, Key, Command)>,
}

impl Keymap {
    /// `overrides`: command name -> keys, from config.toml's `[keys]`.
    /// Refuses an unknown command or key name, and a key two commands of
    /// one layer would share (the first would silently win, so the other
    /// stops working).
    pub fn new(overrides: &BTreeMap<String, Vec<String>>) -> Result<Self, String> {
        let known: Vec<&str> = BINDINGS
            .iter()
            .filter(|b| b.layer == Layer::Normal)
            .map(|b| b.name)
            .collect();
        if let Some(unknown) = overrides.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(format!(
                "[keys] has no command {unknown:?}; use one of: {}",
                known.join(", ")
            ));
        }
        let mut keys: Vec<(Layer, Key, Command)> = Vec::new();
        for b in BINDINGS {
            let texts: Vec<&str> = match overrides.get(b.name) {
                Some(list) if b.layer == Layer::Normal => list.iter().map(String::as_str).collect(),
                _ => b.defaults.to_vec(),
            };
            for t in texts {
                let key = Key::parse(t).map_err(|e| {
                    format!(
                        "[keys] {}: {e}; key names are a character (j, G, /), enter, esc, tab, \
                         space, up, down, pgup, pgdn, home, end, f1..f12, with ctrl- or alt-",
                        b.name
                    )
                })?;
                let shared = keys
                    .iter()
                    .find(|(l, k, c)| *l == b.layer && *k == key && *c != b.command);
                if let Some((_, _, other)) = shared {
                    return Err(conflict(b.layer, key, (*other, b.command), overrides));
                }
                keys.push((b.layer, key, b.command));
            }
        }
        Ok(Self { keys })
    }

    /// The command `key` means in `layer`, else in the keys every mode shares.
    pub fn lookup_in(&self, layer: Layer, key: Key) -> Option<Command> {
        let find = |layer: Layer| {
            self.keys
                .iter()
                .find(|(l, k, _)| *l == layer && *k == key)
                .map(|(_, _, c)| *c)
        };
        find(layer).or_else(|| find(Layer::Anywhere))
    }

    /// The main layer's command for `key`.
    pub fn lookup(&self, key: Key) -> Option<Command> {
        self.lookup_in(Layer::Normal, key)
    }

    /// The keys bound to a command of `layer`, as configured.
    pub fn keys_in(&self, layer: Layer, command: Command) -> Vec<Key> {
        self.keys
            .iter()
            .filter(|(l, _, c)| *l == layer && *c == command)
            .map(|(_, k, _)| *k)
            .collect()
    }

    /// The main layer's keys for a command, as shown in help and hints.
    pub fn keys_for(&self, command: Command) -> Vec<Key> {
        self.keys_in(Layer::Normal, command)
    }

    pub fn label_in(&self, layer: Layer, command: Command) -> String {
        self.keys_in(layer, command)
            .iter()
            .map(Key::label)
            .collect::<Vec<_>>()
            .join("/")
    }

    pub fn label(&self, command: Command) -> String {
        self.label_in(Layer::Normal, command)
    }

    /// The first key of a command of `layer`, as hints show it ("?" rather
    /// than "?/F1"); `None` when `[keys]` left it none.
    pub fn first_label_in(&self, layer: Layer, command: Command) -> Option<String> {
        self.keys_in(layer, command).first().map(Key::label)
    }

    /// A layer's hint line: (first key, word) per binding that has a hint,
    /// in table order; neighbours with the same word share one entry ("↓/↑ field").
    pub fn hints(&self, layer: Layer) -> Vec<(String, &'static str)> {
        let mut out: Vec<(String, &'static str)> = Vec::new();
        for b in BINDINGS
            .iter()
            .filter(|b| b.layer == layer && !b.hint.is_empty())
        {
            let Some(keys) = self.first_label_in(layer, b.command) else {
                continue;
            };
            match out.last_mut() {
                Some((label, word)) if *word == b.hint => {
                    label.push('/');
                    label.push_str(&keys);
                }
                _ => out.push((keys, b.hint)),
            }
        }
        out
    }
}

/// Checks config.toml's `[keys]` without building the dashboard, so every
/// command refuses a bad binding, not only the dashboard at start.
pub fn check(overrides: &BTreeMap<String, Vec<String>>) -> Result<(), String> {
    Keymap::new(overrides).map(drop)
}

/// "key j is bound to both down and quit": names both bindings of `layer`,
/// and says which of them `[keys]` set.
fn conflict(
    layer: Layer,
    key: Key,
    (first, second): (Command, Command),
    overrides: &BTreeMap<String, Vec<String>>,
) -> String {
    let describe = |c: Command| match overrides.get(c.name()) {
        Some(list) => format!("`{}` ({} = {list:?})", c.name(), c.name()),
        None => {
            let what = BINDINGS
                .iter()
                .find(|b| b.layer == layer && b.command == c)
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
