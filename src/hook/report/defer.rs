//! A report whose lock stays busy is handed to a copy of the process that
//! may wait much longer: the agent goes on at once, and the report is not
//! lost. The copy carries the report's time, so it never overwrites what a
//! newer report recorded meanwhile.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::environ::Env;
use crate::sources::sidecar::Sidecar;

/// Set in the copy: the time of the report it carries.
pub const REPORT_AT_ENV: &str = "GREENROOM_REPORT_AT";

/// How long the copy waits for the lock: it holds nothing up.
pub const DEFERRED_LOCK_WAIT: Duration = Duration::from_secs(60);

/// How long a report waits for its copy to have read its ancestry.
const READY_WAIT: Duration = Duration::from_secs(1);

/// The time of the deferred report this process carries, if it is a copy.
pub fn deferred_at(env: &dyn Env) -> Option<DateTime<Utc>> {
    let text = env.var(REPORT_AT_ENV)?;
    DateTime::parse_from_rfc3339(&text)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// Whether a newer report than one made `at` has been recorded.
pub fn superseded(s: &Sidecar, at: DateTime<Utc>) -> bool {
    s.activity_reported_at.is_some_and(|t| t > at)
}

/// Starts the copy with the same arguments and payload. Its output comes
/// to this process alone, never to the agent's: an agent waits for every
/// holder of the hook's stdout/stderr.
pub fn hand_over(
    state_arg: Option<&str>,
    payload: Option<&Value>,
    at: DateTime<Utc>,
    env: &dyn Env,
) -> Result<(), String> {
    let exe = env
        .snapshot()
        .and_then(|s| s.current_exe())
        .ok_or("cannot defer the report: cannot find the greenroom binary")?;
    let mut child = Command::new(exe)
        .arg("report")
        .args(state_arg)
        .env(REPORT_AT_ENV, at.to_rfc3339())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot defer the report: {e}"))?;
    // The copy reads its ancestry first, while this process is its parent,
    // and says so on its stdout (a pipe to this process only).
    let ready = child.stdout.take().map(|mut out| {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = out.read(&mut [0u8; 1]);
            let _ = tx.send(());
        });
        rx
    });
    if let Some(mut stdin) = child.stdin.take() {
        let text = payload.map(Value::to_string).unwrap_or_default();
        stdin
            .write_all(text.as_bytes())
            .map_err(|e| format!("cannot defer the report: {e}"))?;
    }
    if let Some(rx) = ready {
        let _ = rx.recv_timeout(READY_WAIT);
    }
    note(env, "report deferred: the session's lock stayed busy");
    Ok(())
}

/// Tells the report that started this copy that it may end (see
/// [`hand_over`]).
pub fn ready() {
    let mut out = std::io::stdout();
    let _ = out.write_all(b"\n").and_then(|()| out.flush());
}

/// Deferral is rare and worth a line; the log is set up only then.
pub fn note(env: &dyn Env, what: &'static str) {
    crate::logging::init(crate::logging::log_path(env), env);
    tracing::info!("{what}");
}
