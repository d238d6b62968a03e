//! Agent Orchestrator's lifecycle as AO spells it: every state reaches the
//! row (status word, branch, issue, PR link, summary), decides the health
//! where AO judged the session itself, and shows in the sidebar and the
//! detail pane. AO's own archive takes the row off the live list.

use crate::support;
use greenroom::model::RowKey;

use chrono::{TimeZone, Utc};
use greenroom::catalog::Catalog;
use greenroom::model::{Health, Session, Source};
use greenroom::tui::keymap::Keymap;
use greenroom::tui::model::state::{AppState, TmuxStatus};
use greenroom::tui::view::{Theme, render, sidebar_list_area};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use support::World;

const SESSION: &str = "ao/0123456789ab-my-app/sessions/ma-1";

fn write(world: &World, status: &str) {
    let text = format!(
        "worktree=/tmp/w/ma-1\nbranch=feat/INT-7\nstatus={status}\ntmuxName=0123456789ab-ma-1\n\
         issue=INT-7\npr=https://github.com/o/my-app/pull/42\nsummary=Add the export API\n\
         project=my-app\nagent=claude-code\ncreatedAt=2026-12-01T09:00:00.000Z\n"
    );
    let path = world.path(SESSION);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn row(world: &World) -> Session {
    let catalog = Catalog::load(&world.config(None, &[]), false);
    let rows = catalog.rows(Utc::now());
    assert_eq!(rows.len(), 1, "{rows:#?}");
    rows.into_iter().next().unwrap()
}

#[test]
fn every_state_ao_spells_is_shown_and_decides_health_where_ao_judged() {
    let world = World::new();
    // Without tmux answering, states AO did not judge keep the recorded life.
    let cases = [
        ("spawning", None),
        ("working", None),
        ("pr_open", None),
        ("ci_failed", Some(Health::Errored)),
        ("review_pending", None),
        ("changes_requested", None),
        ("approved", None),
        ("mergeable", None),
        ("merged", Some(Health::Done)),
        ("needs_input", Some(Health::Waiting)),
        ("stuck", Some(Health::Stuck)),
        ("errored", Some(Health::Errored)),
        ("killed", Some(Health::Killed)),
        ("done", Some(Health::Done)),
        ("terminated", Some(Health::Killed)),
        ("cleanup", None),
    ];
    for (status, health) in cases {
        write(&world, status);
        let r = row(&world);
        assert_eq!(r.source, Source::AgentOrchestrator);
        let ao = r.agent_orchestrator.as_ref().unwrap();
        assert_eq!(ao.status.as_deref(), Some(status));
        assert_eq!(
            ao.pr.as_deref(),
            Some("https://github.com/o/my-app/pull/42")
        );
        assert_eq!(ao.issue.as_deref(), Some("INT-7"));
        assert_eq!(ao.summary.as_deref(), Some("Add the export API"));
        assert_eq!(r.branch.as_deref(), Some("feat/INT-7"));
        if let Some(h) = health {
            assert_eq!(r.health, h, "{status}");
        }
        let doc: serde_json::Value = serde_json::from_str(
            &greenroom::cli::ls::to_json(std::slice::from_ref(&r), &[]).unwrap(),
        )
        .unwrap();
        let s = &doc["sessions"][0];
        assert_eq!(s["agent_orchestrator"]["status"], status);
        assert_eq!(
            s["agent_orchestrator"]["pr"],
            "https://github.com/o/my-app/pull/42"
        );
        assert_eq!(s["branch"], "feat/INT-7");
        assert_eq!(s["health"], r.health.as_str());
    }
}

#[test]
fn the_v2_lifecycle_form_gives_state_reason_and_pr_link() {
    let world = World::new();
    let path = world.path("ao/projects/app/sessions/app-9.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        &path,
        r#"{"project":"app","branch":"b","issue":"7","lifecycle":{"version":2,
            "session":{"kind":"worker","state":"ci_failed","reason":"checks_failed"},
            "pr":{"state":"open","url":"https://github.com/o/app/pull/9","number":9},
            "runtime":{"state":"alive"}}}"#,
    )
    .unwrap();
    let r = row(&world);
    let ao = r.agent_orchestrator.unwrap();
    assert_eq!(ao.status.as_deref(), Some("ci_failed"));
    assert_eq!(ao.reason.as_deref(), Some("checks_failed"));
    assert_eq!(ao.pr.as_deref(), Some("https://github.com/o/app/pull/9"));
    assert_eq!(r.health, Health::Errored);
    // The legacy form carries the same lifecycle as JSON text; with no
    // stored `status` beside it, AO's word comes from the lifecycle.
    let legacy = world.path("ao/0123456789ab-app/sessions/app-3");
    std::fs::create_dir_all(legacy.parent().unwrap()).unwrap();
    std::fs::write(
        &legacy,
        "statePayload={\"version\":2,\"session\":{\"state\":\"stuck\",\"reason\":\"no_activity\"}}\n",
    )
    .unwrap();
    let catalog = Catalog::load(&world.config(None, &[]), false);
    let rows = catalog.rows(Utc::now());
    let stuck = rows.iter().find(|r| r.name == "app-3").unwrap();
    assert_eq!(stuck.health, Health::Stuck);
    let ao = stuck.agent_orchestrator.as_ref().unwrap();
    assert_eq!(
        (ao.status.as_deref(), ao.reason.as_deref()),
        (Some("stuck"), Some("no_activity"))
    );
}

#[test]
fn the_sidebar_and_the_detail_pane_say_what_ao_says() {
    let world = World::new();
    write(&world, "pr_open");
    let r = row(&world);
    let (w, h) = (120, 30);
    let mut s = AppState::new(
        Utc.with_ymd_and_hms(2026, 12, 1, 10, 0, 0).unwrap(),
        Vec::new(),
    );
    s.list.rows = vec![r.clone()];
    s.link.tmux = TmuxStatus::Running;
    s.nav.page = usize::from(sidebar_list_area(Rect::new(0, 0, w, h)).height);
    s.refresh_visible();
    s.nav.selected = Some(RowKey::here(r.id.clone()));
    s.clamp_offset();
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal
        .draw(|f| render(f, &s, &Keymap::default(), &Theme::no_color()))
        .unwrap();
    let screen = terminal.backend().to_string();
    assert!(screen.contains("pr_open · Add t"), "sidebar:\n{screen}");
    assert!(
        screen.contains("https://github.com/o/my-app/pull/42"),
        "detail:\n{screen}"
    );
    assert!(screen.contains("INT-7"), "detail:\n{screen}");
    assert!(screen.contains("feat/INT-7"), "detail:\n{screen}");
}

#[test]
fn ao_archiving_a_session_takes_it_off_the_live_list() {
    let world = World::new();
    write(&world, "merged");
    assert_eq!(row(&world).health, Health::Done);
    // What AO's deleteMetadata does: copy into sessions/archive, then unlink.
    let path = world.path(SESSION);
    let archive = path.parent().unwrap().join("archive");
    std::fs::create_dir_all(&archive).unwrap();
    std::fs::copy(&path, archive.join("ma-1_2026-12-01T10-00-00-000Z")).unwrap();
    std::fs::remove_file(&path).unwrap();
    let live = Catalog::load(&world.config(None, &[]), false);
    assert!(live.rows(Utc::now()).is_empty());
    assert!(live.problems().is_empty(), "{:?}", live.problems());
    let all = Catalog::load(&world.config(None, &[]), true);
    let rows = all.rows(Utc::now());
    assert_eq!(rows.len(), 1);
    assert!(rows[0].archived);
    assert_eq!(rows[0].name, "ma-1");
}
