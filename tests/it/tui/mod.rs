//! The dashboard's reducer and views in-process: actions in, state and
//! effects out, screens drawn on ratatui's `TestBackend`.

mod changes;
mod diff_inert;
mod driver;
mod form;
mod hosts;
mod layout;
mod modes;
mod notify;
mod reducer;
mod snapshots;
mod triage;
mod triage_snapshots;
mod usage;
