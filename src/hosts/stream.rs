//! One ssh connection per host reading `greenroom watch --json` there: a
//! thread per connection reads its lines (bounded), parses them and hands
//! them on; the connection's end (or a stream greenroom cannot read) is
//! reported once, with why. What to do about it is the reducer's.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};

use super::HostConfig;
use crate::sources::watch_stream::{Line, MAX_LINE, parse_line};

/// What a connection says: a parsed line, or its end.
pub enum Said {
    Line(Line),
    Down(String),
}

type Shared = Arc<Mutex<Option<Child>>>;

/// The hosts' connections; dropping it ends them.
pub struct Links {
    hosts: Vec<HostConfig>,
    control: Result<PathBuf, String>,
    children: BTreeMap<String, Shared>,
}

impl Drop for Links {
    fn drop(&mut self) {
        for child in self.children.values() {
            end(child);
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
            children: BTreeMap::new(),
        }
    }

    pub fn host(&self, name: &str) -> Option<&HostConfig> {
        self.hosts.iter().find(|h| h.name == name)
    }

    pub fn control(&self) -> Result<&PathBuf, String> {
        self.control.as_ref().map_err(Clone::clone)
    }

    /// Ends the host's connection, if any, and starts a new one; `said`
    /// gets its lines from the reading thread, last its end.
    pub fn connect(&mut self, name: &str, said: impl Fn(Said) + Send + 'static) {
        if let Some(old) = self.children.remove(name) {
            end(&old);
        }
        let Some(host) = self.host(name).cloned() else {
            return said(Said::Down("not in config.toml".into()));
        };
        let dir = match &self.control {
            Ok(d) => d.clone(),
            Err(e) => return said(Said::Down(format!("no ssh control folder: {e}"))),
        };
        let mut cmd = super::ssh::command(&host, &dir, false);
        cmd.arg(super::ssh::remote_line(
            &host,
            &["watch", "--json", "--host", &host.name],
        ))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
        let mut child = match cmd.spawn() {
            Ok(c) => c,
            Err(e) => return said(Said::Down(format!("cannot run ssh: {e}"))),
        };
        let (Some(out), Some(err)) = (child.stdout.take(), child.stderr.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return said(Said::Down("no pipe from ssh".into()));
        };
        let shared: Shared = Arc::new(Mutex::new(Some(child)));
        self.children.insert(name.to_owned(), shared.clone());
        // stderr: only its last words matter (why ssh ended); bounded.
        let last_err = Arc::new(Mutex::new(Vec::<u8>::new()));
        let sink = last_err.clone();
        let _ = std::thread::Builder::new()
            .name(format!("ssh-err-{name}"))
            .spawn(move || {
                let mut buf = [0u8; 4096];
                let mut err = err;
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
                let why = why.unwrap_or_else(|| {
                    super::ssh::last_line(&stderr).unwrap_or_else(|| match code {
                        Some(c) if c.code() == Some(127) => {
                            "greenroom is not on its PATH (set `greenroom` in its [[hosts]] entry)"
                                .into()
                        }
                        _ => "the connection ended".into(),
                    })
                });
                said(Said::Down(why));
            });
        if spawned.is_err()
            && let Some(old) = self.children.remove(name)
        {
            end(&old);
        }
    }
}

/// Reads lines until the stream ends (`None`: say why from ssh) or cannot
/// be read (`Some(why)`).
fn read_lines(out: impl Read, host: &str, said: &dyn Fn(Said)) -> Option<String> {
    let mut reader = BufReader::new(out);
    let mut line = Vec::new();
    let mut first = true;
    loop {
        line.clear();
        let limit = (MAX_LINE + 1) as u64;
        match reader.by_ref().take(limit).read_until(b'\n', &mut line) {
            Ok(0) => return None,
            Ok(_) => {}
            Err(e) => return Some(format!("reading from ssh: {e}")),
        }
        if line.len() > MAX_LINE {
            return Some(format!("it sent a line longer than {} MiB", MAX_LINE >> 20));
        }
        match parse_line(&line, host) {
            Ok(l) => {
                first = false;
                said(Said::Line(l));
            }
            // The first line must be a snapshot greenroom can read.
            Err(e) if first => return Some(e),
            Err(e) => tracing::warn!(%host, error = %e, "a line from a host was ignored"),
        }
    }
}
