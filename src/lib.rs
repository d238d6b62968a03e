//! greenroom: a terminal dashboard for operators who run many AI coding agents in tmux.
//!
//! Data flows one way: `sources` (files) -> `catalog` (merged rows) -> the views.
//! See ARCHITECTURE.md for the map.

pub mod attention;
pub mod catalog;
pub mod cli;
pub mod config;
pub mod display;
pub mod engine;
pub mod environ;
pub mod freshness;
pub mod git;
pub mod health;
pub mod hook;
pub mod hosts;
pub mod logging;
pub mod model;
pub mod ops;
pub mod process;
pub mod sources;
pub mod tmux;
pub mod tui;
pub mod watch;
