//! One ssh connection per host reading `greenroom watch --json` there: a
//! thread per connection reads its lines (bounded), parses them and leaves
//! them in the connection's [`Inbox`]; the connection's end (or a stream
//! greenroom cannot read) is left there last, with why. What to do about
//! it is the reducer's.
//!
//! A host costs a bounded amount whatever it writes: a line longer than
//! [`MAX_LINE`] is skipped without being held, the inbox holds at most
//! [`INBOX_LINES`] lines (a row's newer line replaces its older one not
//! taken yet), and a full inbox stops the reader, so ssh stops reading and
//! the host's writes wait.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Child, ChildStderr, ChildStdout, Stdio};
use std::sync::{Arc, Mutex};

use super::HostConfig;
use crate::sources::wire::Line;

mod inbox;
mod lines;

pub use inbox::{INBOX_BYTES, INBOX_LINES, Inbox, MAX_ROWS, Put};
pub use lines::{LogQuota, read_lines};

/// What a connection says: a parsed line, or its end.
#[derive(Debug, Clone, PartialEq)]
pub enum Said {
    Line(Line),
    Down(String),
}

type Shared = Arc<Mutex<Option<Child>>>;

/// One host's connection: its ssh, its inbox and which attempt it is.
struct Conn {
    child: Shared,
    inbox: Arc<Inbox>,
    attempt: u64,
}

impl Conn {
    fn end(&self) {
        self.inbox.close();
        end(&self.child);
    }
}

/// The hosts' connections; dropping it ends them.
pub struct Links {
    hosts: Vec<HostConfig>,
    control: Result<PathBuf, String>,
    conns: BTreeMap<String, Conn>,
}

impl Drop for Links {
    fn drop(&mut self) {
        for conn in self.conns.values() {
            conn.end();
        }
    }
}

fn end(child: &Shared) {
    if let Ok(mut guard) = child.lock()
        && let Some(mut c) = guard.take()
    {
        let _ = c.kill();
        let _ = c.wait();
    }
}

impl Links {
    pub fn new(hosts: Vec<HostConfig>, control: Result<PathBuf, String>) -> Self {
        Self {
            hosts,
            control,
            conns: BTreeMap::new(),
        }
    }

    pub fn host(&self, name: &str) -> Option<&HostConfig> {
        self.hosts.iter().find(|h| h.name == name)
    }

    pub fn control(&self) -> Result<&PathBuf, String> {
        self.control.as_ref().map_err(Clone::clone)
    }

    /// What connection `attempt` to `name` said since last asked (nothing
    /// when that connection was replaced).
    pub fn take(&self, name: &str, attempt: u64) -> Vec<Said> {
        match self.conns.get(name) {
            Some(c) if c.attempt == attempt => c.inbox.take(),
            _ => Vec::new(),
        }
    }

    /// Ends the host's connection, if any, and starts connection `attempt`;
    /// `wake` is called when its inbox, empty, gets a line (then
    /// [`Self::take`] has it), last its end.
    pub fn connect(&mut self, name: &str, attempt: u64, wake: impl Fn() + Send + 'static) {
        if let Some(old) = self.conns.remove(name) {
            old.end();
        }
        let inbox = Arc::new(Inbox::default());
        let shared: Shared = Arc::new(Mutex::new(None));
        self.conns.insert(
            name.to_owned(),
            Conn {
                child: shared.clone(),
                inbox: inbox.clone(),
                attempt,
            },
        );
        let said = move |s: Said, bytes: usize| {
            let put = inbox.put(s, bytes);
            if put == Put::First {
                wake();
            }
            put != Put::Closed
        };
        let Some(host) = self.host(name).cloned() else {
            said(Said::Down("not in config.toml".into()), 0);
            return;
        };
        let dir = match &self.control {
            Ok(d) => d.clone(),
            Err(e) => {
                said(Said::Down(format!("no ssh control folder: {e}")), 0);
                return;
            }
        };
        let Some((child, out, err)) = start_ssh(&host, &dir, &said) else {
            return;
        };
        if let Ok(mut g) = shared.lock() {
            *g = Some(child);
        }
        let last_err = keep_last_words(name, err);
        let host_name = host.name.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("ssh-{name}"))
            .spawn(move || {
                let why = read_lines(out, &host_name, &said);
                let code = shared.lock().ok().and_then(|mut g| {
                    let c = g.as_mut()?;
                    let _ = c.kill();
                    c.wait().ok()
                });
                let stderr = last_err.lock().map(|s| s.clone()).unwrap_or_default();
                said(
                    Said::Down(why.unwrap_or_else(|| why_ended(&stderr, code))),
                    0,
                );
            });
        if spawned.is_err()
            && let Some(old) = self.conns.remove(name)
        {
            old.end();
        }
    }
}

/// `greenroom watch --json` on `host` over its connection, with its
/// output and error pipes; a failure to start is said as the link's end.
fn start_ssh(
    host: &HostConfig,
    control: &std::path::Path,
    said: &impl Fn(Said, usize) -> bool,
) -> Option<(Child, ChildStdout, ChildStderr)> {
    let mut cmd = super::ssh::command(host, control, false);
    cmd.arg(super::ssh::remote_line(
        host,
        &["watch", "--json", "--host", &host.name],
    ))
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            said(Said::Down(format!("cannot run ssh: {e}")), 0);
            return None;
        }
    };
    let (Some(out), Some(err)) = (child.stdout.take(), child.stderr.take()) else {
        let _ = child.kill();
        let _ = child.wait();
        said(Said::Down("no pipe from ssh".into()), 0);
        return None;
    };
    Some((child, out, err))
}

/// Reads ssh's stderr on a thread of its own, keeping only its last 4 KiB:
/// its last words say why it ended.
fn keep_last_words(name: &str, mut err: ChildStderr) -> Arc<Mutex<Vec<u8>>> {
    let last_err = Arc::new(Mutex::new(Vec::<u8>::new()));
    let sink = last_err.clone();
    let _ = std::thread::Builder::new()
        .name(format!("ssh-err-{name}"))
        .spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if let Ok(mut s) = sink.lock() {
                    s.extend_from_slice(&buf[..n]);
                    let over = s.len().saturating_sub(4096);
                    s.drain(..over);
                }
            }
        });
    last_err
}

/// Why a stream ended that said nothing itself: ssh's last line, else
/// what its exit code means.
fn why_ended(stderr: &[u8], code: Option<std::process::ExitStatus>) -> String {
    super::ssh::last_line(stderr).unwrap_or_else(|| match code {
        Some(c) if c.code() == Some(127) => {
            "greenroom is not on its PATH (set `greenroom` in its [[hosts]] entry)".into()
        }
        _ => "the connection ended".into(),
    })
}

#[cfg(test)]
mod tests;
