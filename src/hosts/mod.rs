//! Other machines whose sessions greenroom shows: `[[hosts]]` in
//! config.toml, and the ssh connection to each (`ssh.rs`, the only code
//! that runs ssh). What a host sends back is parsed in
//! `sources/wire/read.rs`.

pub mod list;
pub mod remote;
pub mod ssh;
pub mod stream;

use serde::Deserialize;

/// One `[[hosts]]` entry as written in config.toml.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostConfig {
    /// The short tag rows carry: `[A-Za-z0-9_.-]{1,32}`.
    pub name: String,
    /// Anything `ssh` accepts as a destination (`build`, `me@10.0.0.5`): the
    /// user's `~/.ssh/config` applies.
    pub ssh: String,
    /// Extra ssh arguments, e.g. `["-p", "2222", "-i", "~/.ssh/build_key"]`.
    #[serde(default)]
    pub ssh_options: Vec<String>,
    /// greenroom on that host [default: `greenroom` on its PATH]; `~/` is
    /// its home.
    #[serde(default)]
    pub greenroom: Option<String>,
}

/// The longest host tag.
pub const MAX_NAME: usize = 32;

/// Checks the `[[hosts]]` list: names valid and unique, destinations that
/// ssh cannot take for an option.
pub fn check(hosts: &[HostConfig]) -> Result<(), String> {
    let mut seen = std::collections::BTreeSet::new();
    for h in hosts {
        let ok_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-');
        if h.name.is_empty() || h.name.len() > MAX_NAME || !h.name.chars().all(ok_char) {
            return Err(format!(
                "[[hosts]] name {:?}: use 1 to {MAX_NAME} letters, digits, '_', '.' or '-'",
                h.name
            ));
        }
        if h.name == "local" {
            return Err("[[hosts]] name \"local\" is this machine's; pick another".into());
        }
        if !seen.insert(h.name.as_str()) {
            return Err(format!("[[hosts]] name {:?} is used twice", h.name));
        }
        let dest = h.ssh.trim();
        if dest.is_empty() || dest.starts_with('-') || dest.chars().any(char::is_whitespace) {
            return Err(format!(
                "[[hosts]] {}: ssh = {:?} is not a destination (a host, user@host or an ~/.ssh/config alias)",
                h.name, h.ssh
            ));
        }
        if let Some(g) = &h.greenroom
            && (g.trim().is_empty() || g.contains('\n'))
        {
            return Err(format!(
                "[[hosts]] {}: greenroom = {g:?} is not a path",
                h.name
            ));
        }
    }
    Ok(())
}

pub use crate::sources::wire::valid_remote_id;

#[cfg(test)]
mod tests {
    use super::*;

    fn host(name: &str, ssh: &str) -> HostConfig {
        HostConfig {
            name: name.into(),
            ssh: ssh.into(),
            ssh_options: vec![],
            greenroom: None,
        }
    }

    #[test]
    fn names_and_destinations_are_checked() {
        assert!(check(&[host("build", "me@build"), host("vm-2", "vm2")]).is_ok());
        assert!(check(&[host("", "x")]).is_err());
        assert!(check(&[host("a b", "x")]).is_err());
        assert!(check(&[host("local", "x")]).is_err());
        assert!(check(&[host("a", "x"), host("a", "y")]).is_err());
        assert!(check(&[host("a", "-oProxyCommand=sh")]).is_err());
        assert!(check(&[host("a", "x y")]).is_err());
        assert!(check(&[host("a", "")]).is_err());
    }

    #[test]
    fn remote_ids_that_may_go_on_a_command_line() {
        assert!(valid_remote_id("0b7c3c57-8f0c-4d5e-9f61-1b1a2b3c4d5e"));
        assert!(valid_remote_id("maestro:s1"));
        assert!(!valid_remote_id("-rf"));
        assert!(!valid_remote_id("a;b"));
        assert!(!valid_remote_id("a b"));
        assert!(!valid_remote_id(""));
    }
}
