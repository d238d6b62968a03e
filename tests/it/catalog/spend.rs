//! Spend never goes down: a session's usage adds up every conversation it
//! had (`/clear` starts a new transcript), Claude Code's own `cost-state`
//! wins over greenroom's sum (it counts compaction's calls, which no
//! transcript message holds), and a dismissed session keeps what it spent.
//! The files are Claude Code 2.1.328's own, from the interop suite
//! (tests/interop/claude/spend.rs), trimmed: see tests/fixtures/real/SOURCES.tsv.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use std::path::{Path, PathBuf};

use chrono::Utc;
use greenroom::catalog::Catalog;
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use greenroom::sources::transcript::TranscriptUsage;

use crate::support::World;

const SPEND: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/real/claude-spend"
);

fn fixture(name: &str) -> PathBuf {
    Path::new(SPEND).join(format!("claude-code-2.1.328__{name}.jsonl"))
}

/// The two conversations of a cleared session, copied into `world`.
fn cleared_session(world: &World) -> Sidecar {
    let dir = world.path("claude/projects/-work");
    std::fs::create_dir_all(&dir).unwrap();
    let first = dir.join("first.jsonl");
    let second = dir.join("second.jsonl");
    std::fs::copy(fixture("clear__first-conversation"), &first).unwrap();
    std::fs::copy(fixture("clear__second-conversation"), &second).unwrap();
    let mut s = Sidecar::new("cleared", &world.path("work"), "claude", Utc::now());
    s.transcript_path = Some(second);
    s.earlier_transcripts = vec![first];
    s
}

#[test]
fn a_cleared_session_adds_up_both_conversations_claude_codes_totals() {
    let world = World::new();
    let s = cleared_session(&world);
    SidecarStore::new(world.path("sessions"))
        .create(&s)
        .unwrap();
    let u = &world.ls_json()["sessions"][0]["usage"];
    // Claude Code's cost-state of each: 0.0247 before /clear, 0.02015 after.
    let cost = u["cost_usd"].as_f64().unwrap();
    assert!((cost - (0.0247 + 0.02015)).abs() < 1e-12, "{u:#}");
    assert_eq!(u["cost_source"], "claude-code");
    assert_eq!(u["input"], 3_000 + 3_700);
    assert_eq!(u["by_model"]["claude-opus-5-5"]["output"], 120 + 200);
}

#[test]
fn a_conversation_named_twice_is_counted_once() {
    let world = World::new();
    let mut s = cleared_session(&world);
    // Back to the first conversation (`/resume`): still two files.
    s.earlier_transcripts
        .push(s.transcript_path.clone().unwrap());
    s.transcript_path = Some(s.earlier_transcripts[0].clone());
    SidecarStore::new(world.path("sessions"))
        .create(&s)
        .unwrap();
    let u = &world.ls_json()["sessions"][0]["usage"];
    assert_eq!(u["input"], 3_000 + 3_700, "{u:#}");
}

#[test]
fn compaction_is_in_claude_codes_total_and_not_in_the_messages() {
    let mut t = TranscriptUsage::new(fixture("compact"));
    t.refresh().unwrap();
    // The messages: one answer. Claude Code's total: that answer and the
    // two calls of its compaction.
    assert_eq!(t.by_model()["claude-opus-5-5"].input, 3_000);
    let total = t.agent_total().expect("the cost-state written at /exit");
    assert!((total.cost_usd - 0.0724).abs() < 1e-12, "{total:?}");
    assert_eq!(total.by_model["claude-opus-5-5"].input, 11_200);
    assert!(t.since_agent_total().is_empty());
}

#[test]
fn a_dismissed_session_keeps_its_spend() {
    let world = World::new();
    let s = cleared_session(&world);
    let store = SidecarStore::new(world.path("sessions"));
    store.create(&s).unwrap();
    let mut catalog = Catalog::load(&world.config(None, &[]), true);
    catalog.load_usage();
    let spent = |c: &Catalog| {
        let rows = c.rows(Utc::now());
        rows.iter()
            .filter_map(|r| r.usage.as_ref().and_then(|u| u.cost_usd))
            .sum::<f64>()
    };
    let live = spent(&catalog);
    assert!((live - 0.04485).abs() < 1e-12, "{live}");
    let archived = store.archive(s.id).unwrap();
    // Both events, in either order: the record left the live folder and
    // arrived in the archive.
    catalog.apply(&archived);
    catalog.apply(&store.path_for(s.id));
    let rows = catalog.rows(Utc::now());
    assert_eq!(rows.len(), 1);
    assert!(rows[0].archived);
    assert!((spent(&catalog) - live).abs() < 1e-12, "{rows:#?}");
}

/// A transcript rewritten shorter (or replaced, or deleted) is read again
/// from what it holds, but the row keeps what the file counted before until
/// the file's own count passes it.
#[test]
fn a_transcript_rewritten_shorter_or_gone_keeps_what_it_counted() {
    let world = World::new();
    let dir = world.path("claude/projects/-work");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.jsonl");
    std::fs::copy(fixture("clear__first-conversation"), &path).unwrap();
    let mut s = Sidecar::new("rewritten", &world.path("work"), "claude", Utc::now());
    s.transcript_path = Some(path.clone());
    SidecarStore::new(world.path("sessions"))
        .create(&s)
        .unwrap();
    let mut catalog = Catalog::load(&world.config(None, &[]), false);
    catalog.load_usage();
    let cost = |c: &Catalog| {
        let rows = c.rows(Utc::now());
        rows[0].usage.as_ref().and_then(|u| u.cost_usd)
    };
    assert_eq!(cost(&catalog), Some(0.0247));
    let shorter = dir.join("shorter.jsonl");
    // What is left once the conversation before a boundary is dropped.
    let boundary = std::fs::read_to_string(fixture("compact")).unwrap();
    let boundary = boundary.lines().find(|l| l.contains("compact_boundary"));
    std::fs::write(&shorter, boundary.unwrap().to_owned() + "\n").unwrap();
    std::fs::rename(&shorter, &path).unwrap();
    catalog.apply(&path);
    assert_eq!(cost(&catalog), Some(0.0247), "replaced by a shorter file");
    std::fs::remove_file(&path).unwrap();
    catalog.apply(&path);
    assert_eq!(cost(&catalog), Some(0.0247), "deleted");
    std::fs::copy(fixture("compact"), &path).unwrap();
    catalog.apply(&path);
    assert_eq!(cost(&catalog), Some(0.0724), "past what it counted");
}
