//! Which tmux releases greenroom listens to: those with format
//! subscriptions, and among them those whose control clients cannot crash
//! the server.

/// The oldest tmux with format subscriptions.
const SINCE: (u32, u32) = (3, 2);

/// The first tmux whose control clients cannot crash the server (tmux
/// issues 4916, 4980 and 5004 fixed; see the module's header).
const SAFE_SINCE: (u32, u32) = (3, 7);

/// Can this tmux (`tmux -V`'s answer) push events?
pub fn supports_events(version: &str) -> bool {
    at_least(version, SINCE)
}

/// Is this tmux (`tmux -V`'s answer) one whose control clients cannot
/// crash the server?
pub fn events_are_safe(version: &str) -> bool {
    at_least(version, SAFE_SINCE)
}

/// Is `tmux -V`'s answer this release or a later one?
fn at_least(version: &str, since: (u32, u32)) -> bool {
    let number = version
        .split_whitespace()
        .nth(1)
        .map(|v| v.trim_start_matches("next-"))
        .unwrap_or("");
    let mut parts = number.split(|c: char| !c.is_ascii_digit());
    let major = parts.next().and_then(|p| p.parse::<u32>().ok());
    let minor = parts
        .next()
        .and_then(|p| p.parse::<u32>().ok())
        .unwrap_or(0);
    match major {
        // A build from git ("tmux master") is newer than any release.
        None => number == "master",
        Some(m) => (m, minor) >= since,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_with_and_without_subscriptions() {
        for new in [
            "tmux 3.3a",
            "tmux 3.2",
            "tmux next-3.5",
            "tmux master",
            "tmux 10.0",
        ] {
            assert!(supports_events(new), "{new}");
        }
        for old in ["tmux 3.1c", "tmux 2.9a", "tmux 3.0", "", "tmux"] {
            assert!(!supports_events(old), "{old}");
        }
    }

    #[test]
    fn only_releases_with_the_fixes_are_listened_to_by_default() {
        for safe in [
            "tmux 3.7",
            "tmux 3.7b",
            "tmux next-3.8",
            "tmux master",
            "tmux 4.0",
        ] {
            assert!(events_are_safe(safe), "{safe}");
        }
        for prone in ["tmux 3.3a", "tmux 3.5a", "tmux 3.6b", "tmux 3.2", ""] {
            assert!(!events_are_safe(prone), "{prone}");
        }
    }
}
