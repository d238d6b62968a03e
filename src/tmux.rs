//! The one place greenroom runs tmux. Every call passes argv directly (never
//! through a shell), selects the configured server, and targets a session
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
use std::process::{Command, Output, Stdio};

mod beside;
mod control;
mod events;
mod messages;
mod ops;
mod pane;
mod poll;
mod poll_parse;
mod shell;
mod socket;
mod target;
mod window;
pub use beside::{Beside, host_from_env};
pub use control::Control;
pub use events::{
    EVENTS_SESSION_PREFIX, Event, EventClient, ListenError, Listening, events_are_safe,
    is_events_session, supports_events,
};
pub use ops::{NewSession, escape_trailing_semicolon, exact_window};
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

    /// A `tmux` command on the configured server, with no config file
    /// surprises for the server greenroom may start.
    pub fn command(&self) -> Command {
        let mut cmd = Command::new(&self.program);
        // UTF-8 whatever the locale: in the C locale tmux writes the field
        // separator (and any non-ASCII name) as `_`, and every session
        // would look gone.
        cmd.arg("-u");
        match &self.socket {
            TmuxSocket::Default => {}
            TmuxSocket::Name(name) => {
                cmd.arg("-L").arg(name);
            }
            TmuxSocket::Path(path) => {
                cmd.arg("-S").arg(path);
            }
        }
        cmd.stdin(Stdio::null());
        cmd
    }

    /// Runs tmux with `args`, mapping the usual failures to typed errors.
    pub fn run<I, S>(&self, args: I) -> Result<String, TmuxError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let args: Vec<_> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
        let child = self
            .command()
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn();
        let out = match child {
            Ok(child) => output_within(child, None)?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(TmuxError::NotInstalled),
            Err(e) => return Err(TmuxError::Io(e)),
        };
        check(&args, out)
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
        let status = match self
            .command()
            .args(["attach-session", "-t", &target])
            .env_remove("TMUX")
            .stdin(Stdio::inherit())
            .status()
        {
            Ok(status) => status,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(TmuxError::NotInstalled),
            Err(e) => return Err(TmuxError::Io(e)),
        };
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

/// The child's output, or an error once [`CALL_TIMEOUT`] has passed (the
/// child is then killed and reaped). `input`, if any, is written to its
/// stdin off this thread, so a child that never reads cannot block us.
pub(crate) fn output_within(
    mut child: std::process::Child,
    input: Option<Vec<u8>>,
) -> io::Result<Output> {
    use std::io::{Read, Write};
    use std::time::{Duration, Instant};
    let writer = match (child.stdin.take(), input) {
        (Some(mut stdin), Some(bytes)) => Some(std::thread::spawn(move || stdin.write_all(&bytes))),
        _ => None,
    };
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let deadline = Instant::now() + CALL_TIMEOUT;
    let mut pause = Duration::from_micros(100);
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "tmux did not answer within 5 s",
            ));
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(5));
    };
    if let Some(Err(e)) = writer.map(|w| w.join().unwrap_or(Ok(())))
        && status.success()
    {
        return Err(e);
    }
    Ok(Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    })
}

fn check(args: &[std::ffi::OsString], out: Output) -> Result<String, TmuxError> {
    if out.status.success() {
        return Ok(String::from_utf8_lossy(&out.stdout).into_owned());
    }
    let message = String::from_utf8_lossy(&out.stderr).trim().to_owned();
    if is_no_server(&message) {
        return Err(TmuxError::NoServer);
    }
    if let Some(name) = message
        .strip_prefix("can't find session: ")
        .or_else(|| message.strip_prefix("session not found: "))
    {
        return Err(TmuxError::NoSession(
            name.trim_start_matches('=').to_owned(),
        ));
    }
    // An adopted agent's pane that closed since the row was read.
    if let Some(pane) = message.strip_prefix("can't find pane: ") {
        return Err(TmuxError::NoSession(pane.trim().to_owned()));
    }
    // A server with no sessions at all answers this for any target.
    if message.starts_with("no current target") {
        return Err(TmuxError::NoSession(String::new()));
    }
    let command = args
        .first()
        .map(|a| a.to_string_lossy().into_owned())
        .unwrap_or_default();
    Err(TmuxError::Failed { command, message })
}

fn is_no_server(message: &str) -> bool {
    message.starts_with("no server running")
        || (message.starts_with("error connecting to")
            && (message.contains("No such file") || message.contains("Connection refused")))
}
