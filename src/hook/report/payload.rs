//! The hook's payload on stdin: read within a deadline, bounded, and
//! refused whole when it is too large or not a JSON object.

use std::io::Read;
use std::time::Duration;

use serde_json::Value;

use crate::sources::MAX_FILE_BYTES;

/// Reads at most the payload cap; a larger payload is refused whole, since
/// a cut JSON document cannot be trusted.
pub fn read_payload(mut input: impl Read) -> Result<Option<Value>, String> {
    let mut bytes = Vec::new();
    input
        .by_ref()
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read the payload: {e}"))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err("payload is over 1 MiB; ignored".into());
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let value: Value =
        serde_json::from_slice(&bytes).map_err(|e| format!("payload is not JSON: {e}"))?;
    if !value.is_object() {
        return Err("payload is not a JSON object".into());
    }
    Ok(Some(value))
}

/// How long `report` waits for a payload that may never end: hooks send
/// one and close stdin at once, but a wrapper may keep the pipe open.
pub const PAYLOAD_WAIT: Duration = Duration::from_secs(1);
/// With a STATE on the command line a payload is optional: wait less.
const OPTIONAL_PAYLOAD_WAIT: Duration = Duration::from_millis(200);

/// Where the payload comes from. Hooks always send one and close stdin; a
/// terminal or a pipe that never closes must not hold the agent up, so
/// stdin is read off the main thread for [`PAYLOAD_WAIT`] at most, and what
/// arrived by then is used. A payload over the cap is drained (within the
/// same wait) rather than left unread, so the writer gets no SIGPIPE.
pub fn payload_input(state_given: bool) -> Box<dyn Read> {
    use std::io::IsTerminal;
    let stdin = std::io::stdin();
    if state_given && stdin.is_terminal() {
        return Box::new(std::io::empty());
    }
    let wait = if state_given {
        OPTIONAL_PAYLOAD_WAIT
    } else {
        PAYLOAD_WAIT
    };
    Box::new(std::io::Cursor::new(read_bounded(stdin, wait)))
}

/// Reads `input` until it ends or `wait` passes, keeping at most the cap
/// plus one byte (so an oversized payload is still recognised as such).
pub fn read_bounded(input: impl Read + Send + 'static, wait: Duration) -> Vec<u8> {
    use std::sync::{Arc, Mutex};
    let kept = Arc::new(Mutex::new(Vec::new()));
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    {
        let kept = kept.clone();
        std::thread::spawn(move || {
            let mut input = input;
            let mut chunk = vec![0u8; 64 * 1024];
            loop {
                match input.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => {
                        if let Ok(mut kept) = kept.lock() {
                            let room = (MAX_FILE_BYTES + 1).saturating_sub(kept.len() as u64);
                            let take = n.min(room as usize);
                            kept.extend_from_slice(&chunk[..take]);
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            let _ = tx.send(());
        });
    }
    // Ended or timed out alike: act on what arrived.
    let _ = rx.recv_timeout(wait);
    kept.lock()
        .map(|mut k| std::mem::take(&mut *k))
        .unwrap_or_default()
}
