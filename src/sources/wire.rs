//! The wire format between greenroom processes: `ls --json` (one document)
//! and `watch --json` (a snapshot line, then one line per change). Both
//! halves live here, so a field written is a field read: [`write`] is what
//! `greenroom ls` and `greenroom watch` print, [`read`] what a dashboard
//! makes of another host's. The round trip is tested in `wire/tests.rs`.

mod read;
mod write;

pub use read::{Line, MAX_LINE, RemoteRow, parse_line, parse_ls, parse_row, valid_remote_id};
pub use write::{
    heartbeat_line, problems_line, problems_value, removed_line, row_line, session_value,
    snapshot_line, to_json, to_json_at,
};

/// The version of the line format: a reader refuses a stream of another one.
pub const PROTOCOL: u64 = 1;

#[cfg(test)]
mod tests;
