//! The engine with its real watcher, fed the paths the watcher sends until
//! the rows show what a test waits for (never a fixed sleep).

use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use chrono::Utc;
use greenroom::config::Config;
use greenroom::engine::{Change, Engine};
use greenroom::model::Session;

/// An engine started on real folders and what its watcher has sent.
pub struct Live {
    pub engine: Engine,
    pub rx: Receiver<Change>,
}

impl Live {
    pub fn start(config: &Config) -> Self {
        let (tx, rx) = channel();
        let engine = Engine::start(config, false, move |p| {
            let _ = tx.send(p);
        })
        .unwrap();
        Live { engine, rx }
    }

    /// Feeds file events to the engine until `check` holds, or fails after 10 s.
    pub fn until(&mut self, what: &str, check: impl Fn(&[Session]) -> bool) -> Vec<Session> {
        rows_until(&mut self.engine, &self.rx, 10, what, check)
    }

    /// Feeds file events until the row `name` satisfies `check` (10 s).
    pub fn row(&mut self, name: &str, what: &str, check: impl Fn(&Session) -> bool) -> Session {
        row_until(&mut self.engine, &self.rx, 10, name, what, check)
    }
}

/// Feeds what `rx` brings to `engine`, a batch at a time, until `check`
/// holds on the rows; fails after `secs` showing them.
pub fn rows_until(
    engine: &mut Engine,
    rx: &Receiver<Change>,
    secs: u64,
    what: &str,
    check: impl Fn(&[Session]) -> bool,
) -> Vec<Session> {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let rows = engine.rows(Utc::now());
        if check(&rows) {
            return rows;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        assert!(
            !left.is_zero(),
            "timed out waiting for {what}; rows: {rows:#?}"
        );
        if let Ok(first) = rx.recv_timeout(left.min(Duration::from_millis(200))) {
            let mut batch = vec![first];
            batch.extend(rx.try_iter());
            engine.apply_changes(batch);
        }
    }
}

/// `rows_until` the row named `name` satisfies `check`; that row.
pub fn row_until(
    engine: &mut Engine,
    rx: &Receiver<Change>,
    secs: u64,
    name: &str,
    what: &str,
    check: impl Fn(&Session) -> bool,
) -> Session {
    let found = |r: &Session| r.name == name && check(r);
    let rows = rows_until(engine, rx, secs, what, |rows| rows.iter().any(found));
    rows.into_iter().find(found).unwrap()
}
