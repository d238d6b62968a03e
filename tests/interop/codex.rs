//! The real Codex CLI 0.169.0 (the npm package's native binary), offline
//! against the stand-in Responses API in `codex/standin.rs`, with a private
//! `CODEX_HOME`: started through `greenroom spawn`, and by hand in a plain
//! window; what greenroom shows is compared with what Codex records.

mod approve;
mod by_hand;
mod by_hand_hooks;
mod by_hand_watch;
mod harness;
mod hooked;
mod notify_restore;
mod spawned_hooks;
mod standin;
mod usage;

// The plain window a person starts an agent in.
use crate::adopt::user;

use crate::it_support::Pane;

/// Holds the test until the stand-in has answered `n` turns and Codex has
/// drawn the last answer's text.
fn until_answered(api: &standin::StandIn, pane: &Pane<'_>, n: usize, text: &str) {
    crate::harness::until_answered(api, pane, n, text, [60, 30]);
}
