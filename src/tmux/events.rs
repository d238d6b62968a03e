//! tmux telling greenroom what changed, instead of greenroom asking every
//! second: one control-mode client (`tmux -C`) per dashboard.
//!
//! The client sits in a session of its own, [`EVENTS_SESSION`], so it never
//! changes `#{session_attached}` or `#{session_last_attached}` of the
//! operator's sessions (last focus reads them); its flags `no-output` and
//! `ignore-size` keep pane output off the pipe and window sizes untouched;
//! the session is destroyed when the client goes (`destroy-unattached`).
//!
//! What it listens to: tmux's notifications for sessions and windows coming
//! and going (`%sessions-changed`, `%window-add`, `%window-close`,
//! `%unlinked-window-*`, `%session-renamed`, `%client-*`), and one format
//! subscription (`refresh-client -B`, tmux ≥ 3.2) over every session's
//! windows and panes: tmux re-evaluates it once a second, in the server,
//! and writes a line only when it changed, so pane activity, deaths and
//! attaches arrive without a poll. Each of those is [`Event::Changed`]; the
//! poll that reads the facts runs on it. `%exit` or the pipe closing is
//! [`Event::Lost`], and greenroom polls again until it reconnects.

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdin, Stdio};

use super::{Tmux, TmuxError};

/// The session greenroom's control client attaches to.
pub const EVENTS_SESSION: &str = "greenroom-events";

/// What the subscription watches: per session its last attach, per window
/// its activity, per pane whether it died and which it is (a pane split
/// off). Not the pane's program: tmux would read every pane's process each
/// second for it (a quarter of the subscription's cost at 1,000 sessions);
/// an agent started or ended in a plain pane renames its window
/// (`automatic-rename`, on by default), which `%window-renamed` reports.
/// The value itself is not read (the poll reads the facts); that it
/// changed is the news.
const DIGEST: &str = "#{session_last_attached}#{W:#{window_activity}#{P:#{pane_dead}#{pane_id}}}";

/// The subscription over every session but `quiet` (the dashboard's own,
/// by its id number: its frames are pane activity, and each would look
/// like news and poll again).
fn subscription(quiet: Option<u32>) -> String {
    match quiet {
        Some(n) => format!("greenroom::#{{S:#{{?#{{==:#{{session_id}},${n}}},,{DIGEST}}}}}"),
        None => format!("greenroom::#{{S:{DIGEST}}}"),
    }
}

/// The dashboard's own session when it runs inside this server: `$TMUX`'s
/// last field (`<socket>,<pid>,<session id number>`).
pub fn own_session(tmux_env: Option<&str>) -> Option<u32> {
    tmux_env?.rsplit(',').next()?.parse().ok()
}

/// The oldest tmux with format subscriptions.
const SINCE: (u32, u32) = (3, 2);

/// What the control client reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// Listening: the subscription is in place.
    Connected,
    /// Something in tmux changed: sessions, windows, activity, a pane died.
    Changed,
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
    /// `quiet`: a session whose activity is no news (the dashboard's own).
    pub fn listen(
        &self,
        quiet: Option<u32>,
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
        // window sizes, its session gone with it (`set-option` with no
        // target is the client's own session), and the subscription.
        let subscription = subscription(quiet);
        let mut child = self
            .command()
            .args(["-C", "new-session", "-A", "-s", EVENTS_SESSION])
            .args(["-x", "80", "-y", "24", note])
            .args([";", "refresh-client", "-f", "no-output,ignore-size"])
            .args([";", "set-option", "destroy-unattached", "on"])
            .args([";", "refresh-client", "-B", &subscription])
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
        let (tx, started) = (on_event, std::time::Instant::now());
        let spawned = std::thread::Builder::new()
            .name("tmux-events".into())
            .spawn(move || {
                let why = read_events(output, input, &tx);
                tracing::debug!(%why, lived = ?started.elapsed(), "tmux events ended");
                tx(Event::Lost(why));
            });
        if let Err(e) = spawned {
            let _ = child.kill();
            let _ = child.wait();
            return Err(TmuxError::Io(e).into());
        }
        Ok(EventClient { child })
    }
}

/// The command line's commands: attaching and the three of the setup.
const SETUP_REPLIES: usize = 4;

/// Reads the control client's lines until it ends, and says why it ended.
/// The command line's four commands answer in order; the last one's `%end`
/// means listening. `input` is held here: the client ends when it closes.
fn read_events(output: impl std::io::Read, input: ChildStdin, on_event: &dyn Fn(Event)) -> String {
    let _input = input;
    let mut answered = 0;
    // The text of a reply, for the message when tmux refuses a command.
    let mut reply = String::new();
    let mut reader = BufReader::new(output);
    let mut line = Vec::new();
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) => return "the tmux control client ended".to_owned(),
            Ok(_) => {}
            Err(e) => return format!("reading tmux events: {e}"),
        }
        let text = String::from_utf8_lossy(&line);
        let word = text.split_whitespace().next().unwrap_or("");
        match word {
            "%end" if answered < SETUP_REPLIES => {
                answered += 1;
                if answered == SETUP_REPLIES {
                    on_event(Event::Connected);
                }
            }
            "%error" if answered < SETUP_REPLIES => {
                return format!(
                    "tmux refused greenroom's event subscription: {}",
                    reply.trim()
                );
            }
            "%begin" => reply.clear(),
            w if !w.starts_with('%') && reply.len() < 200 => {
                reply.push_str(&crate::display::safe(text.trim_end()));
            }
            "%exit" => return "tmux ended the control client (server gone?)".to_owned(),
            _ if answered >= SETUP_REPLIES && changes(word) => on_event(Event::Changed),
            _ => {}
        }
    }
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
    fn the_dashboards_own_session_is_left_out() {
        assert_eq!(own_session(Some("/tmp/tmux-0/default,123,7")), Some(7));
        assert_eq!(own_session(Some("")), None);
        assert_eq!(own_session(None), None);
        assert!(subscription(Some(7)).contains("#{==:#{session_id},$7}"));
        assert!(!subscription(None).contains("#{?"));
    }

    #[test]
    fn the_events_that_mean_a_poll() {
        assert!(changes("%sessions-changed"));
        assert!(changes("%subscription-changed"));
        assert!(!changes("%output"));
        assert!(!changes("%begin"));
    }
}
