//! The control-mode client (`tmux -C`) as a channel: its reader thread
//! sorts what tmux writes into command replies (`%begin` … `%end`/`%error`)
//! and notifications, and [`Control`] runs commands through it, so a poll
//! starts no tmux process (at 1,000 sessions the process alone costs more
//! than tmux's answer).
//!
//! A reply is the block between a `%begin T N F` and the `%end T N F` or
//! `%error T N F` with the same three fields; a line inside that looks like
//! an end but is not that one (a program's name may hold a newline) is
//! text. Replies come in the order the commands were written, so a queue of
//! waiting callers pairs them.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::ChildStdin;
use std::sync::mpsc::{SyncSender, sync_channel};
use std::sync::{Arc, Mutex};

use super::{CALL_TIMEOUT, TmuxError};

/// A reply's text, or tmux's error message.
type Reply = Result<String, String>;

/// Runs commands through a live control client; cheap to clone.
#[derive(Clone)]
pub struct Control {
    shared: Arc<Shared>,
}

struct Shared {
    /// `None` once the client has ended.
    input: Mutex<Option<ChildStdin>>,
    /// Callers waiting for replies, in the order their commands were written.
    waiting: Mutex<VecDeque<SyncSender<Reply>>>,
}

impl Control {
    pub(super) fn new(input: ChildStdin) -> Self {
        Self {
            shared: Arc::new(Shared {
                input: Mutex::new(Some(input)),
                waiting: Mutex::new(VecDeque::new()),
            }),
        }
    }

    /// Runs command lines (greenroom's own: constants and checked ids, one
    /// command each) and returns each one's answer, in order. Every answer
    /// comes within [`CALL_TIMEOUT`] or is an error.
    pub fn run_all(&self, lines: &[String]) -> Vec<Result<String, TmuxError>> {
        self.run_all_within(lines, CALL_TIMEOUT)
    }

    /// [`Self::run_all`] with answers awaited for at most `within`.
    pub(super) fn run_all_within(
        &self,
        lines: &[String],
        within: std::time::Duration,
    ) -> Vec<Result<String, TmuxError>> {
        let lost = || TmuxError::Failed {
            command: "-C".into(),
            message: "the control client has ended".into(),
        };
        let mut replies = Vec::with_capacity(lines.len());
        {
            let (Ok(mut input), Ok(mut waiting)) =
                (self.shared.input.lock(), self.shared.waiting.lock())
            else {
                return lines.iter().map(|_| Err(lost())).collect();
            };
            for line in lines {
                let written = match input.as_mut() {
                    _ if line.contains(['\n', '\r']) => Err(TmuxError::Failed {
                        command: "-C".into(),
                        message: "a command line holds a newline".into(),
                    }),
                    Some(w) => writeln!(w, "{line}").map_err(TmuxError::Io),
                    None => Err(lost()),
                };
                // The reply is paired only with a command tmux was given.
                replies.push(written.map(|()| {
                    let (tx, rx) = sync_channel(1);
                    waiting.push_back(tx);
                    rx
                }));
            }
            if let Some(w) = input.as_mut() {
                let _ = w.flush();
            }
        }
        let deadline = std::time::Instant::now() + within;
        replies
            .into_iter()
            .zip(lines)
            .map(|(reply, line)| {
                let rx = reply?;
                let left = deadline.saturating_duration_since(std::time::Instant::now());
                match rx.recv_timeout(left) {
                    Ok(Ok(text)) => Ok(text),
                    Ok(Err(message)) => Err(TmuxError::Failed {
                        command: line.split_whitespace().next().unwrap_or("").to_owned(),
                        message,
                    }),
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                        Err(TmuxError::Io(std::io::Error::new(
                            std::io::ErrorKind::TimedOut,
                            format!("tmux did not answer within {} ms", within.as_millis()),
                        )))
                    }
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Err(lost()),
                }
            })
            .collect()
    }

    /// One command's answer.
    pub fn run(&self, line: String) -> Result<String, TmuxError> {
        self.run_all(&[line]).pop().unwrap_or_else(|| {
            Err(TmuxError::Failed {
                command: "-C".into(),
                message: "no answer".into(),
            })
        })
    }

    /// The client ended, or greenroom ends it: nobody waits any longer,
    /// nothing more is written, and its input is closed, which tmux reads as
    /// the client's end of file (the way out that tmux expects).
    pub(super) fn close(&self) {
        if let Ok(mut input) = self.shared.input.lock() {
            *input = None;
        }
        if let Ok(mut waiting) = self.shared.waiting.lock() {
            waiting.clear();
        }
    }

    fn answer(&self, reply: Reply) {
        let next = self
            .shared
            .waiting
            .lock()
            .ok()
            .and_then(|mut w| w.pop_front());
        if let Some(tx) = next {
            let _ = tx.send(reply);
        }
    }
}

/// A line of the control client's output, as the reader sorts it.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Line<'a> {
    /// A reply to one of the command line's own commands (tmux marks
    /// those with flags 0): its text, or its error.
    Setup(Reply),
    /// Anything tmux wrote outside replies: `%sessions-changed`, `%exit`, …
    Notification(&'a str),
}

/// Reads the client's output until it ends, handing replies to their
/// callers and everything else to `on_line`; says why it ended.
pub(super) fn read(
    output: impl std::io::Read,
    control: &Control,
    on_line: &mut dyn FnMut(Line<'_>) -> Option<String>,
) -> String {
    let why = read_until_end(output, control, on_line);
    control.close();
    why
}

fn read_until_end(
    output: impl std::io::Read,
    control: &Control,
    on_line: &mut dyn FnMut(Line<'_>) -> Option<String>,
) -> String {
    let mut reader = BufReader::new(output);
    let mut raw = Vec::new();
    // The open reply: its `%begin` fields and the text so far.
    let mut open: Option<(String, String)> = None;
    loop {
        raw.clear();
        match reader.read_until(b'\n', &mut raw) {
            Ok(0) => return "the tmux control client ended".to_owned(),
            Ok(_) => {}
            Err(e) => return format!("reading tmux events: {e}"),
        }
        let text = String::from_utf8_lossy(&raw);
        let line = text.trim_end_matches(['\n', '\r']);
        if let Some((fields, body)) = &mut open {
            let end = line
                .strip_prefix("%end ")
                .map(|f| (f, true))
                .or_else(|| line.strip_prefix("%error ").map(|f| (f, false)));
            match end {
                Some((f, ok)) if f == fields.as_str() => {
                    let reply = if ok {
                        Ok(std::mem::take(body))
                    } else {
                        Err(crate::display::safe(body.trim())
                            .chars()
                            .take(200)
                            .collect())
                    };
                    // Flags 1: a command written to the client's input.
                    let ours = fields.ends_with(" 1");
                    open = None;
                    if ours {
                        control.answer(reply);
                    } else if let Some(why) = on_line(Line::Setup(reply)) {
                        return why;
                    }
                }
                _ => {
                    body.push_str(line);
                    body.push('\n');
                }
            }
        } else if let Some(fields) = line.strip_prefix("%begin ") {
            open = Some((fields.to_owned(), String::new()));
        } else if let Some(why) = on_line(Line::Notification(line)) {
            return why;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A control client with no tmux behind it: its input goes to a sink.
    fn replies(output: &str) -> (Vec<String>, Vec<Reply>) {
        let mut child = std::process::Command::new("cat")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let control = Control::new(child.stdin.take().unwrap());
        let (mut notes, mut setup) = (Vec::new(), Vec::new());
        read(output.as_bytes(), &control, &mut |line| {
            match line {
                Line::Notification(n) => notes.push(n.to_owned()),
                Line::Setup(r) => setup.push(r),
            }
            None
        });
        let _ = child.kill();
        let _ = child.wait();
        (notes, setup)
    }

    #[test]
    fn replies_and_notifications_are_told_apart() {
        let (notes, setup) = replies(
            "%begin 1 10 0\n%end 1 10 0\n%sessions-changed\n%begin 1 11 0\nno such thing\n%error 1 11 0\n%exit\n",
        );
        assert_eq!(notes, ["%sessions-changed", "%exit"]);
        assert_eq!(setup, [Ok(String::new()), Err("no such thing".into())]);
    }

    #[test]
    fn a_line_that_only_looks_like_the_end_is_text() {
        let (notes, setup) = replies(
            "%begin 5 20 0\nx\n%end 5 19 0\n%end 5 20 1\n%window-add @1\n%end 5 20 0\n%exit\n",
        );
        assert_eq!(
            setup,
            [Ok("x\n%end 5 19 0\n%end 5 20 1\n%window-add @1\n".into())]
        );
        assert_eq!(notes, ["%exit"]);
    }

    #[test]
    fn a_command_with_a_newline_is_never_written() {
        let mut child = std::process::Command::new("cat")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let control = Control::new(child.stdin.take().unwrap());
        let answer = control.run("list-sessions\nkill-server".into());
        assert!(answer.is_err(), "{answer:?}");
        control.close();
        assert!(control.run("list-sessions".into()).is_err());
        let _ = child.kill();
        let _ = child.wait();
    }
}
