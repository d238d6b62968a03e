//! Token usage from Claude Code transcripts: the real files, duplicates from
//! streaming, partial lines, truncation and replacement, and the same usage
//! in `ls --json` whichever way the transcript is found.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use crate::support;

use std::io::Write;
use std::path::Path;
use std::process::Command;

use chrono::Utc;
use greenroom::model::ModelUsage;
use greenroom::sources::prices::Prices;
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use greenroom::sources::transcript::{TranscriptUsage, parse_line, project_dir_name, subagent_dir};
use serde_json::{Value, json};
use support::World;

const REAL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/real/claude-transcripts"
);

fn real(name: &str) -> std::path::PathBuf {
    std::fs::read_dir(REAL)
        .unwrap_or_else(|e| panic!("{REAL}: {e}"))
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().contains(name))
        .unwrap()
}

fn usage_of(path: &Path) -> TranscriptUsage {
    let mut t = TranscriptUsage::new(path);
    t.refresh().unwrap();
    t
}

fn line(msg: &str, req: &str, model: &str, input: u64, output: u64) -> String {
    json!({
        "type": "assistant",
        "requestId": req,
        "timestamp": "2026-11-29T12:00:00Z",
        "message": {"id": msg, "model": model, "role": "assistant",
                    "usage": {"input_tokens": input, "output_tokens": output,
                              "cache_read_input_tokens": 10,
                              "cache_creation": {"ephemeral_5m_input_tokens": 5, "ephemeral_1h_input_tokens": 2}}}
    })
    .to_string()
        + "\n"
}

#[test]
fn every_real_transcript_is_read_with_hand_computed_totals() {
    for entry in std::fs::read_dir(REAL).unwrap_or_else(|e| panic!("{REAL}: {e}")) {
        let path = entry.unwrap().path();
        let t = usage_of(&path);
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.contains("sidechain-compaction") {
            // One assistant message: 3 in, 8 out, 164,830 cache read, 8,681 cache write.
            let want = ModelUsage {
                input: 3,
                output: 8,
                cache_read: 164_830,
                cache_write: 8_681,
            };
            assert_eq!(t.by_model().get("claude-opus-4-6"), Some(&want), "{name}");
            assert_eq!(t.by_model().len(), 1);
            let cost = Prices::with_overrides(&Default::default())
                .cost("claude-opus-4-6", &want)
                .unwrap();
            let hand = (3.0 * 5.0 + 8.0 * 25.0 + 8_681.0 * 6.25 + 164_830.0 * 0.5) / 1e6;
            assert!((cost - hand).abs() < 1e-12, "{cost} vs {hand}");
        } else if name.contains("claude-code-2.1.328__cost-state") {
            // Four calls to the stand-in, as scripted in tests/interop/claude.rs.
            let want = ModelUsage {
                input: 13_400,
                output: 460,
                cache_read: 14_200,
                cache_write: 2_540,
            };
            assert_eq!(t.by_model().get("claude-opus-5-5"), Some(&want), "{name}");
            assert_eq!(t.by_model().len(), 1, "{name}: {:?}", t.by_model());
        } else if name.contains("claude-code-2.1.328__api-error-400") {
            // The error turn is a `<synthetic>` message: no tokens, no model.
            assert!(t.by_model().is_empty(), "{name}: {:?}", t.by_model());
            assert!(t.agent_total().is_none(), "{name}");
        } else {
            // Summary-only, no-usage and string-content files carry no usage.
            assert!(t.by_model().is_empty(), "{name}: {:?}", t.by_model());
        }
        assert_eq!(
            t.offset(),
            std::fs::metadata(&path).unwrap().len(),
            "{name}: read to the end"
        );
    }
}

/// Issue 12 §2.4: Claude Code 2.1.328's own `cost-state` record (written
/// at `/exit`, twice) is read, and greenroom's own sum of the transcript,
/// priced from assets/prices.toml, is within 1 % of it (here: equal).
#[test]
fn claude_codes_cost_state_is_read_and_matches_greenrooms_sum() {
    let t = usage_of(&real("claude-code-2.1.328__cost-state"));
    let total = t.agent_total().expect("a cost-state record");
    assert!((total.cost_usd - 0.07834).abs() < 1e-12, "{total:?}");
    assert!(!total.unknown_model_cost);
    let theirs = total.by_model["claude-opus-5-5"];
    assert_eq!(
        theirs,
        t.by_model()["claude-opus-5-5"],
        "same tokens both ways"
    );
    assert!(t.since_agent_total().is_empty(), "nothing after the record");

    let prices = Prices::with_overrides(&Default::default());
    let ours = prices.usage(t.by_model().clone());
    let ours_cost = ours.cost_usd.expect("claude-opus-5-5 has a price");
    assert!(
        (ours_cost - total.cost_usd).abs() <= total.cost_usd * 0.01,
        "greenroom {ours_cost} vs Claude Code {}",
        total.cost_usd
    );
    let shown = prices.usage_after(Some(total), t.since_agent_total().clone());
    assert_eq!(shown.cost_usd, Some(total.cost_usd));
    assert_eq!(shown.cost_source.as_deref(), Some("claude-code"));
    assert_eq!(shown.input, 13_400);
}

#[test]
fn cache_write_comes_from_the_total_or_the_breakdown() {
    let with_total = br#"{"message":{"id":"m","model":"x","usage":{"input_tokens":1,"output_tokens":2,"cache_creation_input_tokens":7,"cache_creation":{"ephemeral_5m_input_tokens":3,"ephemeral_1h_input_tokens":1}}},"requestId":"r"}"#;
    assert_eq!(parse_line(with_total).unwrap().usage.cache_write, 7);
    let breakdown = line("m", "r", "x", 1, 2);
    assert_eq!(
        parse_line(breakdown.as_bytes()).unwrap().usage.cache_write,
        7
    );
    let synthetic = line("m", "r", "<synthetic>", 1, 2);
    assert!(parse_line(synthetic.as_bytes()).is_none());
    assert!(parse_line(br#"{"type":"user","message":{"content":"usage"}}"#).is_none());
    assert!(parse_line(b"{not json \"usage\"").is_none());
}

#[test]
fn a_message_written_several_times_counts_once_at_its_largest() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.jsonl");
    let text = [
        line("m1", "r1", "claude-sonnet-4-5", 100, 1),
        line("m1", "r1", "claude-sonnet-4-5", 100, 40),
        line("m1", "r1", "claude-sonnet-4-5", 100, 20), // a stale rewrite: smaller
        line("m2", "r2", "claude-sonnet-4-5", 50, 5),
        line("m1", "r9", "claude-sonnet-4-5", 1, 1), // same message id, other request: counted
    ]
    .concat();
    std::fs::write(&path, text).unwrap();
    let t = usage_of(&path);
    let u = t.by_model()["claude-sonnet-4-5"];
    assert_eq!(u.input, 151);
    assert_eq!(u.output, 46);
    assert_eq!(u.cache_read, 30);
    assert_eq!(u.cache_write, 21);
}

#[test]
fn appended_bytes_only_and_a_partial_line_waits_for_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.jsonl");
    std::fs::write(&path, line("m1", "r1", "m", 10, 1)).unwrap();
    let mut t = usage_of(&path);
    assert_eq!(t.by_model()["m"].input, 10);
    let next = line("m2", "r2", "m", 5, 1);
    let (head, tail) = next.split_at(next.len() / 2);
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    f.write_all(head.as_bytes()).unwrap();
    assert!(!t.refresh().unwrap(), "half a line is not counted");
    assert_eq!(t.by_model()["m"].input, 10);
    f.write_all(tail.as_bytes()).unwrap();
    assert!(t.refresh().unwrap());
    assert_eq!(t.by_model()["m"].input, 15);
    assert!(!t.refresh().unwrap(), "nothing new, nothing changed");
}

#[test]
fn a_truncated_or_replaced_file_is_read_again_from_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.jsonl");
    std::fs::write(
        &path,
        [line("a", "1", "m", 10, 0), line("b", "2", "m", 10, 0)].concat(),
    )
    .unwrap();
    let mut t = usage_of(&path);
    assert_eq!(t.by_model()["m"].input, 20);
    std::fs::write(&path, line("c", "3", "m", 3, 0)).unwrap(); // truncated in place
    assert!(t.refresh().unwrap());
    assert_eq!(t.by_model()["m"].input, 3);
    let tmp = dir.path().join("new.jsonl");
    std::fs::write(
        &tmp,
        [
            line("d", "4", "m", 7, 0),
            line("e", "5", "m", 7, 0),
            line("f", "6", "m", 7, 0),
        ]
        .concat(),
    )
    .unwrap();
    std::fs::rename(&tmp, &path).unwrap(); // replaced by another file
    assert!(t.refresh().unwrap());
    assert_eq!(t.by_model()["m"].input, 21);
    std::fs::remove_file(&path).unwrap();
    assert!(t.refresh().unwrap());
    assert!(t.by_model().is_empty());
}

#[test]
fn project_folders_are_named_like_claude_names_them() {
    assert_eq!(
        project_dir_name(Path::new("/Users/alice/code/acme-api")),
        "-Users-alice-code-acme-api"
    );
    assert_eq!(project_dir_name(Path::new("/w/a.b_c d")), "-w-a-b-c-d");
    assert_eq!(
        subagent_dir(Path::new("/p/abc.jsonl")),
        Path::new("/p/abc/subagents")
    );
}

fn ls_usage(world: &World) -> Value {
    let doc = world.ls_json();
    doc["sessions"][0]["usage"].clone()
}

#[test]
fn ls_shows_the_same_usage_by_transcript_path_or_by_session_id() {
    let world = World::new();
    let cwd = world.path("work/app");
    std::fs::create_dir_all(&cwd).unwrap();
    let id = "8d0c5a3e-1b2f-4c6d-9e7a-0f1b2c3d4e5f";
    let project = world.path("claude/projects").join(project_dir_name(&cwd));
    std::fs::create_dir_all(&project).unwrap();
    let main = project.join(format!("{id}.jsonl"));
    std::fs::write(
        &main,
        [
            line("m1", "r1", "claude-opus-4-6", 1000, 100),
            line("m2", "r2", "claude-haiku-4-5", 10, 1),
        ]
        .concat(),
    )
    .unwrap();
    let subs = subagent_dir(&main);
    std::fs::create_dir_all(&subs).unwrap();
    std::fs::copy(
        real("sidechain-compaction"),
        subs.join("agent-acompact-e1f845.jsonl"),
    )
    .unwrap();

    let store = SidecarStore::new(world.path("sessions"));
    let mut s = Sidecar::new("app-1", &cwd, "claude", Utc::now());
    s.agent_session_id = Some(id.into());
    store.create(&s).unwrap();
    let by_id = ls_usage(&world);
    assert_eq!(
        by_id["by_model"]["claude-opus-4-6"]["input"], 1003,
        "main + subagent"
    );
    assert_eq!(
        by_id["by_model"]["claude-opus-4-6"]["cache_read"],
        10 + 164_830
    );
    assert_eq!(by_id["input"], 1013);
    assert!(by_id["cost_usd"].as_f64().unwrap() > 0.0);

    store
        .update(s.id, std::time::Duration::from_secs(1), |s| {
            s.agent_session_id = None;
            s.transcript_path = Some(main.clone());
            true
        })
        .unwrap();
    assert_eq!(ls_usage(&world), by_id);

    // An unknown model keeps its tokens and makes the cost unknown.
    std::fs::OpenOptions::new()
        .append(true)
        .open(&main)
        .unwrap()
        .write_all(line("m3", "r3", "some-new-model", 1, 1).as_bytes())
        .unwrap();
    let u = ls_usage(&world);
    assert_eq!(u["cost_usd"], Value::Null);
    assert_eq!(u["by_model"]["some-new-model"]["output"], 1);
}

#[test]
fn a_session_that_goes_stops_following_its_transcript() {
    let world = World::new();
    let cwd = world.path("work/app");
    std::fs::create_dir_all(&cwd).unwrap();
    let transcript = world.path("t/abc.jsonl");
    std::fs::create_dir_all(transcript.parent().unwrap()).unwrap();
    std::fs::write(&transcript, line("m1", "r1", "claude-opus-4-6", 10, 1)).unwrap();
    let store = SidecarStore::new(world.path("sessions"));
    let mut s = Sidecar::new("app-1", &cwd, "claude", Utc::now());
    s.transcript_path = Some(transcript.clone());
    store.create(&s).unwrap();
    let mut catalog = greenroom::catalog::Catalog::load(&world.config(None, &[]), false);
    catalog.load_usage();
    let follows = |c: &greenroom::catalog::Catalog| {
        c.watch_targets().iter().any(|t| t.path == world.path("t"))
    };
    assert!(follows(&catalog));
    assert!(catalog.rows(Utc::now())[0].usage.is_some());
    store.archive(s.id).unwrap();
    assert!(catalog.apply(&store.path_for(s.id)));
    assert!(catalog.rows(Utc::now()).is_empty());
    assert!(
        !follows(&catalog),
        "its transcript folder is no longer a target"
    );
}

/// Issue 12 §2.2: when the hook's payload says only "unknown" (Claude Code
/// 2.1.328's StopFailure `error` for an HTTP 400), the row says why in the
/// agent's own words, from its transcript.
#[test]
fn an_errored_session_takes_its_reason_from_the_transcript_when_the_report_has_none() {
    let world = World::new();
    let cwd = world.path("work");
    std::fs::create_dir_all(&cwd).unwrap();
    let main = world.path("t/9c9bbdd2.jsonl");
    std::fs::create_dir_all(main.parent().unwrap()).unwrap();
    std::fs::copy(real("claude-code-2.1.328__api-error-400"), &main).unwrap();
    assert_eq!(
        usage_of(&main).last_api_error(),
        Some("API Error: 400 greenroom stand-in refuses this request")
    );
    let store = SidecarStore::new(world.path("sessions"));
    let mut s = Sidecar::new("cc", &cwd, "claude", Utc::now());
    s.activity = Some(greenroom::model::Activity::Error);
    s.activity_detail = Some("unknown".into());
    s.transcript_path = Some(main.clone());
    store.create(&s).unwrap();
    let row = |world: &World| {
        let out = Command::new(env!("CARGO_BIN_EXE_greenroom"))
            .args(["ls", "--json", "--config"])
            .arg(world.path("config.toml"))
            .arg("--sidecar-dir")
            .arg(world.path("sessions"))
            .arg("--claude-dir")
            .arg(world.path("claude"))
            .args(["--tmux-socket", "greenroom-test-none"])
            .output()
            .unwrap();
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        doc["sessions"][0].clone()
    };
    let r = row(&world);
    assert_eq!(r["activity"]["state"], "error");
    assert_eq!(
        r["activity"]["detail"],
        "API Error: 400 greenroom stand-in refuses this request"
    );
    // A real answer after the error: the transcript no longer explains an
    // error, and the report's own word is shown as it is.
    std::fs::OpenOptions::new()
        .append(true)
        .open(&main)
        .unwrap()
        .write_all(line("m9", "r9", "claude-opus-5-5", 1, 1).as_bytes())
        .unwrap();
    assert_eq!(row(&world)["activity"]["detail"], "unknown");
}
