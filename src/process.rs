//! How greenroom starts a child process: the one place that says it.
//!
//! A [`Spec`] is a program, its argv (never a shell line), its folder and
//! its environment ([`Environment`]: inherited with changes, or cleared
//! but for a few variables). tmux, git and ssh each build theirs in their
//! own module (`crate::tmux`, `crate::git`, `crate::hosts::ssh`), which
//! alone know their argv and safety options; this module knows none of
//! them, only how a child is bounded.
//!
//! Three ways to run one:
//! - [`Spec::run`], a one-shot call: bounded in time ([`Limits::timeout`];
//!   past it the child is killed and reaped), its stdout kept up to a cap
//!   (cut there or failed, [`Overflow`]) and its stderr's tail, its input
//!   (if any) written off the caller's thread, so a child that never reads
//!   cannot block greenroom. Both pipes are read to their end while the
//!   child runs (it never waits on a full pipe), and read no longer than
//!   the deadline once it has exited: a program that left a pipe open
//!   behind it (ssh's control master) does not hold the answer up.
//! - [`Spec::attach`]: the operator's terminal, unbounded (the operator
//!   decides when an attached session ends).
//! - [`Spec::command`]: a long-lived child (tmux's control-mode client,
//!   a host's `watch --json` stream) whose lifetime is not one call: its
//!   owner picks the pipes, reads them as a stream and ends it its own way
//!   (tmux's client must never be killed, see `crate::tmux`'s events; a
//!   host's stream is killed when the dashboard lets it go). It still gets
//!   its argv and environment here.

use std::ffi::{OsStr, OsString};
use std::io;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The least time a child's pipes are still read once it has exited, even
/// past its deadline: what it wrote just before is in them.
const AFTER_EXIT: Duration = Duration::from_millis(200);

/// The environment a child starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Environment {
    /// greenroom's own, with the [`Spec`]'s changes.
    Inherit,
    /// Only these of greenroom's variables, with the [`Spec`]'s changes
    /// (tmux's control client: each variable is one more message of its
    /// setup).
    Only(&'static [&'static str]),
}

/// A child to start: program, argv, folder, environment and input.
#[derive(Debug, Clone)]
pub struct Spec {
    program: OsString,
    args: Vec<OsString>,
    dir: Option<PathBuf>,
    environment: Environment,
    /// Set (`Some`) or removed (`None`), in order, after `environment`.
    vars: Vec<(OsString, Option<OsString>)>,
    input: Option<Vec<u8>>,
    /// Exit codes besides 0 that are an answer (`git diff` says 1).
    answers: Vec<i32>,
}

/// What a one-shot child may cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub timeout: Duration,
    /// The most of stdout kept.
    pub stdout: usize,
    /// The most of stderr kept: its last bytes, where a program says why.
    pub stderr: usize,
    pub overflow: Overflow,
}

/// What stdout past [`Limits::stdout`] does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overflow {
    /// Kept up to the cap, the rest read and dropped ([`Output::cut`]).
    Cut,
    /// The child is killed: [`ProcessError::OverCap`].
    Fail,
}

/// What a one-shot child gave back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// 0, or one of the codes [`Spec::answer`] accepts.
    pub code: i32,
    pub stdout: Vec<u8>,
    /// Stdout went past the cap and was cut there.
    pub cut: bool,
    /// Its tail, up to [`Limits::stderr`].
    pub stderr: Vec<u8>,
}

/// Why a one-shot child gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum ProcessError {
    #[error("cannot run {program}: {source}")]
    Spawn { program: String, source: io::Error },
    #[error("{program} did not answer within {} s", .limit.as_secs())]
    TimedOut { program: String, limit: Duration },
    /// Exited with a code that is no answer, or by a signal (`code: None`).
    #[error("{program} exited with {}", code.map_or("a signal".into(), |c| format!("code {c}")))]
    Exited {
        program: String,
        code: Option<i32>,
        /// Its tail, up to [`Limits::stderr`].
        stderr: Vec<u8>,
    },
    #[error("{program} wrote more than {cap} bytes")]
    OverCap { program: String, cap: usize },
    /// Waiting for it, or writing its input, failed.
    #[error("{program}: {source}")]
    Io { program: String, source: io::Error },
}

impl ProcessError {
    /// The program is not installed (not on PATH, or no such file).
    pub fn not_found(&self) -> bool {
        matches!(self, Self::Spawn { source, .. } if source.kind() == io::ErrorKind::NotFound)
    }
}

impl Spec {
    pub fn new(program: impl AsRef<OsStr>) -> Self {
        Self {
            program: program.as_ref().to_owned(),
            args: Vec::new(),
            dir: None,
            environment: Environment::Inherit,
            vars: Vec::new(),
            input: None,
            answers: Vec::new(),
        }
    }

    pub fn arg(&mut self, arg: impl AsRef<OsStr>) -> &mut Self {
        self.args.push(arg.as_ref().to_owned());
        self
    }

    pub fn args<I, S>(&mut self, args: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    pub fn current_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.dir = Some(dir.into());
        self
    }

    pub fn environment(&mut self, environment: Environment) -> &mut Self {
        self.environment = environment;
        self
    }

    pub fn env(&mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> &mut Self {
        let value = Some(value.as_ref().to_owned());
        self.vars.push((key.as_ref().to_owned(), value));
        self
    }

    pub fn env_remove(&mut self, key: impl AsRef<OsStr>) -> &mut Self {
        self.vars.push((key.as_ref().to_owned(), None));
        self
    }

    /// Bytes written to the child's stdin (else it reads nothing).
    pub fn input(&mut self, bytes: Vec<u8>) -> &mut Self {
        self.input = Some(bytes);
        self
    }

    /// Exit `code` is an answer too, its output kept.
    pub fn answer(&mut self, code: i32) -> &mut Self {
        self.answers.push(code);
        self
    }

    /// The command for a long-lived child: argv and environment set, the
    /// pipes left to the caller.
    pub fn command(&self) -> Command {
        let mut cmd = Command::new(&self.program);
        cmd.args(&self.args);
        if let Some(dir) = &self.dir {
            cmd.current_dir(dir);
        }
        if let Environment::Only(kept) = self.environment {
            // The kept values are greenroom's own as the child starts: read
            // live (only the kept names), for such a child alone.
            cmd.env_clear().envs(crate::environ::live_only(kept));
        }
        for (key, value) in &self.vars {
            match value {
                Some(v) => cmd.env(key, v),
                None => cmd.env_remove(key),
            };
        }
        cmd
    }

    /// Runs the child on this terminal until it ends: its exit status.
    pub fn attach(&self) -> Result<ExitStatus, ProcessError> {
        self.command()
            .stdin(Stdio::inherit())
            .stdout(Stdio::inherit())
            .stderr(Stdio::inherit())
            .status()
            .map_err(|source| ProcessError::Spawn {
                program: self.name(),
                source,
            })
    }

    /// Runs the child within `limits` (see the module's header).
    pub fn run(&self, limits: Limits) -> Result<Output, ProcessError> {
        let program = self.name();
        let stdin = if self.input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        };
        let mut child = self
            .command()
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|source| ProcessError::Spawn {
                program: program.clone(),
                source,
            })?;
        let deadline = Instant::now() + limits.timeout;
        let pipes = Pipes::start(&mut child, self.input.clone(), limits);
        let status = match wait(&mut child, deadline, &pipes.over, limits.overflow) {
            Ok(Waited::Exited(status)) => status,
            Ok(Waited::TimedOut) => {
                return Err(ProcessError::TimedOut {
                    program,
                    limit: limits.timeout,
                });
            }
            Ok(Waited::Over) => {
                return Err(ProcessError::OverCap {
                    program,
                    cap: limits.stdout,
                });
            }
            Err(source) => return Err(ProcessError::Io { program, source }),
        };
        let (stdout, cut, stderr, written) =
            pipes.finish(deadline.max(Instant::now() + AFTER_EXIT));
        match status.code() {
            Some(code) if code == 0 || self.answers.contains(&code) => {
                // A child that answered without reading all its input
                // said what it had to; one that read it half is no answer.
                if let (0, Err(source)) = (code, written) {
                    return Err(ProcessError::Io { program, source });
                }
                Ok(Output {
                    code,
                    stdout,
                    cut,
                    stderr,
                })
            }
            code => Err(ProcessError::Exited {
                program,
                code,
                stderr,
            }),
        }
    }

    /// The program's file name, for messages.
    fn name(&self) -> String {
        let path = std::path::Path::new(&self.program);
        path.file_name()
            .unwrap_or(path.as_os_str())
            .to_string_lossy()
            .into_owned()
    }
}

enum Waited {
    Exited(ExitStatus),
    TimedOut,
    Over,
}

/// Waits for the child until `deadline` (or until its stdout went over
/// the cap, under [`Overflow::Fail`]); a child not done is killed and
/// reaped.
fn wait(
    child: &mut Child,
    deadline: Instant,
    over: &AtomicBool,
    overflow: Overflow,
) -> io::Result<Waited> {
    let mut pause = Duration::from_micros(100);
    let waited = loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Waited::Exited(status));
        }
        if overflow == Overflow::Fail && over.load(Ordering::Relaxed) {
            break Waited::Over;
        }
        if Instant::now() >= deadline {
            break Waited::TimedOut;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(5));
    };
    let _ = child.kill();
    let _ = child.wait();
    Ok(waited)
}

mod pipes;
use pipes::Pipes;

#[cfg(test)]
mod tests;
