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

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::HostConfig;
use crate::sources::wire::{Line, MAX_LINE, parse_line};

/// What a connection says: a parsed line, or its end.
#[derive(Debug, Clone, PartialEq)]
pub enum Said {
    Line(Line),
    Down(String),
}

/// The most lines an inbox holds before its reader waits.
pub const INBOX_LINES: usize = 1024;
/// The most bytes (as the host wrote them) an inbox holds before its reader
/// waits; one line alone may be longer (up to [`MAX_LINE`]).
pub const INBOX_BYTES: usize = 4 * 1024 * 1024;

/// The most rows the dashboard shows from one host.
pub const MAX_ROWS: usize = 5000;

/// A snapshot's rows past those shown are let go here, on the reader's
/// thread: freeing 100,000 rows on the dashboard's loop held keys for a
/// third of a second. One more than shown is kept, so the dashboard still
/// sees that the host is over the cap.
fn keep_shown_rows(line: &mut Line) {
    if let Line::Snapshot { rows, .. } = line {
        rows.truncate(MAX_ROWS + 1);
    }
}

/// A connection's lines the dashboard has not taken yet.
#[derive(Default)]
pub struct Inbox {
    queue: Mutex<Queue>,
    room: Condvar,
}

#[derive(Default)]
struct Queue {
    said: VecDeque<(Said, usize)>,
    /// The number of the first line in `said` since the inbox began: a
    /// line's place is its number less this.
    first: u64,
    /// The pending `added`/`changed` line of each row, by number.
    rows: HashMap<String, u64>,
    /// The pending `problems` line, by number.
    problems: Option<u64>,
    bytes: usize,
    closed: bool,
    /// How many times the reader waited for room (for tests).
    waited: u64,
}

impl Queue {
    fn at(&mut self, number: u64) -> Option<&mut (Said, usize)> {
        let i = usize::try_from(number.checked_sub(self.first)?).ok()?;
        self.said.get_mut(i)
    }
}

/// Whether a reader can go on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Put {
    /// The inbox was empty: the dashboard must be told.
    First,
    Queued,
    /// The dashboard is done with this connection: stop reading.
    Closed,
}

impl Inbox {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Leaves a line `bytes` long, waiting while the inbox is full. A row's
    /// line replaces that row's line not taken yet; a snapshot replaces
    /// everything not taken yet; a heartbeat behind other lines says
    /// nothing more than they do.
    pub fn put(&self, said: Said, bytes: usize) -> Put {
        let mut q = self.lock();
        loop {
            if q.closed {
                return Put::Closed;
            }
            let slot = match &said {
                Said::Line(Line::Added(r) | Line::Changed(r)) => q.rows.get(&r.session.id).copied(),
                Said::Line(Line::Problems(_)) => q.problems,
                _ => None,
            };
            let was_empty = q.said.is_empty();
            match &said {
                Said::Line(Line::Heartbeat) if !was_empty => return Put::Queued,
                Said::Line(Line::Snapshot { .. }) => {
                    *q = Queue {
                        first: q.first + q.said.len() as u64,
                        waited: q.waited,
                        ..Queue::default()
                    };
                }
                _ => {}
            }
            let old = slot.and_then(|n| q.at(n)).map_or(0, |(_, b)| *b);
            let lines = q.said.len() + usize::from(slot.is_none());
            let fits = lines <= INBOX_LINES && q.bytes.saturating_sub(old) + bytes <= INBOX_BYTES;
            // The end is always taken: nothing follows it.
            if !(fits || q.said.is_empty() || matches!(said, Said::Down(_))) {
                q.waited += 1;
                q = self
                    .room
                    .wait(q)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                continue;
            }
            q.bytes = q.bytes.saturating_sub(old) + bytes;
            if let Some(entry) = slot.and_then(|n| q.at(n)) {
                *entry = (said, bytes);
                return Put::Queued;
            }
            let number = q.first + q.said.len() as u64;
            match &said {
                Said::Line(Line::Added(r) | Line::Changed(r)) => {
                    q.rows.insert(r.session.id.clone(), number);
                }
                Said::Line(Line::Removed(id)) => {
                    q.rows.remove(id);
                }
                Said::Line(Line::Problems(_)) => q.problems = Some(number),
                _ => {}
            }
            q.said.push_back((said, bytes));
            return if was_empty { Put::First } else { Put::Queued };
        }
    }

    /// Everything not taken yet, in order; the reader may go on.
    pub fn take(&self) -> Vec<Said> {
        let mut q = self.lock();
        let said = std::mem::take(&mut q.said);
        q.first += said.len() as u64;
        q.rows.clear();
        q.problems = None;
        q.bytes = 0;
        drop(q);
        self.room.notify_all();
        said.into_iter().map(|(s, _)| s).collect()
    }

    /// The dashboard is done with this connection: its reader stops.
    pub fn close(&self) {
        let mut q = self.lock();
        q.closed = true;
        q.said.clear();
        drop(q);
        self.room.notify_all();
    }

    /// How many lines wait.
    pub fn len(&self) -> usize {
        self.lock().said.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many times the reader waited for room.
    pub fn waited(&self) -> u64 {
        self.lock().waited
    }
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
            Err(e) => {
                said(Said::Down(format!("cannot run ssh: {e}")), 0);
                return;
            }
        };
        let (Some(out), Some(err)) = (child.stdout.take(), child.stderr.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            said(Said::Down("no pipe from ssh".into()), 0);
            return;
        };
        if let Ok(mut g) = shared.lock() {
            *g = Some(child);
        }
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
                said(Said::Down(why), 0);
            });
        if spawned.is_err()
            && let Some(old) = self.conns.remove(name)
        {
            old.end();
        }
    }
}

/// One line read within the cap.
enum Read1 {
    Line,
    /// Longer than the cap: skipped, this many bytes.
    TooLong(usize),
    End,
}

/// Reads one line into `line` (without holding more than `cap + 1` bytes of
/// it); a longer line is read to its end and dropped.
fn read_line(reader: &mut impl BufRead, line: &mut Vec<u8>, cap: usize) -> std::io::Result<Read1> {
    line.clear();
    let mut skipped = 0usize;
    loop {
        let buf = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(match (skipped, line.is_empty()) {
                (0, true) => Read1::End,
                (0, false) => Read1::Line,
                (n, _) => Read1::TooLong(n),
            });
        }
        let (part, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let n = part.len();
        if skipped == 0 && line.len() + n <= cap + 1 {
            line.extend_from_slice(part);
        } else {
            skipped = skipped.saturating_add(line.len() + n);
            line.clear();
        }
        reader.consume(n);
        if done {
            return Ok(if skipped == 0 {
                Read1::Line
            } else {
                Read1::TooLong(skipped)
            });
        }
    }
}

/// How many warnings about a host's bad lines go to the log: the first
/// few, then one a minute saying how many were not logged, so a host's
/// flood never rotates the log's history away.
pub struct LogQuota {
    burst: u32,
    used: u32,
    window: Duration,
    since: Instant,
    dropped: u64,
}

impl LogQuota {
    pub fn new(burst: u32, window: Duration, now: Instant) -> Self {
        Self {
            burst,
            used: 0,
            window,
            since: now,
            dropped: 0,
        }
    }

    /// `Some(n)`: log this one, saying `n` were not logged before it;
    /// `None`: do not log it.
    pub fn allow(&mut self, now: Instant) -> Option<u64> {
        if now.duration_since(self.since) >= self.window {
            self.since = now;
            self.used = 0;
        }
        if self.used < self.burst {
            self.used += 1;
            return Some(std::mem::take(&mut self.dropped));
        }
        self.dropped += 1;
        None
    }
}

/// Reads lines until the stream ends (`None`: say why from ssh), cannot be
/// read (`Some(why)`), or the dashboard is done with it. `said` gets each
/// line and its length; `false`: stop.
pub fn read_lines(
    out: impl Read,
    host: &str,
    said: &dyn Fn(Said, usize) -> bool,
) -> Option<String> {
    let mut reader = BufReader::new(out);
    let mut line = Vec::new();
    let mut first = true;
    let mut quota = LogQuota::new(10, Duration::from_secs(60), Instant::now());
    loop {
        let error = match read_line(&mut reader, &mut line, MAX_LINE) {
            Ok(Read1::End) => return None,
            Err(e) => return Some(format!("reading from ssh: {e}")),
            Ok(Read1::TooLong(n)) => format!(
                "a line longer than {} MiB ({n} bytes) was skipped",
                MAX_LINE >> 20
            ),
            Ok(Read1::Line) => match parse_line(&line, host) {
                Ok(mut l) => {
                    first = false;
                    keep_shown_rows(&mut l);
                    if !said(Said::Line(l), line.len()) {
                        return Some("the dashboard let it go".into());
                    }
                    continue;
                }
                Err(e) => e,
            },
        };
        // The first line must be a snapshot greenroom can read.
        if first {
            return Some(error);
        }
        if let Some(dropped) = quota.allow(Instant::now()) {
            if dropped > 0 {
                tracing::warn!(%host, error = %error, not_logged = dropped, "a line from a host was ignored ({dropped} more were not logged)");
            } else {
                tracing::warn!(%host, error = %error, "a line from a host was ignored");
            }
        }
    }
}

#[cfg(test)]
mod tests;
