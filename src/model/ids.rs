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
