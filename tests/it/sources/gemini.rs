//! Gemini CLI session files: the real one captured from Gemini CLI 0.61.0
//! (tests/fixtures/real/gemini-sessions), incremental reading, updates by
//! id, and the usage `ls --json` shows for a session whose hook named it.

use crate::support;

use std::io::Write;
use std::path::Path;

use chrono::Utc;
use greenroom::model::ModelUsage;
use greenroom::sources::gemini::{self, GeminiUsage, parse_line};
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use support::World;

const REAL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/real/gemini-sessions/gemini-cli-0.61.0__allow-execution-tool-call.jsonl"
);

fn usage(input: u64, output: u64, cache_read: u64) -> ModelUsage {
    ModelUsage {
        input,
        output,
        cache_read,
        cache_write: 0,
    }
}

fn message(id: &str, model: &str, input: u64, output: u64, cached: u64) -> String {
    format!(
        r#"{{"id":"{id}","timestamp":"2026-12-01T10:09:55.113Z","type":"gemini","content":"","thoughts":[],"tokens":{{"input":{input},"output":{output},"cached":{cached},"thoughts":0,"tool":0,"total":{}}},"model":"{model}"}}"#,
        input + output
    ) + "\n"
}

fn append(path: &Path, text: &str) {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
}

#[test]
fn the_real_session_file_counts_each_model_message_once() {
    let mut u = GeminiUsage::new(REAL);
    assert!(u.refresh().unwrap());
    // Two model calls of 1200 prompt (200 cached), 30 out, 12 thoughts, 5
    // tool; the function-call message is written twice under one id.
    let one = usage(1200 - 200 + 5, 30 + 12, 200);
    let two = usage(one.input * 2, one.output * 2, one.cache_read * 2);
    assert_eq!(u.by_model().len(), 1);
    assert_eq!(u.by_model()["gemini-2.5-pro"], two);
    assert!(!u.refresh().unwrap(), "nothing new");
    let text = std::fs::read_to_string(REAL).unwrap();
    let records: usize = text.lines().map(|l| parse_line(l.as_bytes()).len()).sum();
    assert_eq!(records, 3, "three records, one of them an update");
    assert!(gemini::is_session_file(Path::new(
        "/h/.gemini/tmp/proj/chats/session-2026-12-01T10-09-6c306ba8.jsonl"
    )));
}

#[test]
fn appended_lines_and_updates_by_id_are_read_incrementally() {
    let world = World::new();
    let path = world.path("chats/session-2026-12-01T10-09-abcdef12.jsonl");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    append(
        &path,
        r#"{"sessionId":"abcdef12-0000","projectHash":"x","kind":"main"}"#,
    );
    append(&path, "\n");
    let mut u = GeminiUsage::new(&path);
    assert!(!u.refresh().unwrap());
    let m1 = message("m1", "gemini-2.5-pro", 100, 10, 40);
    let (head, rest) = m1.split_at(30);
    append(&path, head);
    assert!(!u.refresh().unwrap(), "half a line waits for its end");
    append(&path, rest);
    assert!(u.refresh().unwrap());
    assert_eq!(u.by_model()["gemini-2.5-pro"], usage(60, 10, 40));
    // The same id again is an update: it replaces, never adds.
    append(&path, &message("m1", "gemini-2.5-pro", 120, 15, 40));
    append(&path, &message("m2", "gemini-2.5-flash", 7, 1, 0));
    append(&path, "{\"$rewindTo\":\"m1\"}\nnot json with \"tokens\"\n");
    assert!(u.refresh().unwrap());
    assert_eq!(u.by_model()["gemini-2.5-pro"], usage(80, 15, 40));
    assert_eq!(u.by_model()["gemini-2.5-flash"], usage(7, 1, 0));
    let offset = u.offset();
    assert_eq!(offset, std::fs::metadata(&path).unwrap().len());

    // Replaced by a shorter file: counted again from its start.
    std::fs::write(&path, message("m9", "gemini-2.5-pro", 5, 5, 0)).unwrap();
    assert!(u.refresh().unwrap());
    assert_eq!(u.by_model().len(), 1);
    assert_eq!(u.by_model()["gemini-2.5-pro"], usage(5, 5, 0));
}

#[test]
fn ls_shows_the_usage_of_the_session_file_a_gemini_hook_named() {
    let world = World::new();
    let cwd = world.path("proj");
    std::fs::create_dir_all(&cwd).unwrap();
    let chats = world.path(".gemini/tmp/proj/chats");
    std::fs::create_dir_all(&chats).unwrap();
    let file = chats.join("session-2026-12-01T10-09-6c306ba8.jsonl");
    std::fs::copy(REAL, &file).unwrap();
    let store = SidecarStore::new(world.path("sessions"));
    let mut s = Sidecar::new("gem-1", &cwd, "gemini", Utc::now());
    s.agent = Some("gemini".into());
    s.agent_session_id = Some("6c306ba8-da65-429c-890d-7aae077bd77c".into());
    s.transcript_path = Some(file.clone());
    store.create(&s).unwrap();
    let doc = world.ls_json();
    let u = &doc["sessions"][0]["usage"];
    assert_eq!(u["input"], 2010, "{u}");
    assert_eq!(u["output"], 84);
    assert_eq!(u["cache_read"], 400);
    assert_eq!(u["cache_write"], 0);
    assert_eq!(u["by_model"]["gemini-2.5-pro"]["input"], 2010);
    // gemini-2.5-pro at $1.25 in, $10 out, $0.31 cached reads, per million.
    let cost = (2010.0 * 1.25 + 84.0 * 10.0 + 400.0 * 0.31) / 1e6;
    let got = u["cost_usd"].as_f64().unwrap();
    assert!((got - cost).abs() < 1e-9, "{got} != {cost}");
}
