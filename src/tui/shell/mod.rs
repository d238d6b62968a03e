//! The only IO in the dashboard: the event loop, the runner that carries
//! out effects, the terminal, and reading keys.

mod host_ops;
pub mod input;
pub mod jobs;
pub mod notify;
pub mod run;
mod runner;
mod terminal;
