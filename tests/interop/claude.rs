//! The real Claude Code 2.1.328 (native binary), offline against the
//! stand-in Messages API, started through `greenroom spawn` with
//! greenroom's own hooks: what greenroom shows is compared with what Claude
//! Code itself shows and records.

mod answer;
mod cost;
mod errors;
pub mod harness;
mod latency;
mod spend;
pub mod standin;
mod standin_answers;
mod stuck;
mod turns;

use std::time::Duration;

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

/// Answers "1. Yes" to the permission dialog until it goes, two seconds
/// for each press to land.
fn allow(c: &Claude) {
    let pane = c.pane();
    let asked = "Do you want to proceed?";
    crate::harness::press_until_gone(&pane, 20, asked, Duration::from_secs(2), || {
        pane.keys(&["1"]);
    });
}
