use super::*;

/// The real OpenCode 1.18.33's database after one session: a prompt, a
/// bash call (allowed at its permission prompt), a text answer; each turn
/// reported 1200 prompt tokens (200 cached) and 34 completion tokens (5
/// reasoning). See tests/fixtures/opencode/README.md.
fn real() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/opencode/opencode-1.18.33__bash-then-text.db"
    ))
}

#[test]
fn the_real_store_gives_the_sessions_own_totals() {
    let before: Vec<_> = std::fs::read_dir(real().parent().unwrap())
        .unwrap()
        .collect();
    let sessions = read_sessions(&real(), 0).expect("readable");
    assert_eq!(sessions.len(), 1, "{sessions:#?}");
    let s = &sessions[0];
    assert_eq!(s.id, "ses_dc8f99543ffep8txQIgnjsDIg0");
    assert_eq!(s.parent_id, None);
    assert_eq!(s.directory, PathBuf::from("/tmp/ocx/run3/work"));
    assert_eq!(s.title, "Stand-in title");
    assert_eq!(s.model.as_deref(), Some("standin-model"));
    assert_eq!(s.cost, Some(0.0));
    // OpenCode's own split: input without the cache reads, output without
    // the reasoning (two turns of 1000 + 200 cached, 29 + 5 reasoning).
    let want = OpencodeTokens {
        input: 2000,
        output: 58,
        reasoning: 10,
        cache_read: 400,
        cache_write: 0,
    };
    assert_eq!(s.tokens, want);
    assert!(s.created_ms > 1_700_000_000_000 && s.updated_ms >= s.created_ms);
    // Read only: nothing was written beside it (no journal, no WAL).
    let after: Vec<_> = std::fs::read_dir(real().parent().unwrap())
        .unwrap()
        .collect();
    assert_eq!(before.len(), after.len());
    // Only sessions updated since the time asked for.
    assert!(read_sessions(&real(), s.updated_ms + 1).unwrap().is_empty());
}

#[test]
fn a_missing_store_is_said_and_not_created() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_path(dir.path());
    assert_eq!(read_sessions(&db, 0), Err(StoreError::Missing));
    assert!(!db.exists() && !db.parent().unwrap().exists());
}

/// A database with OpenCode's `session` table as `columns` says, and rows.
fn made(dir: &Path, columns: &str, rows: &[&str]) -> PathBuf {
    let db = dir.join(DB_FILE);
    let conn = Connection::open(&db).unwrap();
    conn.execute_batch(&format!("CREATE TABLE session ({columns});"))
        .unwrap();
    for r in rows {
        conn.execute_batch(&format!("INSERT INTO session VALUES ({r});"))
            .unwrap();
    }
    db
}

const COLUMNS: &str = "id text, parent_id text, directory text, title text, model text, \
    cost real, tokens_input integer, tokens_output integer, tokens_reasoning integer, \
    tokens_cache_read integer, tokens_cache_write integer, time_created integer, \
    time_updated integer";

#[test]
fn another_schema_or_no_database_is_a_problem_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let db = made(dir.path(), "id text, cost real", &["'ses_1', 1.0"]);
    let err = read_sessions(&db, 0).unwrap_err();
    assert!(
        matches!(&err, StoreError::Schema(m) if m.contains("no such column")),
        "{err}"
    );
    let other = tempfile::tempdir().unwrap();
    let db = other.path().join(DB_FILE);
    Connection::open(&db)
        .unwrap()
        .execute_batch("CREATE TABLE other (x);")
        .unwrap();
    let err = read_sessions(&db, 0).unwrap_err();
    assert!(
        matches!(&err, StoreError::Schema(m) if m.contains("no such table")),
        "{err}"
    );
    std::fs::write(
        &db,
        "not a database, just text that is long enough to look at",
    )
    .unwrap();
    let err = read_sessions(&db, 0).unwrap_err();
    assert!(matches!(err, StoreError::Unreadable(_)), "{err}");
}

#[test]
fn odd_values_are_read_as_none_and_the_other_rows_stay() {
    let dir = tempfile::tempdir().unwrap();
    let long = "x".repeat(MAX_TEXT_CHARS * 2);
    let rows = [
        "'ses_ok', NULL, '/w', 't', '{\"id\":\"m\",\"providerID\":\"p\"}', 0.5, 10, 20, 3, 4, 5, 1, 2",
        &format!(
            "'ses_odd', '', '{long}', X'00', 'not json', -1.0, -7, 'many', 3.5, NULL, 1, 'x', 3"
        ),
    ];
    let db = made(dir.path(), COLUMNS, &rows);
    let sessions = read_sessions(&db, 0).unwrap();
    assert_eq!(sessions.len(), 2);
    let (odd, ok) = (&sessions[0], &sessions[1]);
    assert_eq!(ok.id, "ses_ok");
    assert_eq!(ok.model.as_deref(), Some("m"));
    assert_eq!(ok.cost, Some(0.5));
    assert_eq!(ok.tokens.cache_write, 5);
    assert_eq!(odd.id, "ses_odd");
    assert_eq!(odd.parent_id, None);
    assert_eq!(odd.directory.as_os_str().len(), MAX_TEXT_CHARS);
    assert_eq!(odd.title, "");
    assert_eq!(odd.model, None);
    assert_eq!(odd.cost, None, "a negative cost is none");
    assert_eq!(
        odd.tokens,
        OpencodeTokens {
            input: 0,
            output: 0,
            reasoning: 0,
            cache_read: 0,
            cache_write: 1
        }
    );
    assert_eq!(odd.created_ms, 0);
}

#[test]
fn a_store_locked_by_its_writer_is_busy_not_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    let db = made(dir.path(), COLUMNS, &[]);
    let writer = Connection::open(&db).unwrap();
    writer.execute_batch("BEGIN EXCLUSIVE;").unwrap();
    let started = std::time::Instant::now();
    assert_eq!(read_sessions(&db, 0), Err(StoreError::Busy));
    assert!(started.elapsed() < Duration::from_secs(5));
    writer.execute_batch("COMMIT;").unwrap();
    assert_eq!(read_sessions(&db, 0), Ok(Vec::new()));
}

#[test]
fn the_store_and_its_wal_are_its_files() {
    let db = Path::new("/d/opencode/opencode.db");
    assert!(is_store_file(db, db));
    assert!(is_store_file(db, Path::new("/d/opencode/opencode.db-wal")));
    assert!(!is_store_file(db, Path::new("/d/opencode/opencode.db-shm")));
    assert!(!is_store_file(db, Path::new("/e/opencode/opencode.db-wal")));
    assert!(!is_store_file(db, Path::new("/d/opencode/log")));
}

#[test]
fn sessions_named_are_read_whenever_they_were_updated() {
    let dir = tempfile::tempdir().unwrap();
    let rows = [
        "'ses_old', NULL, '/w', 't', NULL, 1.0, 1, 1, 0, 0, 0, 10, 20",
        "'ses_sub', 'ses_old', '/w', 't', NULL, 2.0, 1, 1, 0, 0, 0, 11, 21",
        "'ses_other', NULL, '/w', 't', NULL, 3.0, 1, 1, 0, 0, 0, 12, 22",
        "'ses_new', NULL, '/w', 't', NULL, 4.0, 1, 1, 0, 0, 0, 500, 600",
    ];
    let db = made(dir.path(), COLUMNS, &rows);
    let ids = |s: Vec<OpencodeSession>| s.into_iter().map(|o| o.id).collect::<Vec<_>>();
    assert_eq!(ids(read_sessions(&db, 100).unwrap()), ["ses_new"]);
    let named = read_sessions_and(&db, 100, &["ses_old", "x') OR 1=1 --"]).unwrap();
    assert_eq!(ids(named), ["ses_new", "ses_sub", "ses_old"]);
}
