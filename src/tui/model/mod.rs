//! The dashboard's data: what the reducer changes and the views read. No
//! decisions beyond what the data says of itself, no IO.

pub mod backoff;
pub mod changes;
pub mod detail;
pub mod dialog;
pub mod hosts;
pub mod layout;
pub mod mode;
pub mod nav;
pub mod notify;
pub mod row_list;
pub mod settings;
pub mod spend;
pub mod state;
pub mod tmux_link;
pub mod triage;
