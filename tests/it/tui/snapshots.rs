#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Snapshot tests of every dashboard screen, drawn with ratatui's
//! `TestBackend` from hand-built state (fixed clock, fixed timestamps), at
//! 60x20 (a narrow split pane) and 160x48 (a wide one), plus 40x10.

use greenroom::model::RowKey;
use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::{DateTime, Duration, TimeZone, Utc};
use greenroom::model::{
    Activity, Health, Orchestration, Phase, PhaseError, PhaseId, PhaseStatus, Problem, Session,
    Source, Status, TokenCounts, TokenUsage,
};
use greenroom::tui::action::Action;
use greenroom::tui::keymap::Keymap;
use greenroom::tui::model::state::{
    AppState, DetailTab, Mode, Overlay, Preview, SortMode, TmuxStatus,
};
use greenroom::tui::view::{Theme, render, sidebar_list_area};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use ratatui::style::Color;

const SIZES: [(u16, u16); 2] = [(60, 20), (160, 48)];

pub(crate) fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2025, 6, 1, 12, 0, 0).unwrap()
}

pub(crate) fn ago(minutes: i64) -> Option<DateTime<Utc>> {
    Some(now() - Duration::minutes(minutes))
}

/// A live greenroom session; tests change what differs.
pub(crate) fn session(id: &str, health: Health, agent: Option<&str>, state: Activity) -> Session {
    crate::support::session::session(id)
        .health(health)
        .cwd(&format!("/home/op/src/{id}"))
        .agent(agent)
        .created(ago(60 * 24))
        .last_activity(ago(1))
        .activity(state, ago(1), false)
        .build()
}

pub(crate) fn phase(id: i64, name: &str, status: PhaseStatus, agents: &[&str]) -> Phase {
    Phase {
        id: PhaseId::Number(id),
        name: Some(name.to_owned()),
        status,
        agents: agents.iter().map(|a| (*a).to_owned()).collect(),
        errors: Vec::new(),
        retry_count: 0,
        warnings: Vec::new(),
        started: None,
        completed: None,
    }
}

fn counts(input: u64, output: u64, cached: u64) -> TokenCounts {
    TokenCounts {
        input,
        output,
        cached,
    }
}

/// Maestro's state for `api-retries`: phase 3 failed with an open error,
/// phase 4 runs anyway (the file contradicts itself), tokens by agent.
pub(crate) fn orchestration() -> Orchestration {
    let mut failed = phase(
        3,
        "Implement retries",
        PhaseStatus::Failed,
        &["coder", "tester"],
    );
    failed.errors = vec![
        PhaseError {
            agent: Some("coder".into()),
            kind: Some("build".into()),
            message: Some("missing import".into()),
            resolved: true,
            ..PhaseError::default()
        },
        PhaseError {
            agent: Some("tester".into()),
            kind: Some("test_failure".into()),
            message: Some("retry_budget_resets: expected 3 attempts, got 4".into()),
            resolved: false,
            ..PhaseError::default()
        },
    ];
    failed.retry_count = 2;
    failed.warnings = vec!["phase 4 must not start until the tests pass".into()];
    let mut scaffold = phase(
        2,
        "Scaffold the client wrapper",
        PhaseStatus::Completed,
        &["coder"],
    );
    scaffold.warnings = vec!["the wrapper changes the public constructor".into()];
    let mut by_agent = BTreeMap::new();
    by_agent.insert("architect".into(), counts(120_000, 30_400, 90_000));
    by_agent.insert("coder".into(), counts(812_000, 240_100, 600_000));
    by_agent.insert("tester".into(), counts(352_000, 72_000, 220_000));
    Orchestration {
        session_id: Some("api-retries-0601".into()),
        task: Some("Add a per-request retry budget to the API client".into()),
        status: Some("in_progress".into()),
        workflow_mode: Some("standard".into()),
        current_phase: Some(PhaseId::Number(3)),
        total_phases: Some(5),
        path: "/home/op/src/api-retries/docs/maestro/state/active-session.md".into(),
        workspace: "/home/op/src/api-retries".into(),
        phases: vec![
            phase(
                1,
                "Design the retry budget",
                PhaseStatus::Completed,
                &["architect"],
            ),
            scaffold,
            failed,
            phase(4, "Review", PhaseStatus::InProgress, &["reviewer"]),
            phase(5, "Release notes", PhaseStatus::Pending, &[]),
        ],
        token_usage: Some(TokenUsage {
            input: 1_284_000,
            output: 342_500,
            cached: 910_000,
            by_agent,
        }),
        contradictions: vec!["current_phase is 3, but phase 4 is in progress".into()],
        ..Orchestration::default()
    }
}

/// A Maestro session no greenroom session claims, completed.
fn finished_orchestration() -> Orchestration {
    Orchestration {
        session_id: Some("release-q2".into()),
        task: Some("Write the Q2 release notes".into()),
        status: Some("completed".into()),
        workflow_mode: Some("express".into()),
        current_phase: Some(PhaseId::Number(2)),
        total_phases: Some(2),
        path: "/home/op/src/site/docs/maestro/state/active-session.md".into(),
        workspace: "/home/op/src/site".into(),
        phases: vec![
            phase(1, "Collect changes", PhaseStatus::Completed, &["scribe"]),
            phase(2, "Draft", PhaseStatus::Completed, &["scribe"]),
        ],
        token_usage: Some(TokenUsage {
            input: 64_000,
            output: 9_800,
            cached: 0,
            by_agent: BTreeMap::new(),
        }),
        ..Orchestration::default()
    }
}

pub(crate) fn rows() -> Vec<Session> {
    let mut api = session(
        "api-retries",
        Health::Errored,
        Some("claude"),
        Activity::Active,
    );
    api.orchestration = Some(Arc::new(orchestration()));
    api.active_agent = Some("tester".into());
    api.branch = Some("feat/retry-budget".into());
    api.agent_session_id = Some("5f1c2a9e-7b3d-4e21-9a0c-2d4f6b8e1a37".into());
    api.last_focused_at = ago(3);
    api.activity.since = ago(2);

    let mut web = session("web-auth", Health::Errored, Some("claude"), Activity::Error);
    web.activity.detail = Some("rate_limit".into());
    web.activity.reported = true;
    web.activity.since = ago(4);
    web.last_focused_at = ago(45);

    let mut docs = session(
        "docs-site",
        Health::Waiting,
        Some("claude"),
        Activity::AwaitingInput,
    );
    docs.activity.detail = Some("Claude needs your permission to use Bash".into());
    docs.activity.reported = true;
    docs.activity.since = ago(2);
    docs.last_focused_at = ago(90);

    let mut db = session("migrate-db", Health::Stuck, Some("codex"), Activity::Active);
    db.activity.since = ago(14);
    db.last_activity_at = ago(14);
    db.last_focused_at = ago(30);

    let mut ui = session(
        "ui-polish",
        Health::Active,
        Some("gemini"),
        Activity::Active,
    );
    ui.activity.since = Some(now() - Duration::seconds(12));
    ui.last_focused_at = ago(1);

    let mut scratch = session("scratch", Health::Idle, None, Activity::Idle);
    scratch.activity.since = ago(130);
    scratch.last_focused_at = ago(200);

    let mut billing = session(
        "billing-v2",
        Health::Dormant,
        Some("claude"),
        Activity::Idle,
    );
    billing.status = Status::Dormant;
    billing.activity.since = ago(3 * 24 * 60);
    billing.agent_session_id = Some("0b7e4d21-99aa-4c5e-8f10-6a2b3c4d5e6f".into());
    billing.problems = vec![
        "worktree /home/op/wt/billing-v2 is gone; restore recreates it from feat/billing-v2".into(),
    ];

    let mut lint = session("lint-fix", Health::Exited, Some("aider"), Activity::Idle);
    lint.status = Status::Exited;
    lint.activity.since = ago(26 * 60);

    let mut release = session("release-q2", Health::Done, None, Activity::Idle);
    release.id = "release-q2".into();
    release.source = Source::Maestro;
    release.status = Status::Unknown("Unknown".into());
    release.tmux_session = None;
    release.cwd = "/home/op/src/site".into();
    release.orchestration = Some(Arc::new(finished_orchestration()));
    release.activity.since = ago(20 * 60);

    let mut ao = session("ao-7", Health::Idle, Some("claude-code"), Activity::Idle);
    ao.source = Source::AgentOrchestrator;
    ao.tmux_session = Some("ao-7".into());
    ao.cwd = "/tmp/worktrees/ao-7".into();
    ao.branch = Some("session/ao-7".into());
    ao.activity.since = ago(9);

    vec![api, web, docs, db, ui, scratch, billing, lint, release, ao]
}

fn keymap() -> Keymap {
    Keymap::default()
}

/// The dashboard as it would be after loading the rows, selecting `id`.
pub(crate) fn state(w: u16, h: u16, select: &str) -> AppState {
    let mut s = AppState::new(now(), Vec::new());
    s.list.rows = rows();
    s.link.tmux = TmuxStatus::Running;
    s.triage.attention.insert(RowKey::here("id-docs-site"));
    s.nav.page = usize::from(sidebar_list_area(Rect::new(0, 0, w, h)).height);
    s.refresh_visible();
    pick(&mut s, select);
    s
}

pub(crate) fn pick(s: &mut AppState, id: &str) {
    s.nav.selected = Some(RowKey::here(id.to_owned()));
    s.clamp_offset();
}

fn draw_with(s: &AppState, w: u16, h: u16, theme: &Theme) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| render(f, s, &keymap(), theme)).unwrap();
    terminal
}

pub(crate) fn draw(s: &AppState, w: u16, h: u16) -> Terminal<TestBackend> {
    draw_with(s, w, h, &Theme::no_color())
}

pub(crate) fn screen(t: &Terminal<TestBackend>) -> String {
    t.backend().to_string()
}

/// Snapshots a screen at both sizes; `setup` tunes the state per size.
fn snap(name: &str, setup: impl Fn(&mut AppState)) {
    for (w, h) in SIZES {
        let mut s = state(w, h, "id-api-retries");
        setup(&mut s);
        let t = draw(&s, w, h);
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), t.backend());
    }
}

#[test]
fn overview() {
    snap("overview", |_| {});
}

#[test]
fn overview_of_a_waiting_session() {
    snap("overview_waiting", |s| pick(s, "id-docs-site"));
}

#[test]
fn orchestration_tab_with_phases() {
    snap("orchestration", |s| s.detail.tab = DetailTab::Orchestration);
}

#[test]
fn triage_sort() {
    snap("triage", |s| {
        s.nav.sort = SortMode::Triage;
        s.refresh_visible();
        pick(s, "id-web-auth");
    });
}

#[test]
fn filter_being_typed() {
    snap("filter_editing", |s| {
        s.nav.filter = "api".into();
        s.mode = Mode::Filter;
        s.refresh_visible();
    });
}

#[test]
fn health_filter() {
    snap("health_filter", |s| {
        s.nav.health_filter = Some(Health::Errored);
        s.refresh_visible();
        pick(s, "id-web-auth");
    });
}

#[test]
fn help_overlay() {
    snap("help", |s| s.mode = Mode::Overlay(Overlay::Help));
}

/// At 80x24 help does not fit: it scrolls with the list's moving keys,
/// down to its last line and no further, and says where it is.
#[test]
fn help_scrolls_where_the_screen_is_short() {
    use greenroom::tui::action::Command;
    let (w, h) = (80, 24);
    let bindings = greenroom::tui::keymap::BINDINGS.len();
    assert!(2 * bindings < greenroom::tui::model::nav::HELP_SCROLL_MAX);
    let mut s = state(w, h, "id-api-retries");
    s.mode = Mode::Overlay(Overlay::Help);
    let top = screen(&draw(&s, w, h));
    assert!(top.contains("scroll: 1-"), "{top}");
    for _ in 0..200 {
        greenroom::tui::reduce::update::update(&mut s, Action::Command(Command::Down));
    }
    let bottom = screen(&draw(&s, w, h));
    assert_ne!(top, bottom);
    insta::assert_snapshot!("help_scrolled_to_its_end_80x24", bottom);
    // It stops at its last line ("…-23 of 23"); Top comes back.
    let at = bottom.split("scroll: ").nth(1).unwrap();
    let (shown, of) = at.split_once(" of ").unwrap();
    let last = shown.split('-').nth(1).unwrap();
    assert!(of.starts_with(&format!("{last} ")), "{at}");
    greenroom::tui::reduce::update::update(&mut s, Action::Command(Command::Top));
    assert_eq!(screen(&draw(&s, w, h)), top);
}

fn problems() -> Vec<Problem> {
    vec![
        Problem::new(
            "/home/op/.local/state/greenroom/sessions/3f2a9c1e-0d4b-4a5e-9b7c-1e2f3a4b5c6d.json",
            "not valid JSON: expected `,` or `}` at line 12 column 3",
        ),
        Problem::new(
            "/home/op/src/api-retries/docs/maestro/state/archive/old-session.md",
            "file is larger than 1 MiB (3.2 MiB)",
        ),
        Problem::new(
            "/home/op/.agent-orchestrator/projects/shop/sessions/ao-9.json",
            "binary data: not a session file",
        ),
    ]
}

#[test]
fn problems_overlay() {
    snap("problems", |s| {
        s.list.problems = problems();
        s.mode = Mode::Overlay(Overlay::Problems);
    });
}

/// What a Claude Code pane looks like through `capture-pane -p -e`.
const CAPTURE: &str = concat!(
    "\x1b[1m> \x1b[0mRun the test suite and fix what fails\n",
    "\n",
    "\x1b[32m●\x1b[0m \x1b[1mBash\x1b[0m(cargo test --workspace)\n",
    "  ⎿  test result: \x1b[32mok\x1b[0m. 142 passed; 0 failed\n",
    "\x1b[32m●\x1b[0m All 142 tests pass. The retry budget now resets per request.\n",
    "\n",
    "\x1b[38;5;244m╭──────────────────────────────────────────╮\x1b[0m\n",
    "\x1b[38;5;244m│\x1b[0m > \x1b[7m \x1b[0m                                      \x1b[38;5;244m│\x1b[0m\n",
    "\x1b[38;5;244m╰──────────────────────────────────────────╯\x1b[0m\n",
    "  \x1b[2m? for shortcuts\x1b[0m\n",
    "\n",
    "\n",
);

#[test]
fn preview_tab() {
    snap("preview", |s| {
        s.detail.tab = DetailTab::Preview;
        s.detail.preview = Some(Preview {
            id: RowKey::here("id-api-retries"),
            text: CAPTURE.into(),
        });
    });
}

/// An exited session: its dead pane's last lines (tmux keeps the pane),
/// under a line that says what they are and how to restore it.
#[test]
fn preview_of_an_exited_session_shows_its_last_lines() {
    snap("preview_exited", |s| {
        let row = s
            .list
            .rows
            .iter_mut()
            .find(|r| r.id == "id-api-retries")
            .unwrap();
        row.status = Status::Exited;
        s.detail.tab = DetailTab::Preview;
        s.detail.preview = Some(Preview {
            id: RowKey::here("id-api-retries"),
            text: "$ cargo test\nerror: 3 tests failed\n\nPane is dead (status 101)\n".into(),
        });
    });
}

/// The other kinds of rows, at a medium size (side by side, 100x30).
#[test]
fn other_rows_at_medium_size() {
    let cases = [
        ("dormant_overview", "id-billing-v2", DetailTab::Overview),
        (
            "maestro_row_orchestration",
            "release-q2",
            DetailTab::Orchestration,
        ),
        ("ao_row_overview", "id-ao-7", DetailTab::Overview),
        ("stuck_overview", "id-migrate-db", DetailTab::Overview),
        ("no_orchestration", "id-web-auth", DetailTab::Orchestration),
    ];
    for (name, id, tab) in cases {
        let mut s = state(100, 30, id);
        s.detail.tab = tab;
        let t = draw(&s, 100, 30);
        insta::assert_snapshot!(format!("{name}_100x30"), t.backend());
    }
}

#[test]
fn preview_of_a_dormant_session_says_why() {
    let mut s = state(60, 20, "id-billing-v2");
    s.detail.tab = DetailTab::Preview;
    let t = screen(&draw(&s, 60, 20));
    assert!(t.contains("session is dormant: restore it with r"), "{t}");
    pick(&mut s, "id-ui-polish");
    let t = screen(&draw(&s, 60, 20));
    assert!(t.contains("waiting for the pane…"), "{t}");
}

#[test]
fn empty_state() {
    for (w, h) in SIZES {
        let mut s = AppState::new(
            now(),
            vec![
                "/home/op/.local/state/greenroom/sessions".into(),
                "/home/op/src/api/docs/maestro".into(),
                "/home/op/.agent-orchestrator".into(),
            ],
        );
        s.link.tmux = TmuxStatus::NoServer;
        s.list.problems = problems()[..1].to_vec();
        s.refresh_visible();
        let t = draw(&s, w, h);
        insta::assert_snapshot!(format!("empty_{w}x{h}"), t.backend());
    }
}

#[test]
fn tiny_terminal() {
    let s = state(40, 10, "id-api-retries");
    let t = draw(&s, 40, 10);
    let text = screen(&t);
    assert!(text.contains("greenroom"), "{text}");
    assert!(text.contains("api-retries"), "{text}");
    insta::assert_snapshot!("main_40x10", t.backend());
}

#[test]
fn no_size_panics() {
    let overlays = [
        Mode::Normal,
        Mode::Overlay(Overlay::Help),
        Mode::Overlay(Overlay::Problems),
    ];
    let tabs = DetailTab::ALL;
    for (w, h) in [
        (0, 0),
        (1, 1),
        (2, 3),
        (10, 4),
        (24, 6),
        (40, 10),
        (69, 13),
        (70, 14),
        (200, 60),
    ] {
        for overlay in &overlays {
            for tab in tabs {
                let mut s = state(w, h, "id-api-retries");
                s.mode = overlay.clone();
                s.detail.tab = tab;
                s.list.problems = problems();
                s.detail.preview = Some(Preview {
                    id: RowKey::here("id-api-retries"),
                    text: CAPTURE.into(),
                });
                draw(&s, w, h);
                let mut empty = AppState::new(now(), vec!["/x".into()]);
                empty.mode = overlay.clone();
                draw(&empty, w, h);
                for theme in [Theme::dark(), Theme::light()] {
                    draw_with(&s, w, h, &theme);
                }
            }
        }
    }
}

#[test]
fn selection_scrolls_into_view_and_counts_show() {
    let mut s = state(160, 12, "release-q2");
    s.nav.page = usize::from(sidebar_list_area(Rect::new(0, 0, 160, 12)).height);
    s.clamp_offset();
    let t = screen(&draw(&s, 160, 12));
    assert!(t.contains("10/10"), "{t}");
    assert!(t.contains("›✓ release-q2"), "{t}");
}

#[test]
fn errored_rows_are_red_in_the_dark_theme() {
    let s = state(160, 48, "id-ui-polish");
    let t = draw_with(&s, 160, 48, &Theme::dark());
    let buf = t.backend().buffer();
    let list = sidebar_list_area(Rect::new(0, 0, 160, 48));
    // Last-focus order: ui-polish, api-retries, migrate-db, web-auth, ...
    let row = (0..list.height)
        .map(|dy| list.y + dy)
        .find(|&y| {
            (list.x..list.right())
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
                .contains("web-auth")
        })
        .unwrap();
    let glyph = &buf[(list.x + 1, row)];
    assert_eq!(glyph.symbol(), "✖");
    assert_eq!(glyph.fg, Color::LightRed);
}

#[test]
fn themes_come_from_the_environment() {
    assert_eq!(Theme::from_env(Some("1"), Some("light")), Theme::no_color());
    assert_eq!(Theme::from_env(Some(""), Some("light")), Theme::light());
    assert_eq!(Theme::from_env(None, Some("dark")), Theme::dark());
    assert_eq!(Theme::from_env(None, None), Theme::dark());
    assert_eq!(Theme::from_env(None, Some("solarized")), Theme::dark());
}

#[test]
fn health_glyphs_are_distinct_and_one_cell_wide() {
    let glyphs: Vec<&str> = Health::ALL.iter().map(|h| h.glyph()).collect();
    let mut unique = glyphs.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), glyphs.len());
    for g in glyphs {
        assert_eq!(ratatui::text::Span::raw(g).width(), 1, "{g}");
    }
}

#[test]
fn help_second_page_lists_the_filter_and_dialog_keys() {
    snap("help_dialogs", |s| {
        s.mode = Mode::Overlay(Overlay::Help);
        s.nav.help_page = 1;
    });
}

#[test]
fn dialogs_hint_their_own_layer_of_the_keymap() {
    use greenroom::tui::reduce::dialog::{Bulk, Dialog};
    snap("confirm_kill", |s| {
        s.mode = Mode::Dialog(Dialog::Confirm {
            action: Bulk::Kill,
            ids: vec![RowKey::here("id-api-retries")],
            names: vec!["api-retries".into()],
            panes_only: false,
        });
    });
    // Two sessions: the note speaks of both.
    snap("confirm_kill_two", |s| {
        s.mode = Mode::Dialog(Dialog::Confirm {
            action: Bulk::Kill,
            ids: vec![RowKey::here("id-api-retries"), RowKey::here("id-docs")],
            names: vec!["api-retries".into(), "docs".into()],
            panes_only: false,
        });
    });
    snap("send_dialog", |s| {
        s.mode = Mode::Dialog(Dialog::Send {
            id: RowKey::here("id-api-retries"),
            name: "api-retries".into(),
            text: "run the tests again".into(),
        });
    });
}

#[test]
fn an_agent_greenroom_did_not_start() {
    snap("adopted_overview", |s| {
        let mut row = s.list.rows[0].clone();
        row.id = "%7".into();
        row.name = "gemini@work".into();
        row.source = Source::Tmux;
        row.agent = Some("gemini".into());
        row.tmux_session = Some("work".into());
        row.agent_session_id = None;
        row.orchestration = None;
        row.branch = None;
        row.adopted = Some(greenroom::model::Adopted {
            pane: greenroom::tmux::PaneId::parse("%7").unwrap(),
            hooks: false,
            record: None,
        });
        row.health = Health::Idle;
        row.activity.state = Activity::Idle;
        row.activity.detail = Some(greenroom::model::without_hooks("claude"));
        s.list.rows.insert(0, row);
        s.refresh_visible();
        s.nav.selected = Some(RowKey::here("%7"));
    });
}
