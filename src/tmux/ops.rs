//! The tmux calls behind the actions: sessions made and
//! killed, text typed and pasted. Same rules as the rest of `tmux`: argv
//! only, the configured server, exact targets.

use std::ffi::OsStr;

use super::{PaneId, SEP, Tmux, TmuxError, TmuxTarget, escape_format};

/// A session tmux has just made: its id and its one pane's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSession {
    pub session_id: String,
    pub pane: PaneId,
}

/// `=name:`: the session and its current window, exact for plain names
/// only; actions target [`Tmux::window_target`].
pub fn exact_window(name: &str) -> String {
    format!("={name}:")
}

/// tmux reads an argument that ends in `;` as the end of a command (and
/// drops the `;`), even from argv; `\;` at the end is a literal `;`. This
/// keeps free text (a message, a command line, a folder) whole.
pub fn escape_trailing_semicolon(arg: &OsStr) -> std::ffi::OsString {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let bytes = arg.as_bytes();
    match bytes.split_last() {
        Some((b';', rest)) => {
            let mut out = rest.to_vec();
            out.extend_from_slice(b"\\;");
            std::ffi::OsString::from_vec(out)
        }
        _ => arg.to_owned(),
    }
}

/// The actions' tmux calls: argv only, exact targets.
impl Tmux {
    /// Whether a session of exactly this name exists. No server: false.
    pub fn has_session(&self, name: &str) -> Result<bool, TmuxError> {
        Ok(self.session_id(name)?.is_some())
    }

    /// Stops the server and removes its socket file, which tmux leaves
    /// behind: for the private servers greenroom starts itself (the demo).
    pub fn kill_server(&self) {
        let socket = self
            .run(["display-message", "-p", "#{socket_path}"])
            .ok()
            .map(|s| std::path::PathBuf::from(s.trim()))
            .filter(|p| p.is_absolute());
        let _ = self.run(["kill-server"]);
        if let Some(path) = socket {
            let _ = std::fs::remove_file(path);
        }
    }

    /// The names of every session on the server. No server: none.
    pub fn session_names(&self) -> Result<Vec<String>, TmuxError> {
        match self.run(["list-sessions", "-F", "#{session_name}"]) {
            Ok(text) => Ok(text.lines().map(str::to_owned).collect()),
            Err(TmuxError::NoServer) => Ok(Vec::new()),
            Err(e) => Err(e),
        }
    }

    /// A detached session running `command` (tmux runs it through the
    /// default shell) in `cwd`, with `env` set in the session. Starts the
    /// server when none runs. tmux expands formats in `-s` and `-c` (not in
    /// `-e` or the command): both are escaped, so a folder named `#(cmd)`
    /// runs nothing and `#{pane_id}x` is that folder. Whether tmux really
    /// started it there is for the caller to check ([`Tmux::pane_paths`]).
    ///
    /// The session keeps its pane when the command ends (`remain-on-exit`
    /// on its window only, never globally), so a crash shows as exited with
    /// its status and its last lines stay readable. It is set in the same
    /// tmux call, before tmux can see even an instant exit, and on a named
    /// target: a command after `new-session -d` without `-t` acts on the
    /// calling client's window (inside tmux, the operator's own). The
    /// session is made under a fresh plain name, which `=name:` targets
    /// exactly, and renamed last: `=` is not exact for every name (`$0`).
    pub fn new_session(
        &self,
        name: &str,
        cwd: &std::path::Path,
        env: &[(&str, &str)],
        command: &str,
    ) -> Result<NewSession, TmuxError> {
        let fresh = format!("greenroom-new-{}", uuid::Uuid::new_v4().simple());
        let ids = format!("#{{session_id}}{SEP}#{{pane_id}}");
        let mut args: Vec<std::ffi::OsString> = vec![
            "new-session".into(),
            "-d".into(),
            "-P".into(),
            "-F".into(),
            ids.into(),
            "-s".into(),
            fresh.clone().into(),
            "-c".into(),
            escape_trailing_semicolon(&escape_format(cwd.as_os_str())),
        ];
        for (key, value) in env {
            args.push("-e".into());
            args.push(escape_trailing_semicolon(format!("{key}={value}").as_ref()));
        }
        args.push(escape_trailing_semicolon(command.as_ref()));
        let window = exact_window(&fresh);
        for arg in [
            ";",
            "set-option",
            "-w",
            "-t",
            &window,
            "remain-on-exit",
            "on",
        ] {
            args.push(arg.into());
        }
        for arg in [";", "rename-session", "-t", &super::exact(&fresh)] {
            args.push(arg.into());
        }
        args.push(escape_trailing_semicolon(&escape_format(name.as_ref())));
        let printed = match self.run(args) {
            Ok(printed) => printed,
            Err(e) => {
                // A rename refused (the name taken meanwhile) leaves the
                // fresh session behind: it is nobody's.
                let _ = self.run(["kill-session", "-t", &super::exact(&fresh)]);
                return Err(e);
            }
        };
        let made = printed.lines().next().and_then(|line| {
            let (session, pane) = line.split_once(SEP)?;
            Some(NewSession {
                session_id: session.starts_with('$').then(|| session.to_owned())?,
                pane: PaneId::parse(pane)?,
            })
        });
        if made.is_none()
            && let Ok(Some(id)) = self.session_id(name)
        {
            // Started, but not as greenroom can follow: nothing is left
            // running that no record knows.
            let _ = self.kill_session_id(&id);
        }
        made.ok_or_else(|| TmuxError::Failed {
            command: "new-session".into(),
            message: format!(
                "printed {:?} rather than the new session's ids",
                printed.trim()
            ),
        })
    }

    /// Where tmux says a pane runs: the folder it was told to start in,
    /// after its format expansion (`#{pane_start_path}`), and the folder its
    /// program is in now (`#{pane_current_path}`; empty when tmux cannot
    /// tell, e.g. a dead pane). One call each: either may hold any byte.
    pub fn pane_paths(&self, pane: &PaneId) -> Result<(String, String), TmuxError> {
        let ask = |format: &str| {
            self.run(["display-message", "-p", "-t", pane.as_str(), format])
                .map(|text| text.strip_suffix('\n').unwrap_or(&text).to_owned())
        };
        Ok((ask("#{pane_start_path}")?, ask("#{pane_current_path}")?))
    }

    /// Kills a session by the id tmux gave it (`$7`).
    pub fn kill_session_id(&self, session_id: &str) -> Result<(), TmuxError> {
        self.run(["kill-session", "-t", session_id]).map(drop)
    }

    /// Kills the session named `name` when only dead panes are left in it
    /// (remain-on-exit). True when no session of that name is left; false
    /// when it has a live pane (it is left alone).
    pub fn clear_dead_session(&self, name: &str) -> Result<bool, TmuxError> {
        let Some(id) = self.session_id(name)? else {
            return Ok(true);
        };
        let panes = match self.run(["list-panes", "-s", "-t", &id, "-F", "#{pane_dead}"]) {
            Ok(text) => text,
            Err(TmuxError::NoSession(_) | TmuxError::NoServer) => return Ok(true),
            Err(e) => return Err(e),
        };
        if panes.lines().any(|dead| dead != "1") {
            return Ok(false);
        }
        match self.run(["kill-session", "-t", &id]) {
            Ok(_) | Err(TmuxError::NoSession(_) | TmuxError::NoServer) => Ok(true),
            Err(e) => Err(e),
        }
    }

    /// Kills a session; an adopted pane's target kills that pane only
    /// (never the user's session around it).
    pub fn kill_session(&self, target: impl Into<TmuxTarget>) -> Result<(), TmuxError> {
        let target = match target.into() {
            TmuxTarget::Pane(pane) => return self.kill_pane(&pane),
            session => self.session_target(&session)?,
        };
        self.run(["kill-session", "-t", &target]).map(drop)
    }

    /// Types `text` literally into the session's current pane (no key names
    /// are interpreted; the text never reaches a shell).
    pub fn send_literal(&self, target: impl Into<TmuxTarget>, text: &str) -> Result<(), TmuxError> {
        let text = escape_trailing_semicolon(text.as_ref());
        let target = self.window_target(&target.into())?;
        let args: [&OsStr; 6] = [
            "send-keys".as_ref(),
            "-t".as_ref(),
            target.as_ref(),
            "-l".as_ref(),
            "--".as_ref(),
            &text,
        ];
        self.run(args).map(drop)
    }

    /// Presses one named key (`Enter`, `C-c`) in the session's current pane.
    pub fn send_key(&self, target: impl Into<TmuxTarget>, key: &str) -> Result<(), TmuxError> {
        self.run(["send-keys", "-t", &self.window_target(&target.into())?, key])
            .map(drop)
    }

    /// Loads `bytes` into the named paste buffer through tmux's stdin.
    pub fn load_buffer(&self, buffer: &str, bytes: &[u8]) -> Result<(), TmuxError> {
        self.run_with_input(["load-buffer", "-b", buffer, "-"], bytes)
            .map(drop)
    }

    /// Pastes and deletes the named buffer into the session's current pane,
    /// bracketed when the program there asked for bracketed paste.
    pub fn paste_buffer(
        &self,
        buffer: &str,
        target: impl Into<TmuxTarget>,
    ) -> Result<(), TmuxError> {
        self.run([
            "paste-buffer",
            "-d",
            "-p",
            "-b",
            buffer,
            "-t",
            &self.window_target(&target.into())?,
        ])
        .map(drop)
    }

    /// The visible text of the session's current pane, without colours:
    /// what send compares to see that its text has landed.
    pub fn capture_text(&self, target: impl Into<TmuxTarget>) -> Result<String, TmuxError> {
        self.run([
            "capture-pane",
            "-p",
            "-t",
            &self.window_target(&target.into())?,
        ])
    }

    /// The visible text of the session's current pane, with its colours.
    pub fn capture_pane(&self, target: impl Into<TmuxTarget>) -> Result<String, TmuxError> {
        self.run([
            "capture-pane",
            "-p",
            "-e",
            "-t",
            &self.window_target(&target.into())?,
        ])
    }

    pub fn delete_buffer(&self, buffer: &str) -> Result<(), TmuxError> {
        self.run(["delete-buffer", "-b", buffer]).map(drop)
    }

    /// Like [`Tmux::run`], with `input` written to tmux's stdin.
    pub fn run_with_input<I, S>(&self, args: I, input: &[u8]) -> Result<String, TmuxError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.exec(args, Some(input.to_vec()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_targets_are_exact() {
        assert_eq!(exact_window("api-1"), "=api-1:");
    }

    #[test]
    fn trailing_semicolons_are_escaped_for_tmux() {
        let e = |s: &str| escape_trailing_semicolon(s.as_ref()).into_string().unwrap();
        assert_eq!(e("a;"), "a\\;");
        assert_eq!(e(";"), "\\;");
        assert_eq!(e("a\\;"), "a\\\\;");
        assert_eq!(e("a;b"), "a;b");
        assert_eq!(e(""), "");
    }
}
