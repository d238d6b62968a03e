//! send: text into a live session's pane, then Enter.
//!
//! Three rules, each from an agent that got it wrong otherwise:
//! - The text carries no control sequences. A message holding `ESC [201~`
//!   would end the agent's bracketed paste early, and what follows would be
//!   typed with a real Enter; every escape sequence and control character
//!   but newline and tab is removed before anything reaches tmux.
//! - Short single lines are typed (`send-keys -l`, so an agent's slash
//!   commands still work); anything longer, or with newlines or tabs, goes
//!   through a paste buffer loaded from stdin, since tmux refuses a command
//!   over about 16 KB.
//! - Enter waits until the text has landed. Gemini CLI reads an Enter that
//!   it handles within 30 ms of typed text, or within 40 ms of a paste, as
//!   a newline, not a submit; while it is busy (starting, running a hook)
//!   it reads keys late, all at once. So send watches the pane until the
//!   text shows and the pane is still, bounded by a deadline, and only
//!   then presses Enter.

use std::time::{Duration, Instant};

use chrono::Utc;

use super::{OpsError, live_tmux_name, not_live_if_missing};
use crate::model::{Activity, Session};
use crate::sources::sidecar::SidecarStore;
use crate::tmux::{Tmux, TmuxError, TmuxTarget};

/// Longer text is pasted, never typed: well under tmux's command size.
const TYPED_MAX_BYTES: usize = 1024;
/// How often the pane is looked at while waiting.
const POLL: Duration = Duration::from_millis(20);
/// The pane must stay as it is this long after typed text showed.
const QUIET: Duration = Duration::from_millis(150);
/// …and this long after a paste: Gemini CLI still reads an Enter as a
/// newline for a moment after it has drawn a paste (~0.5 s measured on
/// an idle machine; twice that under load).
const PASTE_QUIET: Duration = Duration::from_secs(1);
/// A pane that changed without showing the text's end (an agent that
/// folds a long paste into "[Pasted text]") must stay still this long.
const FOLDED_QUIET: Duration = Duration::from_millis(500);
/// The longest quiet a slow agent is given (see [`wait_until_landed`]).
const MAX_QUIET: Duration = Duration::from_secs(2);
/// Enter is pressed after this whatever the pane does: an agent busy
/// starting up reads its input late, and a program may not echo at all.
const DEADLINE: Duration = Duration::from_secs(8);

/// Types `text` (cleaned of control sequences) into a live session and
/// presses Enter once it has landed. The text never reaches a shell and is
/// never read as key names.
pub fn send(tmux: &Tmux, session: &Session, text: &str) -> Result<(), OpsError> {
    let name = live_tmux_name(session)?;
    type_text(tmux, &name, text).map_err(not_live_if_missing(session))
}

/// [`send`] without the checks: spawn types a first prompt with it.
pub(super) fn type_text(
    tmux: &Tmux,
    tmux_session: &TmuxTarget,
    text: &str,
) -> Result<(), TmuxError> {
    let text = clean_text(text);
    if !text.is_empty() {
        let before = tmux.capture_text(tmux_session)?;
        let quiet = if text.len() <= TYPED_MAX_BYTES && !text.contains(['\n', '\t']) {
            tmux.send_literal(tmux_session, &text)?;
            QUIET
        } else {
            paste(tmux, tmux_session, &text)?;
            PASTE_QUIET
        };
        wait_until_landed(tmux, tmux_session, &before, &text, quiet);
    }
    tmux.send_key(tmux_session, "Enter")
}

/// The longest first prompt put into a preset's command line; a longer
/// one is typed in once the session runs.
pub(super) const PROMPT_IN_COMMAND_MAX: usize = 8 * 1024;
/// How long a new session's pane may take to show its program ready.
const READY_DEADLINE: Duration = Duration::from_secs(10);
/// A new pane that has drawn something and then stayed still this long is
/// taken as ready. A blank one only after [`READY_BLANK`]: a program still
/// loading has not put the terminal in raw mode yet, and text pasted then
/// is cut at the terminal's line limit; some programs never draw at all.
const READY_QUIET: Duration = Duration::from_millis(300);
const READY_BLANK: Duration = Duration::from_secs(3);

/// A first prompt for a session just started: typed in once its program
/// has drawn its screen and settled (bounded), so text pasted before the
/// program reads its terminal is not cut by the terminal's line limit.
pub(super) fn type_first_prompt(
    tmux: &Tmux,
    tmux_session: &str,
    text: &str,
) -> Result<(), TmuxError> {
    let start = Instant::now();
    let mut last = tmux.capture_text(tmux_session)?;
    let mut changed_at = start;
    loop {
        std::thread::sleep(POLL);
        let now_text = tmux.capture_text(tmux_session)?;
        let now = Instant::now();
        if now_text != last {
            last = now_text;
            changed_at = now;
        }
        let blank = last.trim().is_empty();
        let ready = now - changed_at >= if blank { READY_BLANK } else { READY_QUIET };
        if ready || now - start >= READY_DEADLINE {
            break;
        }
    }
    type_text(tmux, &TmuxTarget::from(tmux_session), text)
}

/// Pastes through a buffer of greenroom's own (bracketed when the program
/// asked for it); the buffer is deleted on every path.
fn paste(tmux: &Tmux, tmux_session: &TmuxTarget, text: &str) -> Result<(), TmuxError> {
    let buffer = format!("greenroom-{}", uuid::Uuid::new_v4().simple());
    tmux.load_buffer(&buffer, text.as_bytes())?;
    tmux.paste_buffer(&buffer, tmux_session).inspect_err(|_| {
        let _ = tmux.delete_buffer(&buffer);
    })
}

/// Waits (bounded by [`DEADLINE`]) until the pane shows the end of `text`
/// and has stayed still for `quiet`, or has changed and then stayed still
/// for [`FOLDED_QUIET`] (or `quiet`, if longer). An agent that is busy
/// reads typed keys late and all at once, and a slow one (a loaded
/// machine) also settles late: the quiet asked for grows with the time the
/// text took to show, up to [`MAX_QUIET`]. A capture that fails ends the
/// wait: Enter is then tried, and its own error reported.
fn wait_until_landed(
    tmux: &Tmux,
    tmux_session: &TmuxTarget,
    before: &str,
    text: &str,
    quiet: Duration,
) {
    let start = Instant::now();
    let tail = visible_tail(text);
    let mut last = before.to_owned();
    let mut changed_at: Option<Instant> = None;
    let mut landed_after: Option<Duration> = None;
    let mut seen = false;
    loop {
        std::thread::sleep(POLL);
        let Ok(now_text) = tmux.capture_text(tmux_session) else {
            return;
        };
        let now = Instant::now();
        if now_text != last {
            last = now_text;
            changed_at = Some(now);
            landed_after.get_or_insert(now - start);
            seen = !tail.is_empty() && squash(&last).contains(&tail);
        }
        let slow = landed_after.map_or(Duration::ZERO, |d| (d * 2).min(MAX_QUIET));
        let still_for = |d: Duration| changed_at.is_some_and(|t| now - t >= d.max(slow));
        let folded = still_for(FOLDED_QUIET.max(quiet));
        if (seen && still_for(quiet)) || folded || now - start >= DEADLINE {
            return;
        }
    }
}

/// The last few visible characters of the text, whitespace removed, as a
/// pane that wraps it would still show them.
fn visible_tail(text: &str) -> String {
    let chars: Vec<char> = squash(text).chars().collect();
    chars[chars.len().saturating_sub(16)..].iter().collect()
}

fn squash(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The text without escape sequences (CSI, OSC, DCS, APC, PM, SOS, and
/// two-character ones) or control characters; newline and tab stay, and a
/// carriage return becomes a newline.
pub fn clean_text(text: &str) -> String {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' | '\t' => out.push(c),
            '\x1b' => match chars.next() {
                Some('[') => skip_csi(&mut chars),
                Some(']' | 'P' | '_' | '^' | 'X') => skip_string(&mut chars),
                _ => {}
            },
            '\u{9b}' => skip_csi(&mut chars),
            '\u{90}' | '\u{9d}' | '\u{9e}' | '\u{9f}' | '\u{98}' => skip_string(&mut chars),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Parameters and intermediates, then one final byte.
fn skip_csi(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    for c in chars.by_ref() {
        if ('\x40'..='\x7e').contains(&c) || !('\x20'..='\x3f').contains(&c) {
            return;
        }
    }
}

/// A control string runs to BEL or ST (`ESC \` or U+009C).
fn skip_string(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while let Some(c) = chars.next() {
        match c {
            '\x07' | '\u{9c}' => return,
            '\x1b' => {
                if chars.peek() == Some(&'\\') {
                    chars.next();
                }
                return;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_and_controls_are_removed() {
        assert_eq!(clean_text("a\x1b[201~b"), "ab");
        assert_eq!(clean_text("\x1b[200~x\x1b[201~\ry"), "x\ny");
        assert_eq!(clean_text("t\x1b]0;title\x07u"), "tu");
        assert_eq!(clean_text("t\x1b]0;title\x1b\\u"), "tu");
        assert_eq!(clean_text("\x1bPq#0\x1b\\ok"), "ok");
        assert_eq!(clean_text("a\x1bcb"), "ab");
        assert_eq!(clean_text("a\u{9b}201~b"), "ab");
        assert_eq!(clean_text("a\x03b\x7fc\x00d\x08"), "abcd");
        assert_eq!(clean_text("line\r\nnext\ttab"), "line\nnext\ttab");
        assert_eq!(clean_text("héllo → 世界 🚀 [201~"), "héllo → 世界 🚀 [201~");
        assert_eq!(clean_text("\x1b"), "");
        assert_eq!(clean_text("\x1b["), "");
    }

    #[test]
    fn the_tail_ignores_wrapping() {
        assert_eq!(visible_tail("say hello"), "sayhello");
        assert_eq!(visible_tail(&"ab ".repeat(20)), "abababababababab");
        assert_eq!(visible_tail(" \n "), "");
    }
}

/// The keys an answer may press: a closed list, so nothing from a script
/// or a config reaches tmux as a key name it would read otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AnswerKey {
    Enter,
    Escape,
    CtrlC,
    Tab,
    /// A numbered choice, 1 to 9.
    Digit(u8),
}

impl AnswerKey {
    /// The names `--key` accepts, for messages.
    pub const NAMES: &'static str = "Enter, Escape (Esc), C-c, Tab, 1 to 9, y (Enter), n (Escape)";

    /// Parses a key name (case does not matter for the words). `y` and
    /// `n` answer as the dashboard's `y` and `N` do: Enter confirms the
    /// dialog's highlighted first choice (Claude Code's "1. Yes", Codex
    /// CLI's "1. Yes, proceed (y)"), Escape refuses (Codex's "No, and tell
    /// Codex what to do differently (esc)"). They are not typed as
    /// letters: a letter in a prompt that is not a dialog is text.
    pub fn parse(name: &str) -> Result<Self, String> {
        let key = match name.trim().to_ascii_lowercase().as_str() {
            "enter" | "return" | "y" | "yes" => AnswerKey::Enter,
            "escape" | "esc" | "n" | "no" => AnswerKey::Escape,
            "c-c" | "ctrl-c" | "^c" => AnswerKey::CtrlC,
            "tab" => AnswerKey::Tab,
            d if d.len() == 1 && matches!(d.as_bytes()[0], b'1'..=b'9') => {
                AnswerKey::Digit(d.as_bytes()[0] - b'0')
            }
            _ => {
                return Err(format!(
                    "unknown key {:?}; one of {}",
                    crate::display::safe(name),
                    Self::NAMES
                ));
            }
        };
        Ok(key)
    }

    /// tmux's name for the key (`send-keys` reads it as a key, not text).
    pub fn tmux_name(self) -> String {
        match self {
            AnswerKey::Enter => "Enter".into(),
            AnswerKey::Escape => "Escape".into(),
            AnswerKey::CtrlC => "C-c".into(),
            AnswerKey::Tab => "Tab".into(),
            AnswerKey::Digit(d) => d.to_string(),
        }
    }
}

impl std::fmt::Display for AnswerKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.tmux_name())
    }
}

impl AnswerKey {
    /// What the agent does once a waiting prompt is answered with this key:
    /// Enter or a numbered choice goes on working, Escape and C-c refuse
    /// and end the turn (Claude Code 2.1.328 and Gemini CLI 0.61.0 fire no
    /// hook then, so greenroom records it); Tab changes nothing yet.
    pub fn state_after(self) -> Option<Activity> {
        match self {
            AnswerKey::Enter | AnswerKey::Digit(_) => Some(Activity::Active),
            AnswerKey::Escape | AnswerKey::CtrlC => Some(Activity::Idle),
            AnswerKey::Tab => None,
        }
    }
}

/// Presses one key in a live session's pane (its exact target): the answer
/// to a prompt without attaching. Returns the state a waiting session is
/// in once answered ([`super::choice::state_after`]), which is recorded
/// as its agent's word (greenroom's own session or a hand-started one with
/// hooks) unless a hook reported something newer meanwhile; the next hook
/// report replaces it.
pub fn send_key(
    tmux: &Tmux,
    store: &SidecarStore,
    session: &Session,
    key: AnswerKey,
) -> Result<Option<Activity>, OpsError> {
    let name = live_tmux_name(session)?;
    let after = super::choice::state_after(tmux, &name, session, key);
    let before = Utc::now();
    tmux.send_key(&name, &key.tmux_name())
        .map_err(not_live_if_missing(session))?;
    if let Some(after) = &after {
        super::answered::record(tmux, store, session, key, after, before)?;
    }
    // An answer is a look: a turn that ended before it is seen.
    super::record_focus(store, session);
    Ok(after)
}

#[cfg(test)]
mod answer_tests {
    use super::AnswerKey;

    #[test]
    fn the_closed_list_of_keys() {
        for (name, key, tmux) in [
            ("Enter", AnswerKey::Enter, "Enter"),
            ("esc", AnswerKey::Escape, "Escape"),
            ("Escape", AnswerKey::Escape, "Escape"),
            ("C-c", AnswerKey::CtrlC, "C-c"),
            ("tab", AnswerKey::Tab, "Tab"),
            ("1", AnswerKey::Digit(1), "1"),
            ("9", AnswerKey::Digit(9), "9"),
            ("y", AnswerKey::Enter, "Enter"),
            ("N", AnswerKey::Escape, "Escape"),
        ] {
            assert_eq!(AnswerKey::parse(name), Ok(key), "{name}");
            assert_eq!(key.tmux_name(), tmux);
        }
        for bad in ["0", "10", "C-x", "Enter;kill-server", "", "a"] {
            assert!(AnswerKey::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_state_an_answer_leads_to() {
        use crate::model::Activity;
        assert_eq!(AnswerKey::Enter.state_after(), Some(Activity::Active));
        assert_eq!(AnswerKey::Digit(2).state_after(), Some(Activity::Active));
        assert_eq!(AnswerKey::Escape.state_after(), Some(Activity::Idle));
        assert_eq!(AnswerKey::CtrlC.state_after(), Some(Activity::Idle));
        assert_eq!(AnswerKey::Tab.state_after(), None);
    }
}
