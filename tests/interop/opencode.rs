//! The real OpenCode 1.18.33 (the npm package's native binary), offline
//! against the stand-in Chat Completions API in `opencode/standin.rs`, in a
//! private HOME (see `opencode/harness.rs` for how it is started and what
//! keeps it off the network): started through `greenroom spawn`, and by
//! hand in a plain window; what greenroom shows is compared with what
//! OpenCode records.

mod by_hand;
mod harness;
mod offline;
mod plugin;
mod spawned;
mod standin;

// The plain window a person starts an agent in.
use crate::adopt::user;

use crate::it_support::Pane;

/// Holds the test until the stand-in has answered `n` turns and OpenCode
/// has drawn the last answer's text.
fn until_answered(api: &standin::StandIn, pane: &Pane<'_>, n: usize, text: &str) {
    crate::harness::until_answered(api, pane, n, text, [180, 120]);
}
