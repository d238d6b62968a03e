//! How a row is named: by where it runs and its id there, typed. No string
//! is built from the two to be read back: a host's name may hold any
//! character, and a host may send any id.

/// The name of a `[[hosts]]` entry (checked by `hosts::check`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HostName(String);

impl HostName {
    pub fn new(name: impl Into<String>) -> Self {
        Self(name.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for HostName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A host's row's place, typed, as its stream delivered it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HostPlace {
    pub name: HostName,
    /// The host's own id for the row (checked by `hosts::valid_remote_id`);
    /// the row's `Session.id` is the same.
    pub id: String,
}

/// One row of the dashboard's list: where it runs (`None`: this machine)
/// and its id there. Rows of two hosts, or of a host and this machine,
/// with the same id are two rows.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RowKey {
    pub host: Option<HostName>,
    pub id: String,
}

impl RowKey {
    /// A row of this machine.
    pub fn here(id: impl Into<String>) -> Self {
        Self {
            host: None,
            id: id.into(),
        }
    }

    /// A row of `host`, by the host's own id.
    pub fn on(host: HostName, id: impl Into<String>) -> Self {
        Self {
            host: Some(host),
            id: id.into(),
        }
    }

    /// This machine's row's id; `None` for a host's row.
    pub fn here_id(&self) -> Option<&str> {
        match self.host {
            None => Some(&self.id),
            Some(_) => None,
        }
    }
}

/// A checked tmux pane id: `%` followed by digits.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PaneId(String);

impl PaneId {
    pub fn parse(text: &str) -> Option<Self> {
        let digits = text.strip_prefix('%')?;
        (!digits.is_empty() && digits.len() <= 10 && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| Self(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for PaneId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// What greenroom hands tmux to act on a row: its session, by name, or
/// an adopted agent's pane alone. Turned into tmux's argument only when a
/// command is built (`Tmux::session_target`, `window_target`): a name
/// read from a file can never stand for a pane.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TmuxTarget {
    Session(String),
    Pane(PaneId),
}

impl From<&str> for TmuxTarget {
    fn from(name: &str) -> Self {
        Self::Session(name.to_owned())
    }
}

impl From<&String> for TmuxTarget {
    fn from(name: &String) -> Self {
        Self::Session(name.clone())
    }
}

impl From<&TmuxTarget> for TmuxTarget {
    fn from(target: &TmuxTarget) -> Self {
        target.clone()
    }
}

impl std::fmt::Display for TmuxTarget {
    /// For messages: the session's name, or the pane's id.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Session(name) => f.write_str(name),
            Self::Pane(pane) => write!(f, "{pane}"),
        }
    }
}
