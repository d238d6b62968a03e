//! A real Claude Code hook -> greenroom's sidecar, measured.

use serde_json::Value;

use super::harness::Claude;
use super::standin::{Reply, StandIn};
use super::{health, tokens};

/// A real Claude Code hook -> greenroom's sidecar updated (budget: median
/// ≤ 5 ms). Measured, not asserted (a timed assertion would be flaky on a
/// shared machine): for every report the hooks make over a run of turns,
/// the moment inotify shows the new sidecar minus the `activity_reported_at`
/// that `greenroom report` takes from the clock as its `main` starts. That leaves
/// out the exec of the binary itself (benches/report_latency measures spawn
/// to exit). Printed with `--nocapture`; `GREENROOM_INTEROP_HOOK_BIN=
/// target/release/greenroom` measures the release build.
#[test]
fn hook_to_sidecar_latency_is_measured() {
    let turns = 12;
    let api = StandIn::start();
    api.script((0..turns).map(|i| Reply::Text(format!("Answer {i}."), tokens(10, 5, 0, 0))));
    let c = Claude::start(api);
    let sidecar = std::fs::read_dir(c.sidecars())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .unwrap();
    // inotify sees the sidecar's rename as it happens (file times are too
    // coarse for milliseconds); each new report is timed once.
    // SessionStart was reported before the watch began: not a sample.
    let before = c.sidecar()["activity_reported_at"]
        .as_str()
        .and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok())
        .map(|t| t.to_rfc3339());
    let seen = std::sync::Arc::new(std::sync::Mutex::new(std::collections::BTreeMap::new()));
    if let Some(t) = before {
        seen.lock().unwrap().insert(t, None);
    }
    let sink = seen.clone();
    let file = sidecar.clone();
    let mut watcher = notify::recommended_watcher(move |_event: notify::Result<notify::Event>| {
        let now = chrono::Utc::now();
        if let Ok(bytes) = std::fs::read(&file)
            && let Ok(v) = serde_json::from_slice::<Value>(&bytes)
            && let Some(at) = v["activity_reported_at"].as_str()
            && let Ok(at) = chrono::DateTime::parse_from_rfc3339(at)
        {
            let mut seen = sink.lock().unwrap();
            seen.entry(at.to_rfc3339())
                .or_insert(Some(now - at.to_utc()));
        }
    })
    .unwrap();
    use notify::Watcher;
    watcher
        .watch(&c.sidecars(), notify::RecursiveMode::NonRecursive)
        .unwrap();
    for i in 0..turns {
        c.prompt(&format!("Question {i}?"));
        let answer = format!("Answer {i}.");
        c.pane().until(30, "the answer", |s| s.contains(&answer));
        // Its turn ended by its hook's word, and nobody looked: ready.
        c.until_row(20, "ready after Stop", |r| health(r) == "ready");
    }
    drop(watcher);
    let seen = seen.lock().unwrap().clone();
    let mut ms: Vec<f64> = seen
        .values()
        .flatten()
        .map(|d| d.num_microseconds().unwrap_or(0) as f64 / 1000.0)
        .collect();
    ms.sort_by(f64::total_cmp);
    assert!(ms.len() >= turns, "a sample for each report: {ms:?}");
    let at = |p: f64| ms[((ms.len() - 1) as f64 * p).round() as usize];
    eprintln!(
        "hook -> sidecar over {} real Claude Code reports: median {:.2} ms, p90 {:.2} ms, max {:.2} ms",
        ms.len(),
        at(0.5),
        at(0.9),
        at(1.0)
    );
}
