//! A one-shot child's pipes: stdout and stderr read to their end on
//! threads of their own (kept within their caps, the rest dropped, so the
//! child never blocks on a full pipe), its input written on a third, and
//! what they got once the child has exited, waiting no longer than asked.

use std::io::{self, Read, Write};
use std::process::Child;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::Limits;

/// Which end of a stream is kept.
#[derive(Clone, Copy)]
enum Keep {
    Head(usize),
    Tail(usize),
}

#[derive(Default)]
struct Captured {
    bytes: Vec<u8>,
    over: bool,
}

/// The threads reading stdout and stderr and writing stdin; each says on
/// `done` when it has finished.
pub(super) struct Pipes {
    stdout: Arc<Mutex<Captured>>,
    stderr: Arc<Mutex<Captured>>,
    /// Set as soon as stdout goes over its cap.
    pub(super) over: Arc<AtomicBool>,
    done: Receiver<()>,
    written: Receiver<io::Result<()>>,
}

impl Pipes {
    pub(super) fn start(child: &mut Child, input: Option<Vec<u8>>, limits: Limits) -> Self {
        let (tx, done) = channel();
        let over = Arc::new(AtomicBool::new(false));
        let stdout = read(
            child.stdout.take(),
            Keep::Head(limits.stdout),
            Some(over.clone()),
            tx.clone(),
        );
        let stderr = read(child.stderr.take(), Keep::Tail(limits.stderr), None, tx);
        let (put, written) = channel();
        match (child.stdin.take(), input) {
            (Some(mut stdin), Some(bytes)) => {
                std::thread::spawn(move || {
                    let _ = put.send(stdin.write_all(&bytes));
                });
            }
            _ => {
                let _ = put.send(Ok(()));
            }
        }
        Self {
            stdout,
            stderr,
            over,
            done,
            written,
        }
    }

    /// What was read by `until` (both pipes at their end, most often), and
    /// how writing the input went.
    pub(super) fn finish(self, until: Instant) -> (Vec<u8>, bool, Vec<u8>, io::Result<()>) {
        for _ in 0..2 {
            let left = until.saturating_duration_since(Instant::now());
            if self.done.recv_timeout(left).is_err() {
                break;
            }
        }
        let left = until.saturating_duration_since(Instant::now());
        let written = self.written.recv_timeout(left).unwrap_or(Ok(()));
        let take = |c: &Mutex<Captured>| {
            let mut c = c.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            (std::mem::take(&mut c.bytes), c.over)
        };
        let (stdout, cut) = take(&self.stdout);
        let (stderr, _) = take(&self.stderr);
        (stdout, cut, stderr, written)
    }
}

/// Reads `pipe` to its end on a thread of its own, keeping what `keep`
/// says and dropping the rest, so the child never blocks on a full pipe.
fn read(
    pipe: Option<impl Read + Send + 'static>,
    keep: Keep,
    over: Option<Arc<AtomicBool>>,
    done: Sender<()>,
) -> Arc<Mutex<Captured>> {
    let captured = Arc::new(Mutex::new(Captured::default()));
    let sink = captured.clone();
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 64 * 1024];
        if let Some(mut pipe) = pipe {
            loop {
                let n = match pipe.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(_) => break,
                };
                let mut c = sink
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if keep_part(&mut c, &buf[..n], keep)
                    && let Some(flag) = &over
                {
                    flag.store(true, Ordering::Relaxed);
                }
            }
        }
        let _ = done.send(());
    });
    captured
}

/// Adds `part` to what is kept; true once anything was dropped.
fn keep_part(c: &mut Captured, part: &[u8], keep: Keep) -> bool {
    match keep {
        Keep::Head(cap) => {
            let room = cap.saturating_sub(c.bytes.len());
            c.bytes.extend_from_slice(&part[..part.len().min(room)]);
            c.over |= part.len() > room;
        }
        Keep::Tail(cap) => {
            c.bytes.extend_from_slice(part);
            let extra = c.bytes.len().saturating_sub(cap);
            c.bytes.drain(..extra);
            c.over |= extra > 0;
        }
    }
    c.over
}
