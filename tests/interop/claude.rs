//! The real Claude Code 2.1.328 (native binary), offline against the
//! stand-in Messages API, started through `greenroom spawn` with
//! greenroom's own hooks: what greenroom shows is compared with what Claude
//! Code itself shows and records.

mod answer;
mod cost;
mod errors;
mod harness;
mod latency;
mod spend;
mod standin;
mod standin_answers;
mod stuck;
mod turns;

use std::time::{Duration, Instant};

use harness::Claude;
use serde_json::Value;
use standin::Tokens;

fn tokens(input: u64, output: u64, cache_read: u64, cache_write: u64) -> Tokens {
    Tokens {
        input,
        output,
        cache_read,
        cache_write,
    }
}

fn health(row: &Value) -> &str {
    row["health"].as_str().unwrap_or_default()
}

/// Answers "1. Yes" to the permission dialog; a key that lands while the
/// dialog is still being drawn is lost, so it is pressed again until the
/// dialog goes (polled, with a deadline).
fn allow(c: &Claude) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while c.pane().text().contains("Do you want to proceed?") {
        assert!(
            Instant::now() < deadline,
            "the dialog stayed:\n{}",
            c.pane().text()
        );
        c.pane().keys(&["1"]);
        let pressed = Instant::now();
        while pressed.elapsed() < Duration::from_secs(2)
            && c.pane().text().contains("Do you want to proceed?")
        {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}
