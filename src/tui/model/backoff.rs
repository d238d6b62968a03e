//! The wait between tries of a link that failed (tmux's control client,
//! a host's stream): one second, doubling, at most a ceiling; afresh once
//! the link has proven healthy.

use chrono::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    /// Seconds the next failure waits.
    next: i64,
    /// Seconds it never waits more than.
    max: i64,
}

impl Backoff {
    /// A first wait of one second, at most `max_secs`.
    pub const fn new(max_secs: i64) -> Self {
        Self {
            next: 1,
            max: max_secs,
        }
    }

    /// The wait after this failure; the next one waits twice as long.
    pub fn fail(&mut self) -> Duration {
        let wait = self.next;
        self.next = (self.next * 2).min(self.max);
        Duration::seconds(wait)
    }

    /// The wait the next failure will get, without counting one.
    pub fn next_wait(&self) -> Duration {
        Duration::seconds(self.next)
    }

    /// Seconds the next failure waits.
    pub fn secs(&self) -> i64 {
        self.next
    }

    /// The link proved healthy: the next failure waits one second again.
    pub fn reset(&mut self) {
        self.next = 1;
    }
}
