//! The only IO in the dashboard: the event loop, the runner that carries
//! out effects, the terminal, and reading keys.

pub mod jobs;
mod host_ops;
pub mod input;
pub mod run;
mod runner;
mod terminal;
