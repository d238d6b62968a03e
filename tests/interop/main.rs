//! The interoperability suite: the real agents and writers, run offline
//! against stand-ins these tests serve on 127.0.0.1, with greenroom reading
//! what they write. It needs node, npm and the shared folder beside the
//! clone (`../shared`), so it is not part of `cargo test`:
//!
//! ```sh
//! cargo test --features interop --test interop
//! ```
//!
//! The npm packages are installed on first use by `.ci/interop-deps` into
//! `~/.cache/greenroom-ci/npm` (`GREENROOM_INTEROP_CACHE`). A missing tool is a
//! failure that says what is missing, never a skip.
//!
//! `standin.rs` is the one HTTP core of the stand-in model APIs (each
//! agent's wire format is its own `<agent>/standin.rs`); `harness.rs` the
//! one core of the agents' private worlds (HOME, tmux server, greenroom on
//! them, the waits), which each `<agent>/harness.rs` (Gemini's
//! `gemini/cli.rs`) builds on.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

mod harness;
#[path = "../it/support/mod.rs"]
#[allow(unused)]
mod it_support;
mod standin;
mod support;

mod adopt;
mod ao;
mod claude;
mod codex;
mod gemini;
mod maestro;
mod opencode;
