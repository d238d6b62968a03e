//! The day's figure from each source's own record times, and the
//! per-session limit, on usage files written as the agents write them.

use std::path::Path;

use chrono::{DateTime, Duration, Utc};

use super::super::UsageFiles;
use crate::catalog::Settings;
use crate::model::{Budget, DaySpend, ModelUsage, day_start, local_day};
use crate::sources::prices::{Price, Prices};
use crate::sources::sidecar::Sidecar;
use crate::sources::transcript::usage_line;

/// One dollar per input token of model `m`: costs read as token counts.
fn settings(dir: &Path, budget: Budget) -> Settings {
    let dollar = Price {
        input: 1_000_000.0,
        output: 0.0,
        cache_write: 0.0,
        cache_read: 0.0,
    };
    let mut s = Settings::bare(dir.to_path_buf());
    s.prices = Prices::with_overrides(&[("m".to_owned(), dollar)].into());
    s.budget = budget;
    s
}

fn input(n: u64) -> ModelUsage {
    ModelUsage {
        input: n,
        ..ModelUsage::default()
    }
}

/// Yesterday's last second, today's midnight and now: the moments a day's
/// figure must tell apart.
fn moments(now: DateTime<Utc>) -> [DateTime<Utc>; 3] {
    let midnight = day_start(local_day(now));
    [midnight - Duration::seconds(1), midnight, now]
}

fn session_on(dir: &Path, transcript: &Path, now: DateTime<Utc>) -> Sidecar {
    let mut s = Sidecar::new("s", dir, "claude", now);
    s.transcript_path = Some(transcript.to_path_buf());
    s
}

#[test]
fn a_claude_session_counts_today_from_local_midnight_and_is_judged_by_its_limit() {
    let dir = tempfile::tempdir().unwrap();
    let now = Utc::now();
    let [yesterday, midnight, now] = moments(now);
    let path = dir.path().join("t.jsonl");
    let lines: String = [(yesterday, 3), (midnight, 2), (now, 4)]
        .iter()
        .enumerate()
        .map(|(i, (at, n))| usage_line(&format!("r{i}"), &format!("m{i}"), "m", &input(*n), *at))
        .collect();
    std::fs::write(&path, lines).unwrap();
    let s = session_on(dir.path(), &path, now);
    let over = Budget {
        session_usd: Some(8.0),
        day_usd: None,
    };
    let mut usage = UsageFiles::new(&settings(dir.path(), over));
    usage.track(&s);
    let u = usage.of(&s, now).unwrap();
    assert_eq!(u.cost_usd, Some(9.0), "{u:?}");
    let day = local_day(now);
    assert_eq!(u.today, Some(DaySpend { day, usd: 6.0 }));
    assert_eq!(u.over_budget_usd, Some(8.0), "9 spent is over 8");
    // Exactly the limit is within it.
    let at_limit = Budget {
        session_usd: Some(9.0),
        day_usd: None,
    };
    let mut usage = UsageFiles::new(&settings(dir.path(), at_limit));
    usage.track(&s);
    assert_eq!(usage.of(&s, now).unwrap().over_budget_usd, None);
    // Tomorrow, the same file spent nothing that day.
    let tomorrow = now + Duration::days(1);
    let u = usage.of(&s, tomorrow).unwrap();
    assert_eq!(u.today.map(|t| t.usd), Some(0.0));
}

#[test]
fn codex_and_gemini_files_count_today_by_their_records_times() {
    let dir = tempfile::tempdir().unwrap();
    let [yesterday, midnight, now] = moments(Utc::now());
    let stamp = |t: DateTime<Utc>| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    // Codex writes running totals: what each adds is counted at its time.
    let codex = dir.path().join("rollout-2026-12-02T00-00-00-x.jsonl");
    let total = |at: DateTime<Utc>, n: u64| {
        format!(
            r#"{{"timestamp":"{}","type":"event_msg","payload":{{"type":"token_count","info":{{"total_token_usage":{{"input_tokens":{n},"output_tokens":0}}}}}}}}"#,
            stamp(at)
        ) + "\n"
    };
    let turn =
        r#"{"timestamp":"2026-12-02T00:00:00Z","type":"turn_context","payload":{"model":"m"}}"#;
    let text = format!(
        "{turn}\n{}{}{}",
        total(yesterday, 3),
        total(midnight, 5),
        total(now, 9)
    );
    std::fs::write(&codex, text).unwrap();
    // Gemini writes one message a line; a message written again replaces itself.
    let chats = dir.path().join("chats");
    std::fs::create_dir_all(&chats).unwrap();
    let gemini = chats.join("session-1.jsonl");
    let message = |id: &str, at: DateTime<Utc>, n: u64| {
        format!(
            r#"{{"id":"{id}","timestamp":"{}","type":"gemini","content":"","tokens":{{"input":{n},"output":0,"cached":0,"thoughts":0,"tool":0,"total":{n}}},"model":"m"}}"#,
            stamp(at)
        ) + "\n"
    };
    let text = message("a", yesterday, 3) + &message("b", now, 2) + &message("b", now, 7);
    std::fs::write(&gemini, text).unwrap();

    let mut usage = UsageFiles::new(&settings(dir.path(), Budget::default()));
    for (file, want_total, want_today) in [(&codex, 9.0, 6.0), (&gemini, 10.0, 7.0)] {
        let s = session_on(dir.path(), file, now);
        usage.track(&s);
        let u = usage.of(&s, now).unwrap();
        assert_eq!(u.cost_usd, Some(want_total), "{}: {u:?}", file.display());
        assert_eq!(
            u.today.map(|t| t.usd),
            Some(want_today),
            "{}",
            file.display()
        );
        assert_eq!(u.over_budget_usd, None, "no limit, never over");
    }
}
