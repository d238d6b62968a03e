//! The control client's own session and its end: named apart for each
//! client, ended by greenroom in the order that cannot crash tmux, and
//! swept when a killed dashboard left it (the parent module's header says
//! why each step is there).

use std::process::Child;

use super::super::{Control, Tmux};

/// The start of the name of each control client's own session; the rest
/// is the process id and a count (`greenroom-events-4242-1`).
pub const EVENTS_SESSION_PREFIX: &str = "greenroom-events-";

/// The one name all clients shared before they had one each; a session of
/// that name left behind is swept like the others.
const SHARED_EVENTS_SESSION: &str = "greenroom-events";

/// Is this one of greenroom's control clients' sessions?
pub fn is_events_session(name: &str) -> bool {
    name == SHARED_EVENTS_SESSION
        || name
            .strip_prefix(EVENTS_SESSION_PREFIX)
            .is_some_and(|rest| {
                !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit() || b == b'-')
            })
}

/// The subscription's name, which `refresh-client -B` also takes alone to
/// remove it.
const SUBSCRIPTION_NAME: &str = "greenroom";

/// How long the end waits for tmux to remove the subscription and the
/// session: a hung server must not hold a dashboard's quit.
const END_WAIT: std::time::Duration = std::time::Duration::from_millis(500);

/// The running control client; dropping it ends it (and its session).
pub struct EventClient {
    /// `None` once handed to the reaper.
    pub(super) child: Option<Child>,
    pub(super) control: Control,
    /// Its own session's name ([`EVENTS_SESSION_PREFIX`]…).
    pub(super) session: String,
}

impl EventClient {
    /// Runs commands through this client (no tmux process per command).
    pub fn control(&self) -> Control {
        self.control.clone()
    }

    /// Its own session's name.
    pub fn session(&self) -> &str {
        &self.session
    }
}

impl Drop for EventClient {
    /// The end the module's header describes; never a kill (see there).
    fn drop(&mut self) {
        let _ = self.control.run_all_within(
            &[
                format!("refresh-client -B {SUBSCRIPTION_NAME}"),
                format!("kill-session -t ={}", self.session),
            ],
            END_WAIT,
        );
        self.control.close();
        if let Some(child) = self.child.take() {
            reap(child);
        }
    }
}

/// Waits for the client's process off the caller's thread: tmux ends it
/// when it has read the end of its input, which a busy server may take a
/// moment to do.
pub(super) fn reap(mut child: Child) {
    if matches!(child.try_wait(), Ok(Some(_))) {
        return;
    }
    let waited = std::thread::Builder::new()
        .name("tmux-events-end".into())
        .spawn(move || {
            let _ = child.wait();
        });
    if let Err(e) = waited {
        tracing::debug!(%e, "no thread to reap the control client; it is left to exit alone");
    }
}

/// Tells the client sessions apart: pid, then a count within the process.
pub(super) fn next_session_name() -> String {
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
    format!("{EVENTS_SESSION_PREFIX}{}-{n}", std::process::id())
}

/// The events sessions in a `s NAME` / `c SESSION` listing that no client
/// is in.
fn orphaned_events_sessions(listed: &str) -> Vec<&str> {
    let in_use: std::collections::HashSet<&str> = listed
        .lines()
        .filter_map(|l| l.strip_prefix("c "))
        .collect();
    listed
        .lines()
        .filter_map(|l| l.strip_prefix("s "))
        .filter(|name| is_events_session(name) && !in_use.contains(name))
        .collect()
}

impl Tmux {
    /// Ends the sessions of control clients that are gone (a dashboard
    /// killed before it could end its own): those no client is in. A
    /// session a client is still in, even one on its way out, is left
    /// alone: taking it from a subscribed client crashes tmux before 3.7.
    pub fn sweep_events_sessions(&self) {
        let listed = self.run([
            "list-sessions",
            "-F",
            "s #{session_name}",
            ";",
            "list-clients",
            "-F",
            "c #{client_session}",
        ]);
        let Ok(listed) = listed else { return };
        for name in orphaned_events_sessions(&listed) {
            if let Err(e) = self.run(["kill-session", "-t", &format!("={name}")]) {
                tracing::debug!(%e, name, "a left events session stays");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_sessions_by_name() {
        for ours in [
            "greenroom-events",
            "greenroom-events-42-1",
            "greenroom-events-7",
        ] {
            assert!(is_events_session(ours), "{ours}");
        }
        for theirs in [
            "greenroom-events-",
            "greenroom-events-x",
            "greenroom-events2",
            "api-1",
            "greenroom-events-1;",
        ] {
            assert!(!is_events_session(theirs), "{theirs}");
        }
        assert!(next_session_name().starts_with(EVENTS_SESSION_PREFIX));
        assert!(is_events_session(&next_session_name()));
    }

    #[test]
    fn only_sessions_no_client_is_in_are_swept() {
        let listed = "s api-1\ns greenroom-events-1-1\ns greenroom-events-2-1\ns greenroom-events\nc greenroom-events-2-1\nc api-1\n";
        assert_eq!(
            orphaned_events_sessions(listed),
            ["greenroom-events-1-1", "greenroom-events"]
        );
    }
}
