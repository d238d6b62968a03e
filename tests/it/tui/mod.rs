//! The dashboard's reducer and views in-process: actions in, state and
//! effects out, screens drawn on ratatui's `TestBackend`.

mod budget;
mod changes;
mod detail_snapshots;
mod diff_inert;
mod driver;
mod form;
mod hosts;
mod layout;
mod modes;
mod notify;
mod overview_pane;
mod ready;
mod reducer;
mod snapshots;
mod status_messages;
mod triage;
mod triage_snapshots;
mod usage;
