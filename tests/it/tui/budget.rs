//! Spend against `[budget]` on screen and in the reducer: the header's
//! figure for today against the daily limit, the sidebar's `▲` on a
//! session over its limit, `S` sorting by spend, and each crossing
//! alerted once.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use chrono::{DateTime, Duration, TimeZone, Utc};
use crossterm::event::KeyCode;
use greenroom::model::{Budget, DaySpend, Health, Session, Usage, local_day};
use greenroom::tui::action::{Action, Effect, UiEffect};
use greenroom::tui::model::state::AppState;
use greenroom::tui::reduce::update::update;

use super::snapshots::{draw, screen};
use crate::support::key_in;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).unwrap()
}

/// What the catalog would say of a session that spent `cost`, `today` of
/// it today (its figure of yesterday when `today` is `None`), judged by a
/// $5 session limit.
fn spent(name: &str, focused_min_ago: i64, cost: f64, today: Option<f64>) -> Session {
    let day = local_day(now());
    let today = match today {
        Some(usd) => DaySpend { day, usd },
        None => DaySpend {
            day: day.pred_opt().unwrap(),
            usd: cost,
        },
    };
    crate::support::session::session(name)
        .cwd("/work")
        .health(Health::Idle)
        .created(Some(now() - Duration::hours(2)))
        .focused(Some(now() - Duration::minutes(focused_min_ago)))
        .usage(Usage {
            cost_usd: Some(cost),
            cost_source: Some("prices".into()),
            today: Some(today),
            over_budget_usd: Budget {
                session_usd: Some(5.0),
                day_usd: None,
            }
            .session_over(Some(cost)),
            ..Usage::default()
        })
        .build()
}

fn budget() -> Budget {
    Budget {
        session_usd: Some(5.0),
        day_usd: Some(50.0),
    }
}

fn with_rows(rows: Vec<Session>) -> (AppState, Vec<Effect>) {
    let mut s = AppState::new(now(), vec![]);
    s.settings.budget = budget();
    let effects = update(
        &mut s,
        Action::Rows {
            rows,
            problems: vec![],
        },
    );
    (s, effects)
}

fn alerts(effects: &[Effect]) -> Vec<String> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Ui(UiEffect::Notify(n)) if n.kind == "over_budget" => {
                Some(format!("{}: {}", n.title, n.body))
            }
            _ => None,
        })
        .collect()
}

fn names(s: &AppState) -> Vec<String> {
    s.list.visible_sessions().map(|r| r.name.clone()).collect()
}

#[test]
fn the_header_shows_today_against_the_limit_and_s_sorts_by_spend() {
    let (mut s, _) = with_rows(vec![
        spent("recent", 1, 0.40, Some(0.40)),
        spent("costly", 5, 7.25, Some(6.10)),
        spent("older", 30, 3.00, None),
    ]);
    assert_eq!(names(&s), ["recent", "costly", "older"]);
    insta::assert_snapshot!("budget_by_focus_100x14", draw(&s, 100, 14).backend());
    key_in(&mut s, KeyCode::Char('S'));
    assert_eq!(names(&s), ["costly", "older", "recent"], "highest first");
    // The most spent, selected: the detail pane says it is over.
    key_in(&mut s, KeyCode::Char('g'));
    insta::assert_snapshot!("budget_by_spend_100x14", draw(&s, 100, 14).backend());
    key_in(&mut s, KeyCode::Char('S'));
    assert_eq!(
        names(&s),
        ["recent", "costly", "older"],
        "S again: as before"
    );
}

#[test]
fn the_day_over_its_limit_is_marked_and_without_a_limit_today_is_shown_plainly() {
    let (mut s, _) = with_rows(vec![spent("a", 1, 60.0, Some(52.5))]);
    let text = screen(&draw(&s, 120, 8));
    assert!(text.contains("▲ $52.50/$50 today"), "{text}");
    s.settings.budget.day_usd = None;
    let text = screen(&draw(&s, 120, 8));
    assert!(
        text.contains("$52.50 today") && !text.contains("/$50"),
        "{text}"
    );
    // Only when there is room: it never shortens the counts.
    let text = screen(&draw(&s, 56, 8));
    assert!(
        text.contains("○ 1 idle") && !text.contains("today"),
        "{text}"
    );
}

#[test]
fn a_crossing_is_alerted_once_and_kept_across_row_rebuilds() {
    let (mut s, first) = with_rows(vec![spent("api", 1, 4.0, Some(4.0))]);
    assert!(alerts(&first).is_empty(), "{first:?}");
    let rows = |cost: f64| Action::Rows {
        rows: vec![spent("api", 1, cost, Some(cost))],
        problems: vec![],
    };
    let crossed = alerts(&update(&mut s, rows(5.5)));
    assert_eq!(
        crossed,
        ["greenroom: api is over budget: spent $5.50, over its $5 limit"]
    );
    // The rows rebuilt, and one row changed alone, with the spend still over.
    assert!(alerts(&update(&mut s, rows(5.5))).is_empty());
    let alone = Action::RowsChanged(vec![spent("api", 1, 6.0, Some(6.0))]);
    assert!(alerts(&update(&mut s, alone)).is_empty());

    // The day: within its limit, then over it: once.
    let day = |usd: f64| Action::Rows {
        rows: vec![
            spent("api", 1, 6.0, Some(6.0)),
            spent("web", 2, usd, Some(usd)),
        ],
        problems: vec![],
    };
    assert!(alerts(&update(&mut s, day(40.0))).is_empty());
    let crossed = alerts(&update(&mut s, day(45.0)));
    assert_eq!(
        crossed,
        ["greenroom: today's spend is over budget: $51.00 spent today, over the $50 daily limit"]
    );
    assert!(alerts(&update(&mut s, day(47.0))).is_empty());
}

#[test]
fn what_is_already_over_when_the_dashboard_starts_is_marked_not_alerted() {
    // The first rows come before the transcripts are read: no usage.
    let mut bare = spent("api", 1, 9.0, Some(60.0));
    bare.usage = None;
    let (mut s, first) = with_rows(vec![bare]);
    assert!(alerts(&first).is_empty());
    let loaded = update(
        &mut s,
        Action::Rows {
            rows: vec![spent("api", 1, 9.0, Some(60.0))],
            problems: vec![],
        },
    );
    assert!(alerts(&loaded).is_empty(), "{loaded:?}");
    let text = screen(&draw(&s, 120, 8));
    assert!(text.contains("$9.00▲"), "marked in the sidebar:\n{text}");
    assert!(text.contains("▲ $60.00/$50 today"), "{text}");
}
