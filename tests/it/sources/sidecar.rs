//! The sidecar store against real files in temp folders: round trips,
//! unknown fields, concurrent read-modify-write, permissions, bad input.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use chrono::{TimeZone, Utc};
use greenroom::model::{Activity, Status};
use greenroom::sources::sidecar::{Sidecar, SidecarStore, Worktree};
use uuid::Uuid;

fn full_sidecar() -> Sidecar {
    let t = |s: i64| Some(Utc.timestamp_opt(1_780_000_000 + s, 0).unwrap());
    let mut s = Sidecar::new("api-3", Path::new("/work/api"), "claude", Utc::now());
    s.agent = Some("claude".into());
    s.tmux_session = Some("gr-api-3".into());
    s.status = Status::Exited;
    s.exit_status = Some(3);
    s.created_at = t(0);
    s.restored_at = t(1);
    s.last_focused_at = t(2);
    s.last_activity_at = t(3);
    s.activity = Some(Activity::AwaitingInput);
    s.activity_detail = Some("Claude needs your permission to use Bash".into());
    s.activity_since = t(4);
    s.activity_reported_at = t(5);
    s.current_cwd = Some("/work/api/crates".into());
    s.agent_session_id = Some("8d0c5a3e".into());
    s.transcript_path = Some("/home/u/.claude/projects/x/8d0c5a3e.jsonl".into());
    s.worktree = Some(Worktree {
        repo: "/work/api".into(),
        branch: "feat/x".into(),
        path: "/work/api-x".into(),
    });
    s.env.insert("FOO".into(), "bar".into());
    s.metadata.insert("issue".into(), "42".into());
    s
}

#[test]
fn a_written_sidecar_reads_back_identical() {
    let dir = tempfile::tempdir().unwrap();
    let store = SidecarStore::new(dir.path().join("sessions"));
    let s = full_sidecar();
    store.create(&s).unwrap();
    assert_eq!(store.read(s.id).unwrap(), s);
    let (all, problems) = store.load_all();
    assert_eq!(all, vec![s.clone()]);
    assert!(problems.is_empty(), "{problems:?}");
    // Creating it again must not overwrite.
    assert!(store.create(&s).is_err());
}

#[test]
fn fields_greenroom_does_not_know_survive_an_update() {
    let dir = tempfile::tempdir().unwrap();
    let store = SidecarStore::new(dir.path());
    let id = Uuid::new_v4();
    let text = format!(
        r#"{{"id":"{id}","cwd":"/w","command":"sh","status":"Running",
            "blocked_work":{{"reason":"x","n":[1,2]}},"foreground":"vim","future_flag":true}}"#
    );
    std::fs::write(store.path_for(id), text).unwrap();
    store
        .update(id, Duration::from_secs(1), |s| {
            s.last_focused_at = Some(Utc::now());
            true
        })
        .unwrap();
    let raw: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(store.path_for(id)).unwrap()).unwrap();
    assert_eq!(
        raw["blocked_work"],
        serde_json::json!({"reason":"x","n":[1,2]})
    );
    assert_eq!(raw["foreground"], "vim");
    assert_eq!(raw["future_flag"], true);
    assert!(raw["last_focused_at"].is_string());
}

#[test]
fn concurrent_updates_lose_nothing_and_never_tear() {
    const THREADS: usize = 32;
    const UPDATES: usize = 200;
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(SidecarStore::new(dir.path()));
    let s = Sidecar::new("race", Path::new("/w"), "sh", Utc::now());
    let id = s.id;
    store.create(&s).unwrap();

    let done = Arc::new(AtomicBool::new(false));
    let reader = {
        let (store, done) = (store.clone(), done.clone());
        std::thread::spawn(move || {
            let mut reads = 0u64;
            while !done.load(Ordering::Relaxed) {
                let text = std::fs::read_to_string(store.path_for(id)).unwrap();
                Sidecar::parse(&text).unwrap_or_else(|e| panic!("torn read: {e}\n{text}"));
                reads += 1;
            }
            reads
        })
    };
    let writers: Vec<_> = (0..THREADS)
        .map(|t| {
            let store = store.clone();
            std::thread::spawn(move || {
                for _ in 0..UPDATES {
                    store
                        .update(id, Duration::from_secs(30), |s| {
                            let key = format!("field-{t}");
                            let n: usize = s.metadata.get(&key).map_or(0, |v| v.parse().unwrap());
                            s.metadata.insert(key, (n + 1).to_string());
                            true
                        })
                        .unwrap();
                }
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap();
    }
    done.store(true, Ordering::Relaxed);
    assert!(reader.join().unwrap() > 0);
    let s = store.read(id).unwrap();
    for t in 0..THREADS {
        assert_eq!(
            s.metadata[&format!("field-{t}")],
            UPDATES.to_string(),
            "field-{t}"
        );
    }
}

#[test]
fn files_are_private_to_the_user() {
    let dir = tempfile::tempdir().unwrap();
    let store = SidecarStore::new(dir.path().join("sessions"));
    let s = full_sidecar();
    store.create(&s).unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(store.dir()), 0o700);
    assert_eq!(mode(&store.path_for(s.id)), 0o600);
}

#[test]
fn dismissing_moves_to_archive_and_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = SidecarStore::new(dir.path());
    let s = full_sidecar();
    store.create(&s).unwrap();
    let to = store.archive(s.id).unwrap();
    assert!(!store.path_for(s.id).exists());
    assert!(to.starts_with(store.archive_dir()));
    assert!(store.load_all().0.is_empty());
    assert_eq!(store.load_archived().0, vec![s]);
}

#[test]
fn an_update_that_changes_nothing_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = SidecarStore::new(dir.path());
    let s = full_sidecar();
    store.create(&s).unwrap();
    let before = std::fs::metadata(store.path_for(s.id))
        .unwrap()
        .modified()
        .unwrap();
    let ino = |p: &Path| std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(p).unwrap());
    let ino_before = ino(&store.path_for(s.id));
    store
        .update(s.id, Duration::from_secs(1), |_| false)
        .unwrap();
    assert_eq!(ino(&store.path_for(s.id)), ino_before);
    assert_eq!(
        std::fs::metadata(store.path_for(s.id))
            .unwrap()
            .modified()
            .unwrap(),
        before
    );
}

#[test]
fn bad_files_are_problems_and_good_ones_still_load() {
    let dir = tempfile::tempdir().unwrap();
    let store = SidecarStore::new(dir.path());
    let good = full_sidecar();
    store.create(&good).unwrap();
    let id = || Uuid::new_v4();
    let write = |name: String, bytes: &[u8]| std::fs::write(dir.path().join(name), bytes).unwrap();

    let cases: Vec<(String, &str)> = vec![
        (format!("{}.json", id()), "empty"),
        (format!("{}.json", id()), "truncated"),
        (format!("{}.json", id()), "binary"),
        (format!("{}.json", id()), "non-utf8"),
        (format!("{}.json", id()), "wrong-types"),
        (format!("{}.json", id()), "deep"),
        (format!("{}.json", id()), "huge"),
        (format!("{}.json", id()), "id-mismatch"),
        (format!("{}.json", id()), "missing-required"),
        (format!("{}.json", id()), "array"),
    ];
    for (name, kind) in &cases {
        let uuid = name.trim_end_matches(".json");
        match *kind {
            "empty" => write(name.clone(), b""),
            "truncated" => write(
                name.clone(),
                format!(r#"{{"id":"{uuid}","cwd":"/w","comm"#).as_bytes(),
            ),
            "binary" => write(name.clone(), &[0x7f, b'E', b'L', b'F', 0, 0, 1, 2]),
            "non-utf8" => write(name.clone(), b"{\"id\":\"\xff\xfe\"}"),
            "wrong-types" => write(
                name.clone(),
                format!(r#"{{"id":"{uuid}","cwd":"/w","command":"sh","created_at":17,"env":[1]}}"#)
                    .as_bytes(),
            ),
            "deep" => write(name.clone(), "[".repeat(100_000).as_bytes()),
            "huge" => {
                let pad = "x".repeat(1_100_000);
                write(
                    name.clone(),
                    format!(r#"{{"id":"{uuid}","cwd":"/w","command":"{pad}"}}"#).as_bytes(),
                )
            }
            "id-mismatch" => write(
                name.clone(),
                format!(r#"{{"id":"{}","cwd":"/w","command":"sh"}}"#, Uuid::new_v4()).as_bytes(),
            ),
            "missing-required" => write(name.clone(), format!(r#"{{"id":"{uuid}"}}"#).as_bytes()),
            "array" => write(name.clone(), b"[1,2,3]"),
            _ => unreachable!(),
        }
    }
    // A folder where a file should be, a dangling symlink and a link to a good file.
    std::fs::create_dir(dir.path().join(format!("{}.json", id()))).unwrap();
    std::os::unix::fs::symlink(
        "/nonexistent/x.json",
        dir.path().join(format!("{}.json", id())),
    )
    .unwrap();
    std::os::unix::fs::symlink(
        store.path_for(good.id),
        dir.path().join(format!("{}.json", id())),
    )
    .unwrap();
    // Temp and lock files are not sessions and not problems.
    write(format!(".{}.json.1.tmp", id()), b"partial");

    let (loaded, problems) = store.load_all();
    assert_eq!(loaded, vec![good]);
    assert_eq!(problems.len(), cases.len() + 3, "{problems:#?}");
    for p in &problems {
        assert!(p.path.starts_with(dir.path()));
        assert!(!p.error.is_empty());
    }
    let reason = |kind: &str| {
        let name = &cases.iter().find(|(_, k)| *k == kind).unwrap().0;
        problems
            .iter()
            .find(|p| p.path.ends_with(name))
            .unwrap()
            .error
            .clone()
    };
    assert!(reason("binary").contains("binary"), "{}", reason("binary"));
    assert!(reason("non-utf8").contains("UTF-8"));
    assert!(reason("huge").contains("1 MiB"));
    assert!(reason("id-mismatch").contains("does not match"));
    assert!(reason("missing-required").contains("cwd"));
    assert!(problems.iter().any(|p| p.error.contains("symbolic link")));
    assert!(problems.iter().any(|p| p.error.contains("folder")));
}

#[test]
fn unknown_enum_spellings_survive() {
    let id = Uuid::new_v4();
    let text = format!(
        r#"{{"id":"{id}","cwd":"/tmp","command":"sh","status":"Hibernating","activity":"Pondering"}}"#
    );
    let s = Sidecar::parse(&text).unwrap();
    assert_eq!(s.status, Status::Unknown("Hibernating".into()));
    assert_eq!(s.activity, Some(Activity::Unknown("Pondering".into())));
    let back = serde_json::to_value(&s).unwrap();
    assert_eq!(back["status"], "Hibernating");
    assert_eq!(back["activity"], "Pondering");
}

#[test]
fn detail_is_capped_on_write_by_characters_not_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let store = SidecarStore::new(dir.path());
    let mut s = Sidecar::new("a", Path::new("/"), "sh", Utc::now());
    s.activity_detail = Some("é".repeat(600));
    store.create(&s).unwrap();
    let read = store.read(s.id).unwrap();
    assert_eq!(
        read.activity_detail.unwrap().chars().count(),
        greenroom::sources::sidecar::MAX_DETAIL_CHARS
    );
}

#[test]
fn sidecar_names_skip_temp_and_lock_files() {
    use greenroom::sources::sidecar::is_sidecar_name;
    assert!(is_sidecar_name("0b1c.json"));
    assert!(!is_sidecar_name(".0b1c.json.1.2.tmp"));
    assert!(!is_sidecar_name(".0b1c.lock"));
    assert!(!is_sidecar_name("notes.txt"));
}

#[test]
fn start_up_removes_temporaries_killed_writers_left() {
    let world = crate::support::World::new();
    let config = world.config(None, &[]);
    let store = SidecarStore::new(&config.sidecar_dir);
    let s = Sidecar::new("t", std::path::Path::new("/w"), "sh", Utc::now());
    store.create(&s).unwrap();
    let hex = "0123456789abcdef0123456789abcdef";
    // A pid above any pid_max: its writer is surely gone.
    let stale = store
        .dir()
        .join(format!(".{}.json.4194399.{hex}.tmp", s.id));
    let live = store
        .dir()
        .join(format!(".{}.json.{}.{hex}.tmp", s.id, std::process::id()));
    let foreign = store.dir().join(".notes.4194399.tmp");
    for p in [&stale, &live, &foreign] {
        std::fs::write(p, b"partial").unwrap();
    }
    let _engine = greenroom::engine::Engine::load(&config, false, |_| {}).unwrap();
    assert!(!stale.exists(), "stale temporary kept");
    assert!(live.exists(), "a running writer's temporary was removed");
    assert!(
        foreign.exists(),
        "a file not of greenroom's naming was removed"
    );
    assert!(store.read(s.id).is_ok());
}
