//! Writing to stdout when the reader may leave early: `greenroom ls --json |
//! head -1` closes the pipe and that is normal, not an error. Rust ignores
//! SIGPIPE, so a write to a closed pipe fails with `BrokenPipe`; every
//! command that prints ends quietly with exit code 0 then, as it would if
//! the reader had read everything.

use std::io::{self, Write};

/// Writes all of `bytes` to stdout and flushes; a closed pipe is success.
pub fn write_stdout(bytes: &[u8]) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .or_else(closed_stdout_is_fine)
}

/// For `or_else`: a closed pipe is success, any other error stays one.
pub fn closed_stdout_is_fine(e: io::Error) -> io::Result<()> {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Ok(())
    } else {
        Err(e)
    }
}

/// `println!` panics when stdout is a closed pipe: wraps the panic hook
/// already installed so that this one panic ends the process quietly with
/// exit code 0, and every other panic is reported as before.
pub fn quiet_on_closed_stdout() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if payload.starts_with("failed printing to stdout") && payload.contains("Broken pipe") {
            std::process::exit(0);
        }
        report(info);
    }));
}

/// Writes one line to stderr. Unlike `eprintln!`, a stderr that is gone
/// (the terminal window closed under the dashboard) is no panic: there is
/// no one left to tell.
pub fn stderr_line(line: std::fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{line}").and_then(|()| err.flush());
}
