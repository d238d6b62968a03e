//! `[budget]` in config.toml: limits read and checked, and a session over
//! its limit said in `ls --json` (`usage.over_budget_usd`).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use std::process::Command;

use chrono::{Duration, Utc};
use greenroom::config::{Config, Env, Overrides};
use greenroom::model::{Budget, ModelUsage, local_day};
use greenroom::sources::prices::Prices;
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use greenroom::sources::transcript::usage_line;

use crate::support::World;

struct NoEnv;

impl Env for NoEnv {
    fn var(&self, _: &str) -> Option<String> {
        None
    }
}

fn load(text: &str) -> Result<Config, String> {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("config.toml");
    std::fs::write(&cfg, text).unwrap();
    let o = Overrides {
        config: Some(cfg),
        ..Overrides::default()
    };
    Config::load(&o, &NoEnv).map_err(|e| e.to_string())
}

#[test]
fn limits_are_read_as_usd_and_both_are_optional() {
    let none = load("").unwrap();
    assert_eq!(none.budget, Budget::default());
    let both = load("[budget]\nsession_usd = 5\nday_usd = 12.5\n").unwrap();
    assert_eq!(
        both.budget,
        Budget {
            session_usd: Some(5.0),
            day_usd: Some(12.5),
        }
    );
    let one = load("[budget]\nday_usd = 0\n").unwrap();
    assert_eq!(
        (one.budget.session_usd, one.budget.day_usd),
        (None, Some(0.0))
    );
}

#[test]
fn a_negative_or_non_number_limit_is_one_line_that_says_what_to_do() {
    let negative = load("alerts = true\n[budget]\nsession_usd = -5\n").unwrap_err();
    assert!(!negative.contains('\n'), "{negative}");
    assert!(
        negative.contains("line 3, key `budget.session_usd`")
            && negative.contains("cannot be negative")
            && negative.contains("such as 5"),
        "{negative}"
    );
    let text = load("[budget]\nday_usd = \"fifty\"\n").unwrap_err();
    assert!(!text.contains('\n'), "{text}");
    assert!(
        text.contains("key `budget.day_usd`")
            && text.contains("a limit in USD, a number such as 5"),
        "{text}"
    );
    let unknown = load("[budget]\nweek_usd = 5\n").unwrap_err();
    assert!(unknown.contains("unknown key `week_usd`"), "{unknown}");
}

/// `greenroom ls --json` with `config` as this world's config.toml.
fn ls_with(world: &World, config: &str) -> serde_json::Value {
    std::fs::write(world.path("config.toml"), config).unwrap();
    world.ls_json()
}

#[test]
fn ls_json_says_which_session_is_over_its_limit() {
    let world = World::new();
    let dir = world.path("claude/projects/-work");
    std::fs::create_dir_all(&dir).unwrap();
    // Two answers as Claude Code writes them: one two days ago, one now.
    let model = "claude-sonnet-4-5";
    let tokens = ModelUsage {
        input: 100_000,
        output: 10_000,
        ..ModelUsage::default()
    };
    let now = Utc::now();
    let transcript = dir.join("spender.jsonl");
    let text = usage_line("r1", "m1", model, &tokens, now - Duration::days(2))
        + &usage_line("r2", "m2", model, &tokens, now);
    std::fs::write(&transcript, text).unwrap();
    let mut s = Sidecar::new("spender", &world.path("work"), "claude", now);
    s.transcript_path = Some(transcript);
    SidecarStore::new(world.path("sessions"))
        .create(&s)
        .unwrap();
    let one = Prices::with_overrides(&Default::default())
        .cost(model, &tokens)
        .unwrap();

    let over = ls_with(&world, &format!("[budget]\nsession_usd = {}\n", one * 1.5));
    let u = &over["sessions"][0]["usage"];
    assert!(
        (u["cost_usd"].as_f64().unwrap() - 2.0 * one).abs() < 1e-9,
        "{u:#}"
    );
    assert_eq!(u["over_budget_usd"].as_f64(), Some(one * 1.5), "{u:#}");
    // Only the answer of today is today's.
    assert!(
        (u["today"]["usd"].as_f64().unwrap() - one).abs() < 1e-9,
        "{u:#}"
    );
    assert_eq!(
        u["today"]["day"],
        local_day(Utc::now()).to_string(),
        "{u:#}"
    );

    let within = ls_with(&world, &format!("[budget]\nsession_usd = {}\n", one * 2.5));
    assert!(within["sessions"][0]["usage"]["over_budget_usd"].is_null());
    let unlimited = ls_with(&world, "");
    assert!(unlimited["sessions"][0]["usage"]["over_budget_usd"].is_null());

    // A bad limit stops the command with the one line.
    std::fs::write(world.path("config.toml"), "[budget]\nday_usd = -1\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_greenroom"))
        .args(["ls", "--json", "--config"])
        .arg(world.path("config.toml"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot be negative"), "{err}");
}
