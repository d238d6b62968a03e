//! A Codex CLI session's usage is its rollout's own last running total:
//! the rollout a hook named (`transcript_path`), or, for a Codex greenroom
//! started without hooks, the one Codex began in its folder after the
//! start. The rollout is Codex CLI 0.169.0's own, from the interop suite
//! (tests/interop/codex/usage.rs): see tests/fixtures/real/SOURCES.tsv.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use std::path::{Path, PathBuf};

use chrono::{Duration, Local, Utc};
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use serde_json::Value;

use crate::support::World;
use crate::support::live::Live;

const ROLLOUT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/real/codex-rollout/codex-0.169.0__two-turns.jsonl"
);
const ID: &str = "01a2369d-5c0d-7712-9b13-6966c3434d37";
const CAPTURED_CWD: &str = "/tmp/.tmpZtMveW/work";

/// The captured rollout filed under `codex_home` as Codex files it, begun
/// at `begun` (local time), its session run in `cwd`; `tag` tells apart
/// files begun in the same second.
fn file_rollout(
    codex_home: &Path,
    begun: chrono::DateTime<Local>,
    cwd: &Path,
    tag: &str,
) -> PathBuf {
    let dir = codex_home
        .join("sessions")
        .join(begun.format("%Y/%m/%d").to_string());
    std::fs::create_dir_all(&dir).unwrap();
    let name = format!(
        "rollout-{}-{tag}{ID}.jsonl",
        begun.format("%Y-%m-%dT%H-%M-%S")
    );
    let text = std::fs::read_to_string(ROLLOUT).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text.replace(CAPTURED_CWD, &cwd.to_string_lossy())).unwrap();
    path
}

fn the_rollouts_totals(row: &Value) {
    let u = &row["usage"];
    assert_eq!(u["input"], 25_500 - 14_000, "{row:#}");
    assert_eq!(u["cache_read"], 14_000);
    assert_eq!(u["output"], 650);
    assert_eq!(u["reasoning"], 150);
    assert_eq!(u["by_model"]["gpt-5.4"]["cache_read"], 14_000);
    assert_eq!(u["cost_usd"], Value::Null, "gpt-5.4 has no price");
    assert_eq!(u["unpriced_models"], serde_json::json!(["gpt-5.4"]));
    assert_eq!(row["agent_session_id"], ID);
}

#[test]
fn a_rollout_a_hook_named_reads_as_codexs_totals() {
    let world = World::new();
    let work = world.path("work");
    let path = file_rollout(&world.path("codex"), Local::now(), &work, "");
    let mut s = Sidecar::new("cx", &work, "codex", Utc::now());
    s.transcript_path = Some(path);
    SidecarStore::new(world.path("sessions"))
        .create(&s)
        .unwrap();
    the_rollouts_totals(&world.ls_json()["sessions"][0]);
}

#[test]
fn a_codex_started_without_hooks_finds_its_own_rollout() {
    let world = World::new();
    let codex_home = world.path("codex");
    let (mine, other) = (world.path("mine"), world.path("other"));
    let started = Utc::now() - Duration::seconds(30);
    // Another folder's rollout, and one of this folder from before the start.
    let other = file_rollout(&codex_home, Local::now(), &other, "a");
    let before = (started - Duration::hours(1)).with_timezone(&Local);
    let old = file_rollout(&codex_home, before, &mine, "");
    std::fs::rename(
        &old,
        old.with_file_name("rollout-2020-01-01T00-00-00-x.jsonl"),
    )
    .unwrap();
    let store = SidecarStore::new(world.path("sessions"));
    let mut s = Sidecar::new("cx", &mine, "codex --no-alt-screen", started);
    s.agent = Some("codex".into());
    s.env
        .insert("CODEX_HOME".into(), codex_home.to_string_lossy().into());
    store.create(&s).unwrap();
    let row = &world.ls_json()["sessions"][0];
    assert_eq!(row["usage"], Value::Null, "before Codex wrote it: {row:#}");
    file_rollout(&codex_home, Local::now(), &mine, "b");
    the_rollouts_totals(&world.ls_json()["sessions"][0]);
    assert!(other.exists(), "the other folder's rollout is still there");
}

/// The dashboard's engine: a Codex session waits for its rollout (Codex
/// writes it at the first prompt, in a day folder that may not exist yet),
/// and follows it once it appears and as it grows, from file notifications.
#[test]
fn a_running_dashboard_follows_a_rollout_written_after_the_start() {
    let world = World::new();
    let codex_home = world.path("codex");
    let work = world.path("work");
    let mut s = Sidecar::new("cx", &work, "codex", Utc::now() - Duration::seconds(5));
    s.agent = Some("codex".into());
    s.env
        .insert("CODEX_HOME".into(), codex_home.to_string_lossy().into());
    SidecarStore::new(world.path("sessions"))
        .create(&s)
        .unwrap();
    let mut live = Live::start(&world.config(None, &[]));
    live.row("cx", "the session, no usage yet", |r| r.usage.is_none());
    let path = file_rollout(&codex_home, Local::now(), &work, "");
    live.row("cx", "the rollout's totals", |r| {
        r.usage
            .as_ref()
            .is_some_and(|u| u.output == 650 && u.reasoning == 150)
    });
    let more = r#"{"timestamp":"2026-12-02T11:58:00.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":30000,"cached_input_tokens":20000,"output_tokens":700,"reasoning_output_tokens":160}}}}"#;
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    std::io::Write::write_all(&mut f, format!("{more}\n").as_bytes()).unwrap();
    live.row("cx", "the next total", |r| {
        r.usage
            .as_ref()
            .is_some_and(|u| (u.input, u.cache_read, u.output) == (10_000, 20_000, 700))
    });
}

/// A restored Codex session (`codex resume <id>` goes on writing the
/// rollout it began with) finds that rollout by its id, though it began
/// before the restore.
#[test]
fn a_restored_codex_finds_the_rollout_of_its_id() {
    let world = World::new();
    let codex_home = world.path("codex");
    let work = world.path("work");
    // Begun two days before the restore, in that day's folder.
    let started = Utc::now() - Duration::days(2);
    let begun = (started + Duration::seconds(5)).with_timezone(&Local);
    file_rollout(&codex_home, begun, &work, "");
    let mut s = Sidecar::new("cx", &work, "codex", started);
    s.agent = Some("codex".into());
    s.restored_at = Some(Utc::now());
    s.env
        .insert("CODEX_HOME".into(), codex_home.to_string_lossy().into());
    let store = SidecarStore::new(world.path("sessions"));
    store.create(&s).unwrap();
    assert_eq!(
        world.ls_json()["sessions"][0]["usage"],
        Value::Null,
        "no id: after the restore only"
    );
    s.agent_session_id = Some(ID.into());
    std::fs::remove_file(store.path_for(s.id)).unwrap();
    store.create(&s).unwrap();
    the_rollouts_totals(&world.ls_json()["sessions"][0]);
}
