//! greenroom's integration tests, one test crate (one link step): real
//! files in temp folders, real tmux servers on private sockets, the built
//! binary driven in tmux. One folder per entry point (the reducer and
//! views `tui`, the dashboard binary in tmux `e2e`, a subcommand `cli`,
//! `sources`, `catalog`, `engine`, `hosts` over sshd, `git`, `tmux`), one
//! file per feature inside it; `support` holds the shared fixtures.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

mod catalog;
mod cli;
mod e2e;
mod engine;
mod git;
mod hosts;
mod layering;
mod readme;
mod sources;
mod support;
mod tmux;
mod tui;
