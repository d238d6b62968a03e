//! The reader and the inbox, against made streams.

use super::inbox::keep_shown_rows;
use super::lines::{Read1, read_line};
use super::*;
use crate::sources::wire::parse_line;
use std::io::BufReader;
use std::time::{Duration, Instant};

#[test]
fn a_line_longer_than_the_cap_is_skipped_whole() {
    let text = format!("short\n{}\nafter\nend", "x".repeat(100));
    let mut r = BufReader::with_capacity(8, text.as_bytes());
    let mut line = Vec::new();
    assert!(matches!(read_line(&mut r, &mut line, 10), Ok(Read1::Line)));
    assert_eq!(line, b"short\n");
    assert!(matches!(
        read_line(&mut r, &mut line, 10),
        Ok(Read1::TooLong(101))
    ));
    assert!(line.len() <= 11);
    assert!(matches!(read_line(&mut r, &mut line, 10), Ok(Read1::Line)));
    assert_eq!(line, b"after\n");
    assert!(matches!(read_line(&mut r, &mut line, 10), Ok(Read1::Line)));
    assert_eq!(line, b"end");
    assert!(matches!(read_line(&mut r, &mut line, 10), Ok(Read1::End)));
}

#[test]
fn the_log_quota_says_how_many_it_left_out() {
    let t0 = Instant::now();
    let mut q = LogQuota::new(3, Duration::from_secs(60), t0);
    let logged = (0..100_000).filter(|_| q.allow(t0).is_some()).count();
    assert_eq!(logged, 3);
    assert_eq!(q.allow(t0 + Duration::from_secs(61)), Some(99_997));
    assert_eq!(q.allow(t0 + Duration::from_secs(62)), Some(0));
}

/// An endless `changed` stream, each row new (nothing to coalesce):
/// counts the bytes it gave.
struct Endless {
    n: u64,
    pending: Vec<u8>,
    given: Arc<std::sync::atomic::AtomicU64>,
}

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            self.pending = if self.n == 0 {
                br#"{"type":"snapshot","greenroom":"x","protocol":1,"sessions":[]}"#.to_vec()
            } else {
                format!(
                    r#"{{"type":"changed","session":{{"id":"row-{}","name":"n"}}}}"#,
                    self.n
                )
                .into_bytes()
            };
            self.pending.push(b'\n');
            self.n += 1;
        }
        let k = buf.len().min(self.pending.len());
        buf[..k].copy_from_slice(&self.pending[..k]);
        self.pending.drain(..k);
        self.given
            .fetch_add(k as u64, std::sync::atomic::Ordering::Relaxed);
        Ok(k)
    }
}

fn wait_until(what: &str, mut f: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !f() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn an_endless_stream_fills_the_inbox_then_waits() {
    let inbox = Arc::new(Inbox::default());
    let given = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let stream = Endless {
        n: 0,
        pending: Vec::new(),
        given: given.clone(),
    };
    let (sink, wakes) = (
        inbox.clone(),
        Arc::new(std::sync::atomic::AtomicU64::new(0)),
    );
    let woken = wakes.clone();
    let reader = std::thread::spawn(move || {
        read_lines(stream, "h", &|s, bytes| match sink.put(s, bytes) {
            Put::First => {
                woken.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                true
            }
            Put::Queued => true,
            Put::Closed => false,
        })
    });
    let mut taken = 0usize;
    for round in 1..=5u64 {
        // Nobody takes the lines: the reader fills the inbox and waits.
        wait_until("the reader to wait", || inbox.waited() >= round);
        assert!(inbox.len() <= INBOX_LINES, "{} lines held", inbox.len());
        let line = 80u64;
        let bound = (taken + INBOX_LINES + 2) as u64 * line + 64 * 1024;
        let read = given.load(std::sync::atomic::Ordering::Relaxed);
        assert!(read <= bound, "read {read} bytes, at most {bound} expected");
        taken += inbox.take().len();
    }
    // One wake per time the inbox went from empty to not.
    assert!(wakes.load(std::sync::atomic::Ordering::Relaxed) <= 6);
    inbox.close();
    assert_eq!(
        reader.join().unwrap(),
        Some("the dashboard let it go".into())
    );
}

fn changed(id: &str, name: &str) -> Said {
    let line = format!(r#"{{"type":"changed","session":{{"id":"{id}","name":"{name}"}}}}"#);
    Said::Line(parse_line(line.as_bytes(), "h").unwrap())
}

#[test]
fn a_rows_newer_line_replaces_the_one_not_taken_yet() {
    let inbox = Inbox::default();
    assert_eq!(inbox.put(changed("a", "1"), 10), Put::First);
    assert_eq!(inbox.put(changed("b", "1"), 10), Put::Queued);
    for n in 2..10_000 {
        assert_eq!(inbox.put(changed("a", &n.to_string()), 10), Put::Queued);
    }
    assert_eq!(inbox.put(Said::Line(Line::Heartbeat), 10), Put::Queued);
    assert_eq!(inbox.len(), 2);
    let said = inbox.take();
    assert_eq!(said[0], changed("a", "9999"));
    assert_eq!(said[1], changed("b", "1"));
    // Removed then changed again: both kept, in order.
    inbox.put(changed("a", "x"), 10);
    inbox.put(Said::Line(Line::Removed("a".into())), 10);
    inbox.put(changed("a", "y"), 10);
    assert_eq!(inbox.take().len(), 3);
    // A snapshot makes everything before it moot.
    inbox.put(changed("a", "x"), 10);
    inbox.put(
        Said::Line(Line::Snapshot {
            version: "x".into(),
            rows: vec![],
            problems: vec![],
        }),
        10,
    );
    assert_eq!(inbox.len(), 1);
}

#[test]
fn a_snapshot_keeps_one_row_past_those_shown() {
    let row = r#"{"id":"ID","name":"n"}"#;
    let rows: Vec<String> = (0..MAX_ROWS + 50)
        .map(|i| row.replace("ID", &format!("r{i}")))
        .collect();
    let text = format!(
        r#"{{"type":"snapshot","greenroom":"x","protocol":{},"sessions":[{}],"problems":[]}}"#,
        crate::sources::wire::PROTOCOL,
        rows.join(",")
    );
    let mut line = parse_line(text.as_bytes(), "h").unwrap();
    keep_shown_rows(&mut line);
    let Line::Snapshot { rows, .. } = line else {
        panic!("not a snapshot");
    };
    assert_eq!(rows.len(), MAX_ROWS + 1);
}
