//! Transcript usage on screen: the detail pane, the sidebar's cost column
//! and the header's total.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use std::collections::BTreeMap;

use chrono::{TimeZone, Utc};
use greenroom::model::{Activity, Health, ModelUsage, Session, Usage};
use greenroom::tui::action::Action;
use greenroom::tui::keymap::Keymap;
use greenroom::tui::model::state::AppState;
use greenroom::tui::reduce::update::update;
use greenroom::tui::view::{render, theme::Theme};
use ratatui::{Terminal, backend::TestBackend};

fn session(name: &str, cost: Option<f64>) -> Session {
    let mut by_model = BTreeMap::new();
    by_model.insert(
        "claude-opus-4-6".to_owned(),
        ModelUsage {
            input: 12_000,
            output: 3_400,
            cache_read: 150_000,
            cache_write: 8_000,
        },
    );
    by_model.insert(
        "claude-haiku-4-5".to_owned(),
        ModelUsage {
            input: 900,
            output: 100,
            cache_read: 0,
            cache_write: 0,
        },
    );
    crate::support::session::session(name)
        .cwd("/work")
        .health(Health::Active)
        .activity(Activity::Active, None, true)
        .usage(Usage {
            input: 12_900,
            output: 3_500,
            cache_read: 150_000,
            cache_write: 8_000,
            cost_usd: cost,
            by_model,
            tokens_per_minute: 1_250.0,
            ..Usage::default()
        })
        .build()
}

fn screen(state: &AppState) -> String {
    let mut t = Terminal::new(TestBackend::new(140, 30)).unwrap();
    t.draw(|f| render(f, state, &Keymap::default(), &Theme::no_color()))
        .unwrap();
    let buf = t.backend().buffer().clone();
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol().to_owned())
                .collect::<String>()
                + "\n"
        })
        .collect()
}

#[test]
fn usage_shows_in_the_detail_sidebar_and_header() {
    let mut s = AppState::new(
        Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).unwrap(),
        vec![],
    );
    update(
        &mut s,
        Action::Rows {
            rows: vec![session("api-1", Some(1.234)), session("web-2", Some(0.5))],
            problems: vec![],
        },
    );
    let text = screen(&s);
    assert!(text.contains("spent $1.73"), "header total:\n{text}");
    assert!(
        text.contains("$1.23") && text.contains("$0.50"),
        "sidebar column:\n{text}"
    );
    assert!(text.contains("in 12k · out 3.5k"), "detail totals:\n{text}");
    assert!(text.contains("1.2k tokens/min"), "rate:\n{text}");
    assert!(
        text.contains("claude-haiku-4-5: in 900"),
        "per model:\n{text}"
    );

    s.settings.show_cost = false;
    let text = screen(&s);
    assert!(
        !text.contains("$0.50"),
        "the sidebar column can be turned off:\n{text}"
    );
}

#[test]
fn an_unknown_price_shows_tokens_without_a_cost() {
    let mut s = AppState::new(
        Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).unwrap(),
        vec![],
    );
    update(
        &mut s,
        Action::Rows {
            rows: vec![session("api-1", None)],
            problems: vec![],
        },
    );
    let text = screen(&s);
    assert!(!text.contains("spent"), "{text}");
    assert!(text.contains("in 12k"), "{text}");
}

/// Issue 12 §2.4: a model without a price is named, not silently dropped.
#[test]
fn a_model_without_a_price_is_named_in_the_detail_and_the_sidebar() {
    let mut s = AppState::new(
        Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).unwrap(),
        vec![],
    );
    let mut row = session("api-1", None);
    row.usage.as_mut().unwrap().unpriced_models = vec!["claude-opus-9-9".into()];
    update(
        &mut s,
        Action::Rows {
            rows: vec![row],
            problems: vec![],
        },
    );
    let text = screen(&s);
    // The usage row may wrap at this width: both parts are there.
    assert!(
        text.contains("cost unknown: no price for") && text.contains("claude-opus-9-9"),
        "detail:\n{text}"
    );
    assert!(text.contains("$?"), "sidebar:\n{text}");
    assert!(text.contains("spent $?"), "header:\n{text}");
    // Beside a priced session, the total says it is not the whole.
    let mut rows = vec![session("api-1", None), session("web-2", Some(0.5))];
    rows[0].usage.as_mut().unwrap().unpriced_models = vec!["claude-opus-9-9".into()];
    update(
        &mut s,
        Action::Rows {
            rows,
            problems: vec![],
        },
    );
    let text = screen(&s);
    assert!(text.contains("spent $0.50 + ?"), "header:\n{text}");
}

/// Issue 26 §5: the header's "spent" is money spent: a row that ends and
/// leaves the list, or is dismissed while the archive is hidden, keeps its
/// cost in the total, and the header says how much is not listed; a row
/// back on the list counts once.
#[test]
fn spent_never_goes_down_when_rows_leave_the_list() {
    let mut s = AppState::new(
        Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).unwrap(),
        vec![],
    );
    let rows = |rows: Vec<Session>| Action::Rows {
        rows,
        problems: vec![],
    };
    update(
        &mut s,
        rows(vec![
            session("api-1", Some(0.05)),
            session("web-2", Some(0.02)),
        ]),
    );
    assert!(screen(&s).contains("spent $0.07"), "{}", screen(&s));
    // api-1 ends and its row goes (a hand-started agent killed).
    update(&mut s, rows(vec![session("web-2", Some(0.02))]));
    let text = screen(&s);
    assert!(text.contains("spent $0.07"), "header:\n{text}");
    assert!(text.contains("($0.05 not listed)"), "header:\n{text}");
    // Back on the list (the archive shown): counted once.
    update(
        &mut s,
        rows(vec![
            session("api-1", Some(0.05)),
            session("web-2", Some(0.02)),
        ]),
    );
    let text = screen(&s);
    assert!(text.contains("spent $0.07"), "header:\n{text}");
    assert!(!text.contains("not listed"), "header:\n{text}");
    // Dismissed, its row archived and the archive hidden: kept, and said.
    let mut archived = session("web-2", Some(0.02));
    archived.archived = true;
    update(&mut s, rows(vec![session("api-1", Some(0.05)), archived]));
    let text = screen(&s);
    assert!(text.contains("spent $0.07"), "header:\n{text}");
    assert!(text.contains("($0.02 not listed)"), "header:\n{text}");
}

/// Codex records its reasoning tokens (inside the output): the detail
/// pane says how many; the other agents' rows say nothing of it.
#[test]
fn reasoning_tokens_show_where_the_agent_records_them() {
    let mut s = AppState::new(
        Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).unwrap(),
        vec![],
    );
    let mut codex = session("codex-1", None);
    if let Some(u) = codex.usage.as_mut() {
        u.reasoning = 1_500;
    }
    update(
        &mut s,
        Action::Rows {
            rows: vec![codex],
            problems: vec![],
        },
    );
    let text = screen(&s);
    assert!(text.contains("out 3.5k (reasoning 1.5k) · cache"), "{text}");
    update(
        &mut s,
        Action::Rows {
            rows: vec![session("api-1", None)],
            problems: vec![],
        },
    );
    assert!(!screen(&s).contains("reasoning"));
}
