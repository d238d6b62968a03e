//! The reducer: every decision the dashboard makes, by what it is about
//! (rows, moving, triage, acting, hosts, polling, the Changes tab). No IO:
//! what the world must do comes back as effects.

pub(in crate::tui) mod act;
mod budget;
mod commands;
pub mod dialog;
pub mod hosts;
pub(in crate::tui) mod look;
pub(in crate::tui) mod navigate;
pub mod notify;
pub mod op;
mod polling;
pub(in crate::tui) mod review;
pub(in crate::tui) mod rows;
mod status;
pub(in crate::tui) mod triage;
pub mod update;
