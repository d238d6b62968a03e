//! OpenCode's own store: the SQLite database `$XDG_DATA_HOME/opencode/opencode.db`
//! (OpenCode 1.18), whose `session` table keeps each session's running
//! totals. OpenCode 1.18 keeps no JSON session files beside it: the
//! database is the one exact record (`opencode session list` and
//! `opencode export` read it too).
//!
//! Read-only and brief: opened without write or create (a missing file is
//! an error, never a new database), with a short busy timeout, closed after
//! each read. OpenCode writes in WAL mode, where a reader never blocks the
//! writer; a read-only connection never checkpoints or removes the WAL.
//!
//! Nothing in it is trusted: counts are clamped to zero and above, a cost
//! that is not a finite non-negative number counts as none, text is cut
//! short, and only so many sessions are read.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags, Row};

/// The file name, under OpenCode's data folder.
pub const DB_FILE: &str = "opencode.db";
/// How long a read waits for OpenCode's own write to finish.
const BUSY_WAIT: Duration = Duration::from_millis(200);
/// The most sessions one read takes (the most recently updated).
const MAX_SESSIONS: u32 = 2000;
/// Longer text (ids, folders, titles, model names) is cut.
const MAX_TEXT_CHARS: usize = 4096;

/// One session's running totals, as OpenCode counts them: `input` without
/// the cache reads, `output` without the reasoning.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct OpencodeTokens {
    pub input: u64,
    pub output: u64,
    pub reasoning: u64,
    pub cache_read: u64,
    pub cache_write: u64,
}

/// One row of OpenCode's `session` table.
#[derive(Debug, Clone, PartialEq)]
pub struct OpencodeSession {
    /// `ses_…`: what `opencode --session` takes.
    pub id: String,
    /// The session that started this one (a sub-agent's task), if any.
    pub parent_id: Option<String>,
    /// The folder OpenCode ran in.
    pub directory: PathBuf,
    pub title: String,
    /// The model's id (`model` is `{"id": …, "providerID": …}`), if named.
    pub model: Option<String>,
    /// OpenCode's own cost in USD (0 where it has no price for the model).
    pub cost: Option<f64>,
    pub tokens: OpencodeTokens,
    /// Milliseconds since the epoch.
    pub created_ms: i64,
    pub updated_ms: i64,
}

/// Why the store could not be read: shown to the operator as the
/// database's problem, one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    #[error("does not exist (OpenCode has not run here yet?)")]
    Missing,
    #[error("is busy (OpenCode is writing); read again at its next change")]
    Busy,
    #[error("is not OpenCode's session store as greenroom knows it (1.18): {0}")]
    Schema(String),
    #[error("cannot be read: {0}")]
    Unreadable(String),
}

/// The database in OpenCode's data folder (`$XDG_DATA_HOME`, else
/// `~/.local/share`).
pub fn db_path(data_home: &Path) -> PathBuf {
    data_home.join("opencode").join(DB_FILE)
}

/// Whether `path` is the database or its write-ahead log: a change to
/// either may change what the database says (`-shm` is only an index).
pub fn is_store_file(db: &Path, path: &Path) -> bool {
    if path == db {
        return true;
    }
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return false;
    };
    let wal = db
        .file_name()
        .map(|n| format!("{}-wal", n.to_string_lossy()));
    db.parent() == Some(dir) && wal.is_some_and(|w| name.to_string_lossy() == w)
}

/// The sessions updated at or after `since_ms`, most recent first.
pub fn read_sessions(db: &Path, since_ms: i64) -> Result<Vec<OpencodeSession>, StoreError> {
    read_sessions_and(db, since_ms, &[])
}

/// As [`read_sessions`], and the sessions `named` and their sub-agents'
/// whenever they were updated (a session an OpenCode was told to resume
/// may not have been written to since it started).
pub fn read_sessions_and(
    db: &Path,
    since_ms: i64,
    named: &[&str],
) -> Result<Vec<OpencodeSession>, StoreError> {
    if !db.is_file() {
        return Err(StoreError::Missing);
    }
    // No create, no write, and no URI: the path is taken as it is.
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(db, flags).map_err(store_error)?;
    conn.busy_timeout(BUSY_WAIT).map_err(store_error)?;
    let mut stmt = conn
        .prepare(
            "SELECT id, parent_id, directory, title, model, cost, tokens_input, tokens_output, \
             tokens_reasoning, tokens_cache_read, tokens_cache_write, time_created, time_updated \
             FROM session WHERE time_updated >= ?1 \
             OR id IN (SELECT value FROM json_each(?3)) \
             OR parent_id IN (SELECT value FROM json_each(?3)) \
             ORDER BY time_updated DESC LIMIT ?2",
        )
        .map_err(store_error)?;
    // The names as one JSON array: a bound parameter, never SQL text.
    let named = serde_json::to_string(named).unwrap_or_else(|_| "[]".into());
    let rows = stmt
        .query_map((since_ms, MAX_SESSIONS, named), session_of)
        .map_err(store_error)?;
    rows.collect::<Result<Vec<_>, _>>().map_err(store_error)
}

/// One row, leniently: a value of another type than OpenCode writes is
/// read as none (zero), so one odd row hides nothing of the others.
fn session_of(row: &Row<'_>) -> rusqlite::Result<OpencodeSession> {
    let count = |i: usize| -> rusqlite::Result<u64> {
        Ok(match row.get_ref(i)? {
            ValueRef::Integer(n) => u64::try_from(n).unwrap_or(0),
            _ => 0,
        })
    };
    let text = |i: usize| -> rusqlite::Result<Option<String>> {
        Ok(match row.get_ref(i)? {
            ValueRef::Text(t) => Some(cut(&String::from_utf8_lossy(t))),
            _ => None,
        })
    };
    let number = |i: usize| -> rusqlite::Result<Option<f64>> {
        Ok(match row.get_ref(i)? {
            ValueRef::Integer(n) => Some(n as f64),
            ValueRef::Real(r) => Some(r),
            _ => None,
        })
    };
    let millis = |i: usize| -> rusqlite::Result<i64> {
        Ok(match row.get_ref(i)? {
            ValueRef::Integer(n) => n,
            _ => 0,
        })
    };
    Ok(OpencodeSession {
        id: text(0)?.unwrap_or_default(),
        parent_id: text(1)?.filter(|p| !p.is_empty()),
        directory: PathBuf::from(text(2)?.unwrap_or_default()),
        title: text(3)?.unwrap_or_default(),
        model: text(4)?.as_deref().and_then(model_id),
        cost: number(5)?.filter(|c| c.is_finite() && *c >= 0.0),
        tokens: OpencodeTokens {
            input: count(6)?,
            output: count(7)?,
            reasoning: count(8)?,
            cache_read: count(9)?,
            cache_write: count(10)?,
        },
        created_ms: millis(11)?,
        updated_ms: millis(12)?,
    })
}

/// The model's id from the `model` column (`{"id":"…","providerID":"…"}`).
fn model_id(json: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(json).ok()?;
    v["id"].as_str().filter(|id| !id.is_empty()).map(cut)
}

fn cut(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control())
        .take(MAX_TEXT_CHARS)
        .collect()
}

/// SQLite's error as the operator's reason: busy or locked, a schema not
/// as expected (a missing table or column, a value of another type), or
/// anything else.
fn store_error(e: rusqlite::Error) -> StoreError {
    use rusqlite::ErrorCode;
    match &e {
        rusqlite::Error::SqliteFailure(f, _)
            if matches!(f.code, ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) =>
        {
            StoreError::Busy
        }
        // Preparing the query names what is missing (`no such column: …`).
        rusqlite::Error::SqlInputError { msg, .. } if msg.starts_with("no such") => {
            StoreError::Schema(msg.clone())
        }
        rusqlite::Error::SqliteFailure(f, Some(msg))
            if f.code == ErrorCode::Unknown && msg.starts_with("no such") =>
        {
            StoreError::Schema(msg.clone())
        }
        _ => StoreError::Unreadable(e.to_string()),
    }
}

#[cfg(test)]
mod tests;
