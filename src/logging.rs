//! greenroom logs to a file, never to the terminal: the dashboard owns the
//! screen, and an agent reads a hook's stdout and stderr.

use std::fs::OpenOptions;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use crate::config::Env;

/// `$GREENROOM_LOG`, else `$XDG_STATE_HOME/greenroom/greenroom.log`.
pub fn log_path(env: &dyn Env) -> Option<PathBuf> {
    if let Some(p) = env.var("GREENROOM_LOG") {
        return Some(PathBuf::from(p));
    }
    let state = env
        .var("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| env.var("HOME").map(|h| Path::new(&h).join(".local/state")))?;
    Some(state.join("greenroom").join("greenroom.log"))
}

/// Installs the tracing subscriber. The file is opened per event, lazily,
/// so a run that logs nothing touches no file (the report path stays fast).
/// `RUST_LOG` filters; the default is `info`.
pub fn init(path: Option<PathBuf>) {
    let Some(path) = path else {
        return;
    };
    let writer = move || -> Box<dyn std::io::Write> {
        if let Some(dir) = path.parent() {
            let _ = std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(dir);
        }
        match OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(&path)
        {
            Ok(f) => Box::new(f),
            Err(_) => Box::new(std::io::sink()),
        }
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false)
        .with_writer(writer)
        .try_init();
}
