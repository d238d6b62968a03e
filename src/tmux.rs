//! The one place greenroom runs tmux. Every call passes argv directly (never
//! through a shell; built from [`Tmux::spec`], run through `crate::process`
//! within [`CALL_LIMITS`]), selects the configured server (`-L`/`-S`), and
//! targets a session
//! by tmux's own id for its exact name (see `target.rs`), so `api-1` is
//! never confused with `api-10`, nor `$0` with session id `$0`.
//!
//! tmux expands formats (`#{...}`, `#(command)`) in some arguments even
//! from argv: the start folder (`-c`) and name (`-s`) of `new-session`, a
//! window name (`-n`), `-F`, `display-message`, `run-shell`, `if-shell`.
//! greenroom passes its own constants there, or values made inert with
//! [`escape_format`]; tmux session names read from files are checked with
//! [`check_session_name`] before any use.

use std::ffi::OsStr;
use std::io;

use crate::process::{Limits, Overflow, ProcessError, Spec};

mod back;
mod beside;
mod control;
mod events;
mod messages;
mod notify;
mod ops;
mod own_server;
mod pane;
mod poll;
mod poll_parse;
mod shell;
mod socket;
mod target;
mod window;
pub use back::{BackOptions, ClientPlace};
pub use beside::{Beside, host_from_env};
pub use control::Control;
pub use events::{
    EVENTS_SESSION_PREFIX, Event, EventClient, ListenError, Listening, events_are_safe,
    is_events_session, supports_events,
};
pub use ops::{NewSession, escape_trailing_semicolon, exact_window};
pub use own_server::OwnServer;
pub use pane::{ClientName, Pane, PaneId, Server, TmuxTarget};
pub use poll::Refresh;
pub use poll_parse::parse_server;
pub use shell::shell_quote;
pub use socket::TmuxSocket;
pub use target::{MAX_SESSION_NAME, check_session_name, escape_format, exact};

/// Field separator in `-F` formats: a control character tmux prints as is
/// and no sane name contains; the session name comes last regardless.
const SEP: char = '\x1f';

/// What greenroom knows about the tmux server at one poll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerState {
    /// tmux answered: facts for every live session, by name (and every
    /// pane, for the agents greenroom did not start).
    Running(Server),
    /// tmux is installed but no server runs: every session is dormant.
    NoServer,
    /// tmux is not installed: greenroom runs read-only.
    NotInstalled,
    /// tmux answered with an error (a version mismatch, no resources): what
    /// greenroom knew before still stands.
    Error(String),
}

#[derive(Debug, thiserror::Error)]
pub enum TmuxError {
    #[error(
        "tmux is not installed (install it with your package manager, e.g. `apt install tmux`)"
    )]
    NotInstalled,
    #[error("no tmux server is running")]
    NoServer,
    #[error("no tmux session named {0:?}")]
    NoSession(String),
    #[error("tmux {command} failed: {message}")]
    Failed { command: String, message: String },
    #[error("cannot run tmux: {0}")]
    Io(#[from] io::Error),
}

/// A handle on one tmux server.
#[derive(Debug, Clone)]
pub struct Tmux {
    socket: TmuxSocket,
    program: std::path::PathBuf,
}

impl Tmux {
    pub fn new(socket: TmuxSocket) -> Self {
        Self::with_program(socket, "tmux")
    }

    /// A specific tmux binary (tests and benchmarks count its starts).
    pub fn with_program(socket: TmuxSocket, program: impl Into<std::path::PathBuf>) -> Self {
        Self {
            socket,
            program: program.into(),
        }
    }

    pub fn socket(&self) -> &TmuxSocket {
        &self.socket
    }

    /// A `tmux` call on the configured server: the one place its argv
    /// starts.
    pub(crate) fn spec(&self) -> Spec {
        let mut spec = Spec::new(&self.program);
        // UTF-8 whatever the locale: in the C locale tmux writes the field
        // separator (and any non-ASCII name) as `_`, and every session
        // would look gone.
        spec.arg("-u");
        match &self.socket {
            TmuxSocket::Default => {}
            TmuxSocket::Name(name) => {
                spec.arg("-L").arg(name);
            }
            TmuxSocket::Path(path) => {
                spec.arg("-S").arg(path);
            }
        }
        spec
    }

    /// Runs tmux with `args`, mapping the usual failures to typed errors.
    pub fn run<I, S>(&self, args: I) -> Result<String, TmuxError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.exec(args, None)
    }

    /// Runs tmux with `args` and `input` on its stdin, within
    /// [`CALL_LIMITS`].
    pub(crate) fn exec<I, S>(&self, args: I, input: Option<Vec<u8>>) -> Result<String, TmuxError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let args: Vec<_> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
        let mut spec = self.spec();
        spec.args(&args);
        if let Some(bytes) = input {
            spec.input(bytes);
        }
        match spec.run(CALL_LIMITS) {
            Ok(out) => Ok(String::from_utf8_lossy(&out.stdout).into_owned()),
            Err(e) => Err(failure(&args, e)),
        }
    }
}

impl Tmux {
    /// Whether greenroom runs inside a client of this same server, so
    /// `switch-client` can move that client. `tmux_env` is `$TMUX`
    /// (`<socket path>,<pid>,<session>`).
    pub fn is_current_server(&self, tmux_env: Option<&str>) -> bool {
        let Some(socket) = tmux_env
            .and_then(|v| v.split(',').next())
            .filter(|s| !s.is_empty())
        else {
            return false;
        };
        let socket = std::path::Path::new(socket);
        match &self.socket {
            TmuxSocket::Default => socket.file_name().is_some_and(|n| n == "default"),
            TmuxSocket::Name(name) => socket.file_name().is_some_and(|n| n == name.as_str()),
            TmuxSocket::Path(path) => socket == path,
        }
    }

    /// Moves the current client to a session (greenroom runs inside tmux).
    pub fn switch_client(&self, target: impl Into<TmuxTarget>) -> Result<(), TmuxError> {
        let target = self.session_target(&target.into())?;
        self.run(["switch-client", "-t", &target]).map(drop)
    }

    /// Attaches this terminal to a session and returns when the operator
    /// detaches. `$TMUX` is cleared so this works from inside another server.
    pub fn attach_here(&self, target: impl Into<TmuxTarget>) -> Result<(), TmuxError> {
        let target = self.session_target(&target.into())?;
        let mut spec = self.spec();
        spec.args(["attach-session", "-t", &target])
            .env_remove("TMUX");
        let status = spec.attach().map_err(|e| failure(&[], e))?;
        if status.success() {
            Ok(())
        } else {
            Err(TmuxError::Failed {
                command: "attach-session".into(),
                message: format!("exited with {status}"),
            })
        }
    }
}

/// How long one tmux call may take: a hung server must not hang greenroom
/// (its start-up, `ls`, or the `status` line tmux itself runs).
const CALL_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// What one tmux call may cost: [`CALL_TIMEOUT`], and no server's answer
/// fills greenroom's memory.
const CALL_LIMITS: Limits = Limits {
    timeout: CALL_TIMEOUT,
    stdout: 64 * 1024 * 1024,
    stderr: 64 * 1024,
    overflow: Overflow::Fail,
};

/// A failed call as tmux's own kind of failure.
fn failure(args: &[std::ffi::OsString], e: ProcessError) -> TmuxError {
    let command = || {
        args.first()
            .map(|a| a.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    match e {
        e if e.not_found() => TmuxError::NotInstalled,
        ProcessError::Spawn { source, .. } | ProcessError::Io { source, .. } => {
            TmuxError::Io(source)
        }
        ProcessError::TimedOut { .. } => TmuxError::Io(io::Error::new(
            io::ErrorKind::TimedOut,
            "tmux did not answer within 5 s",
        )),
        ProcessError::OverCap { cap, .. } => TmuxError::Failed {
            command: command(),
            message: format!("wrote more than {} MiB", cap >> 20),
        },
        ProcessError::Exited { stderr, .. } => refused(
            command(),
            String::from_utf8_lossy(&stderr).trim().to_owned(),
        ),
    }
}

/// What tmux said when it refused a call.
fn refused(command: String, message: String) -> TmuxError {
    if is_no_server(&message) {
        return TmuxError::NoServer;
    }
    if let Some(name) = message
        .strip_prefix("can't find session: ")
        .or_else(|| message.strip_prefix("session not found: "))
    {
        return TmuxError::NoSession(name.trim_start_matches('=').to_owned());
    }
    // An adopted agent's pane that closed since the row was read.
    if let Some(pane) = message.strip_prefix("can't find pane: ") {
        return TmuxError::NoSession(pane.trim().to_owned());
    }
    // A server with no sessions at all answers this for any target.
    if message.starts_with("no current target") {
        return TmuxError::NoSession(String::new());
    }
    TmuxError::Failed { command, message }
}

fn is_no_server(message: &str) -> bool {
    message.starts_with("no server running")
        || (message.starts_with("error connecting to")
            && (message.contains("No such file") || message.contains("Connection refused")))
}
