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

use std::process::Stdio;

use crate::process::Environment;

use super::control::{self, Control, Line};
use super::{Tmux, TmuxError};

mod client;
mod version;
pub use client::{EVENTS_SESSION_PREFIX, EventClient, is_events_session};
use client::{next_session_name, reap};
pub use version::{events_are_safe, supports_events};

/// The subscription: per session, whether its current pane died. One
/// variable a session is the least tmux can look at (0.4 % of a core at
/// 1,000 sessions on the 2-core benchmark machine, against 2.1 % with each
/// window's activity and each pane). The value itself is not read (the
/// poll reads the facts); that it changed is the news.
const SUBSCRIPTION: &str = "greenroom::#{S:#{pane_dead}}";

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
        let mut spec = self.spec();
        spec.environment(Environment::Only(KEPT_ENVIRONMENT));
        let mut child = spec
            .command()
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
