//! tmux telling greenroom what changed, instead of greenroom asking every
//! second: one control-mode client (`tmux -C`) per dashboard.
//!
//! The client sits in a session of its own, [`EVENTS_SESSION`], so it never
//! changes `#{session_attached}` or `#{session_last_attached}` of the
//! operator's sessions (last focus reads them); its flags `no-output` and
//! `ignore-size` keep pane output off the pipe and window sizes untouched;
//! the session is destroyed when the client goes (`destroy-unattached`).
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

/// The session greenroom's control client attaches to.
pub const EVENTS_SESSION: &str = "greenroom-events";

/// The subscription: per session, whether its current pane died. One
/// variable a session is the least tmux can look at (0.4 % of a core at
/// 1,000 sessions on the 2-core benchmark machine, against 2.1 % with each
/// window's activity and each pane). The value itself is not read (the
/// poll reads the facts); that it changed is the news.
const SUBSCRIPTION: &str = "greenroom::#{S:#{pane_dead}}";

/// The oldest tmux with format subscriptions.
const SINCE: (u32, u32) = (3, 2);

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
    /// This tmux cannot push events (older than 3.2): its `tmux -V`.
    Unsupported(String),
}

/// Why the control client could not start.
#[derive(Debug, thiserror::Error)]
pub enum ListenError {
    /// `tmux -V` of a tmux older than 3.2.
    #[error("{0} has no format subscriptions (tmux 3.2 or later has): polling")]
    Unsupported(String),
    #[error(transparent)]
    Tmux(#[from] TmuxError),
}

/// The running control client; dropping it ends it (and its session).
pub struct EventClient {
    child: Child,
    control: Control,
}

impl EventClient {
    /// Runs commands through this client (no tmux process per command).
    pub fn control(&self) -> Control {
        self.control.clone()
    }
}

impl Drop for EventClient {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Can this tmux (`tmux -V`'s answer) push events?
pub fn supports_events(version: &str) -> bool {
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
        Some(m) => (m, minor) >= SINCE,
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
        on_event: impl Fn(Event) + Send + 'static,
    ) -> Result<EventClient, ListenError> {
        // Shown in the header: a version, not whatever a wrapper printed.
        let version: String = self
            .version()?
            .chars()
            .filter(|c| !c.is_control())
            .take(40)
            .collect();
        if !supports_events(&version) {
            return Err(ListenError::Unsupported(version));
        }
        // The pane runs nothing but a note for whoever looks: it is not an agent.
        let note = "printf 'greenroom reads tmux events through this session; it ends when greenroom quits.\\n'; exec tail -f /dev/null";
        // The setup rides on the command line: tmux runs it once the client
        // is attached (written to its input early, a fresh server may drop
        // it or answer "no current client"). No pane output, no say in
        // window sizes, its session gone with it, and the subscription.
        // `destroy-unattached` names its session exactly rather than trust
        // tmux's "current" session: set on any other, the client's going
        // would take that session, an agent's, with it.
        let own = format!("={EVENTS_SESSION}:");
        let mut child = self
            .command()
            .args(["-C", "new-session", "-A", "-s", EVENTS_SESSION])
            .args(["-x", "80", "-y", "24", note])
            .args([";", "refresh-client", "-f", "no-output,ignore-size"])
            .args([";", "set-option", "-t", &own, "destroy-unattached", "on"])
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
            let _ = child.kill();
            let _ = child.wait();
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
        if let Err(e) = spawned {
            let _ = child.kill();
            let _ = child.wait();
            return Err(TmuxError::Io(e).into());
        }
        Ok(EventClient { child, control })
    }
}

/// The command line's commands: attaching and the three of the setup.
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
