//! Reading a host's stream: one line at a time within the cap, parsed,
//! its bad lines logged at a bounded rate.

use std::io::{BufRead, BufReader, Read};
use std::time::{Duration, Instant};

use super::Said;
use super::inbox::keep_shown_rows;
use crate::sources::wire::{MAX_LINE, parse_line};

/// One line read within the cap.
pub(super) enum Read1 {
    Line,
    /// Longer than the cap: skipped, this many bytes.
    TooLong(usize),
    End,
}

/// Reads one line into `line` (without holding more than `cap + 1` bytes of
/// it); a longer line is read to its end and dropped.
pub(super) fn read_line(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    cap: usize,
) -> std::io::Result<Read1> {
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
