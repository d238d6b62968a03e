//! What greenroom hands tmux, made exact and inert.
//!
//! Targets: `-t =name` is not exact for every name. tmux reads `$0`, `@1`
//! and `%2` as ids even after `=`, a name a client's terminal is called
//! (`/dev/pts/3`) as that client's session, and an argument ending in `;`
//! as the end of a command. So a session is found by its exact name in
//! `list-sessions`, and targeted by the id tmux gave it (`$7`), which no
//! other session ever has on that server.
//!
//! Formats: tmux expands `#{...}` and `#(command)` in some arguments even
//! from argv: the start folder (`-c`) and name (`-s`) of `new-session`, a
//! window name (`-n`), `-F`, `display-message`, `run-shell`, `if-shell`.
//! greenroom passes its own constants there, or values made inert with
//! [`escape_format`]; tmux session names read from files are checked with
//! [`check_session_name`] before any use.

use std::ffi::OsStr;

use super::{SEP, Tmux, TmuxError};

/// Makes `text` inert where tmux expands formats: every `#` is doubled,
/// which tmux reads back as one literal `#` (so `#(cmd)` runs nothing and
/// `#{pane_id}` stays as written) — except a run of `#` right before `[`,
/// which tmux (3.2 and later; seen on 3.3a) keeps exactly as written, as a
/// style for drawing: `#[x` and `##[x` come back unchanged, so doubling
/// them would hand tmux a folder named `##[x`. An older tmux that reads
/// these differently is caught by the check after a spawn (`ops`).
pub fn escape_format(text: &OsStr) -> std::ffi::OsString {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'#' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let run = bytes[i..].iter().take_while(|&&b| b == b'#').count();
        let before_style = bytes.get(i + run) == Some(&b'[');
        let copies = if before_style { run } else { 2 * run };
        out.extend(std::iter::repeat_n(b'#', copies));
        i += run;
    }
    std::ffi::OsString::from_vec(out)
}

/// The longest tmux session name greenroom acts on.
pub const MAX_SESSION_NAME: usize = 256;

/// Whether a tmux session name read from a file (a sidecar's
/// `tmux_session`, an Agent Orchestrator `tmuxName`) may be used at all:
/// 1 to [`MAX_SESSION_NAME`] bytes, no control characters, and none of
/// `#` (tmux would expand it where it expands formats), `:` or `.` (tmux
/// never names a session with them; in a target they pick a window or a
/// pane). The error is one line naming the value.
pub fn check_session_name(name: &str) -> Result<(), String> {
    let bad = if name.is_empty() || name.len() > MAX_SESSION_NAME {
        Some(format!("must be 1 to {MAX_SESSION_NAME} bytes long"))
    } else if let Some(c) = name.chars().find(|c| c.is_control()) {
        Some(format!("holds the control character {c:?}"))
    } else {
        name.chars()
            .find(|c| matches!(c, '#' | ':' | '.'))
            .map(|c| format!("holds {c:?}, which tmux would read as more than a name"))
    };
    match bad {
        None => Ok(()),
        // Debug quoting shows control characters escaped; a long name is cut.
        Some(why) => Err(format!(
            "tmux session name {:?} is refused: it {why}",
            name.chars().take(64).collect::<String>()
        )),
    }
}

/// `=name`: tmux's exact-match target syntax, exact only for plain names
/// (see the module comment); actions target [`Tmux::session_target`].
pub fn exact(name: &str) -> String {
    format!("={name}")
}

impl Tmux {
    /// The id (`$7`) of the session named exactly `name`; `None` when
    /// there is none (or no server).
    pub fn session_id(&self, name: &str) -> Result<Option<String>, TmuxError> {
        let format = format!("#{{session_id}}{SEP}#{{session_name}}");
        let text = match self.run(["list-sessions", "-F", &format]) {
            Ok(text) => text,
            Err(TmuxError::NoServer | TmuxError::NoSession(_)) => return Ok(None),
            Err(e) => return Err(e),
        };
        Ok(text.lines().find_map(|line| {
            let (id, n) = line.split_once(SEP)?;
            (n == name && id.starts_with('$')).then(|| id.to_owned())
        }))
    }

    /// The target for session commands: the id of the session named
    /// exactly `name`, or [`TmuxError::NoSession`].
    /// An adopted pane's target is the pane itself: tmux finds its
    /// session, window and pane.
    pub fn session_target(&self, target: &super::TmuxTarget) -> Result<String, TmuxError> {
        match target {
            super::TmuxTarget::Pane(pane) => Ok(pane.as_str().to_owned()),
            super::TmuxTarget::Session(name) => self
                .session_id(name)?
                .ok_or_else(|| TmuxError::NoSession(name.clone())),
        }
    }

    /// The target for window and pane commands (send-keys, paste-buffer,
    /// capture-pane): that session's current window, `$7:`.
    /// An adopted pane's target name stands for that pane.
    pub fn window_target(&self, target: &super::TmuxTarget) -> Result<String, TmuxError> {
        match target {
            super::TmuxTarget::Pane(pane) => Ok(pane.as_str().to_owned()),
            session => Ok(format!("{}:", self.session_target(session)?)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_made_inert() {
        let e = |s: &str| escape_format(s.as_ref()).into_string().unwrap();
        assert_eq!(e("/src/api"), "/src/api");
        assert_eq!(e("#(touch x)"), "##(touch x)");
        assert_eq!(e("#{pane_id}x##"), "##{pane_id}x####");
        // tmux keeps a run of `#` before `[` as written.
        assert_eq!(e("a;b #[fg=red]"), "a;b #[fg=red]");
        assert_eq!(e("d ##[x #{y}"), "d ##[x ##{y}");
        assert_eq!(e("#"), "##");
    }

    #[test]
    fn session_names_from_files_are_checked() {
        for ok in ["gr-api-1", "66c66786e971-ao-2", "$0", "work;", "%1", "a b"] {
            assert_eq!(check_session_name(ok), Ok(()), "{ok}");
        }
        for bad in ["", "x#(id)", "a:b", "a.b", "a\nb", "\u{1b}[2J"] {
            assert!(check_session_name(bad).is_err(), "{bad:?}");
        }
        assert!(check_session_name(&"a".repeat(MAX_SESSION_NAME + 1)).is_err());
        let err = check_session_name("x#(id)").unwrap_err();
        assert_eq!(
            err,
            "tmux session name \"x#(id)\" is refused: it holds '#', which tmux would read as more than a name"
        );
    }

    #[test]
    fn name_targets_are_exact() {
        assert_eq!(exact("api-1"), "=api-1");
    }
}
