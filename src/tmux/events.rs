//! tmux telling greenroom what changed, instead of greenroom asking every
//! second: one control-mode client (`tmux -C`) per dashboard.
//!
//! The client sits in a session of its own, one per client
//! ([`EVENTS_SESSION_PREFIX`]`<pid>-<n>`), so it never changes
//! `#{session_attached}` or `#{session_last_attached}` of the operator's
//! sessions (last focus reads them); its flags `no-output` and
//! `ignore-size` keep pane output off the pipe and window sizes untouched.
//!
//! **Its lifecycle is chosen so that it cannot crash the tmux server.**
//! tmux up to 3.6 dereferences a control client's state at moments it is
//! not there, and each of greenroom's old habits met one of them (a
//! stress test of dashboards started and ended on a busy server, see
//! `tests/tmux_stress.rs`, segfaulted tmux 3.3a within a minute or two):
//! - `destroy-unattached` on the client's session: tmux destroyed the
//!   session while the exiting client still pointed at it, and the next
//!   turn of its loop read the dead session's window (`segfault at 10`,
//!   `server_client_check_modes`, tmux issue 4851). No option here
//!   destroys a session: greenroom ends its own session itself.
//! - A session taken from under a subscribed client: its subscription
//!   timer reads the client's session, now none (tmux issue 4916, fixed in
//!   3.7). The subscription is removed before the session is ended.
//! - A client killed before tmux had finished setting it up (tmux issues
//!   4980 and 5004, fixed in 3.7): greenroom never kills its client; it
//!   closes the client's input, which tmux reads as its end of file and
//!   ends the client its own way. A dashboard killed with `kill -9` closes
//!   that input too (the kernel does).
//! - A notification reaching a client tmux is still setting up (4980): the
//!   client starts with a small environment, so its setup is a few
//!   messages rather than one per variable of the operator's environment.
//!   This shortens that window; only tmux 3.7 closes it.
//!
//! The end, in order ([`EventClient`]'s drop): the subscription removed,
//! the session killed through the client itself (tmux's own path moves
//! the client off it and ends it), the input closed, the process reaped
//! off the caller's thread. A session left by a dashboard that was killed
//! (no chance to end it) is ended by the next one to start, once no
//! client is in it ([`Tmux::sweep_events_sessions`]).
//!
//! What it listens to: tmux's notifications for sessions, windows and
//! clients coming, going and moving (`%sessions-changed`, `%window-add`,
//! `%window-close`, `%unlinked-window-*`, `%session-renamed`,
//! `%client-session-changed` for an attach or a switch, …) and one format
//! subscription (`refresh-client -B`, tmux ≥ 3.2) for pane deaths, which
//! no notification reports (remain-on-exit keeps the dead pane). Each of
//! those is [`Event::Changed`]: the poll runs on it, through the same
//! client ([`super::Control`]). `%exit` or the pipe closing is
//! [`Event::Lost`], and greenroom polls again until it reconnects.
//!
//! The subscription reads, for every session, whether its current pane is
//! dead: tmux expands it once a second, 0.4 % of a core at 1,000 sessions
//! while nothing happens. A `pane-died` hook on greenroom's windows would
//! cost nothing at idle, but tmux 3.3a at times ran it more than 10 s late
//! or not at all when a program was killed by a signal (its pty closing
//! with it), while `pane_dead` turns at once. A dead pane that is not its window's current one shows
//! at the next read of its session: each second for an agent at work, else
//! the reconciling poll.
//!
//! Pane activity is no event: at 1,000 sessions reading each window's
//! activity once a second costs tmux more than 1 % of a core. Activity is read instead where it decides something within
//! seconds: the sessions whose agent works (`crate::freshness`), asked for
//! by id each second, and every session at the reconciling poll.

use std::process::{Child, Stdio};

use super::control::{self, Control, Line};
use super::{Tmux, TmuxError};

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

/// The subscription: per session, whether its current pane died. One
/// variable a session is the least tmux can look at (0.4 % of a core at
/// 1,000 sessions on the 2-core benchmark machine, against 2.1 % with each
/// window's activity and each pane). The value itself is not read (the
/// poll reads the facts); that it changed is the news.
const SUBSCRIPTION: &str = "greenroom::#{S:#{pane_dead}}";

/// How long the end waits for tmux to remove the subscription and the
/// session: a hung server must not hold a dashboard's quit.
const END_WAIT: std::time::Duration = std::time::Duration::from_millis(500);

/// The variables the client keeps: where the server is (`TMUX`,
/// `TMUX_TMPDIR`), the locale, and what its session's note needs. Every
/// other variable would be one more message of the client's setup.
const KEPT_ENVIRONMENT: &[&str] = &[
    "TMUX",
    "TMUX_TMPDIR",
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "TERM",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "XDG_RUNTIME_DIR",
];

/// The oldest tmux with format subscriptions.
const SINCE: (u32, u32) = (3, 2);

/// The first tmux whose control clients cannot crash the server (tmux
/// issues 4916, 4980 and 5004 fixed; see the module's header).
const SAFE_SINCE: (u32, u32) = (3, 7);

/// When greenroom listens to tmux: the `tmux_events` setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Listening {
    /// On tmux 3.7 or later, whose control clients cannot crash the
    /// server; older ones are polled.
    #[default]
    Auto,
    /// On any tmux with subscriptions (3.2 or later): the operator takes
    /// the chance older releases carry (a notification landing while tmux
    /// sets the client up, which no client can prevent).
    Always,
    /// Never: greenroom polls.
    Never,
}

/// What the control client reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// Listening: the subscription is in place and has reported its value
    /// as it stands (about a second after the client starts).
    Connected,
    /// Something in tmux changed: sessions, windows, clients, a pane died.
    Changed,
    /// A window closed (`@4`): its session may be gone with it. A change too.
    WindowClosed(String),
    /// The client is gone (tmux exited, the server restarted): why.
    Lost(String),
    /// This tmux is polled (older than 3.2, or than 3.7 with `tmux_events`
    /// left to `"auto"`): its `tmux -V`.
    Unsupported(String),
}

/// Why the control client could not start.
#[derive(Debug, thiserror::Error)]
pub enum ListenError {
    /// `tmux -V` of a tmux older than 3.2.
    #[error("{0} has no format subscriptions (tmux 3.2 or later has): polling")]
    Unsupported(String),
    /// `tmux -V` of a tmux before 3.7, under [`Listening::Auto`].
    #[error(
        "{0} can crash under a control client (tmux 3.7 fixed it): polling; tmux_events = true listens anyway"
    )]
    CrashProne(String),
    #[error(transparent)]
    Tmux(#[from] TmuxError),
}

/// The running control client; dropping it ends it (and its session).
pub struct EventClient {
    /// `None` once handed to the reaper.
    child: Option<Child>,
    control: Control,
    /// Its own session's name ([`EVENTS_SESSION_PREFIX`]…).
    session: String,
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
fn reap(mut child: Child) {
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
fn next_session_name() -> String {
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
    format!("{EVENTS_SESSION_PREFIX}{}-{n}", std::process::id())
}

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

impl Tmux {
    /// `tmux -V`, e.g. "tmux 3.3a".
    pub fn version(&self) -> Result<String, TmuxError> {
        self.run(["-V"]).map(|v| v.trim().to_owned())
    }

    /// Starts the control client on a running server; `on_event` is called
    /// from its reader thread for every event, last with [`Event::Lost`].
    pub fn listen(
        &self,
        when: Listening,
        on_event: impl Fn(Event) + Send + 'static,
    ) -> Result<EventClient, ListenError> {
        // Shown in the header: a version, not whatever a wrapper printed.
        let version: String = self
            .version()?
            .chars()
            .filter(|c| !c.is_control())
            .take(40)
            .collect();
        if when == Listening::Never || !supports_events(&version) {
            return Err(ListenError::Unsupported(version));
        }
        if when == Listening::Auto && !events_are_safe(&version) {
            return Err(ListenError::CrashProne(version));
        }
        self.sweep_events_sessions();
        // The pane runs nothing but a note for whoever looks: it is not an agent.
        let note = "printf 'greenroom reads tmux events through this session; it ends when greenroom quits.\\n'; exec tail -f /dev/null";
        // The setup rides on the command line: tmux runs it once the client
        // is attached (written to its input early, a fresh server may drop
        // it or answer "no current client"). No pane output, no say in
        // window sizes, and the subscription. `detach-on-destroy on` keeps
        // the client from moving into an operator's session when greenroom
        // ends its own (the option's global value may say otherwise).
        let session = next_session_name();
        let own = format!("={session}:");
        let mut command = self.command();
        command.env_clear().envs(
            std::env::vars_os()
                .filter(|(k, _)| k.to_str().is_some_and(|k| KEPT_ENVIRONMENT.contains(&k))),
        );
        let mut child = command
            .args(["-C", "new-session", "-s", &session])
            .args(["-x", "80", "-y", "24", note])
            .args([";", "refresh-client", "-f", "no-output,ignore-size"])
            .args([";", "set-option", "-t", &own, "detach-on-destroy", "on"])
            .args([";", "refresh-client", "-B", SUBSCRIPTION])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => TmuxError::NotInstalled,
                _ => TmuxError::Io(e),
            })?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            // Not reachable (both were asked for); the child never got a
            // pipe to read, so dropping it is its end.
            reap(child);
            return Err(ListenError::Tmux(TmuxError::Failed {
                command: "-C".into(),
                message: "no pipe to the control client".into(),
            }));
        };
        let control = Control::new(input);
        let (reader, started) = (control.clone(), std::time::Instant::now());
        let spawned = std::thread::Builder::new()
            .name("tmux-events".into())
            .spawn(move || {
                let mut setup = Setup::default();
                let why = control::read(output, &reader, &mut |line| setup.sort(line, &on_event));
                tracing::debug!(%why, lived = ?started.elapsed(), "tmux events ended");
                on_event(Event::Lost(why));
            });
        let client = EventClient {
            child: Some(child),
            control,
            session,
        };
        // With no reader the client is ended at once, its own way.
        spawned.map_err(TmuxError::Io)?;
        Ok(client)
    }

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

/// The command line's commands: the new session and the three of the setup.
const SETUP_REPLIES: usize = 4;

/// What the reader has seen of the setup: the command line's four
/// commands answer in order, then the subscription reports its first value
/// (within a second): from then on greenroom is listening.
#[derive(Default)]
struct Setup {
    answered: usize,
    subscribed: bool,
}

impl Setup {
    /// Turns a line into an event; `Some(why)` ends the client.
    fn sort(&mut self, line: Line<'_>, on_event: &dyn Fn(Event)) -> Option<String> {
        match line {
            Line::Setup(Err(message)) => {
                return Some(format!(
                    "tmux refused greenroom's event subscription: {message}"
                ));
            }
            Line::Setup(Ok(_)) => self.answered += 1,
            Line::Notification(text) => {
                let word = text.split_whitespace().next().unwrap_or("");
                if word == "%exit" {
                    return Some("tmux ended the control client (server gone?)".to_owned());
                }
                if self.answered < SETUP_REPLIES {
                    return None;
                }
                if !self.subscribed {
                    // The value as it stands, not a death: the news is a
                    // change from it. What changed before is read by the
                    // poll that follows connecting.
                    if word == "%subscription-changed" {
                        self.subscribed = true;
                        on_event(Event::Connected);
                    }
                } else if changes(word) {
                    on_event(closed_window(text).map_or(Event::Changed, Event::WindowClosed));
                }
            }
        }
        None
    }
}

/// The window a `%window-close @4` or `%unlinked-window-close @4` names.
fn closed_window(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    let (Some("%window-close" | "%unlinked-window-close"), Some(id)) = (words.next(), words.next())
    else {
        return None;
    };
    (id.starts_with('@') && super::poll::is_id(id)).then(|| id.to_owned())
}

/// Notifications that mean the poll's facts may have changed.
fn changes(word: &str) -> bool {
    matches!(
        word,
        "%sessions-changed"
            | "%session-renamed"
            | "%session-closed"
            | "%window-add"
            | "%window-close"
            | "%window-renamed"
            | "%unlinked-window-add"
            | "%unlinked-window-close"
            | "%unlinked-window-renamed"
            | "%client-detached"
            | "%client-session-changed"
            | "%subscription-changed"
    )
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

    #[test]
    fn a_closed_window_is_named() {
        assert_eq!(
            closed_window("%unlinked-window-close @12"),
            Some("@12".into())
        );
        assert_eq!(closed_window("%window-close @3"), Some("@3".into()));
        assert_eq!(closed_window("%window-close $3"), None);
        assert_eq!(closed_window("%window-add @3"), None);
        assert_eq!(closed_window("%window-close @3x"), None);
    }

    #[test]
    fn the_events_that_mean_a_poll() {
        assert!(changes("%sessions-changed"));
        assert!(changes("%subscription-changed"));
        assert!(!changes("%output"));
        assert!(!changes("%begin"));
    }
}
