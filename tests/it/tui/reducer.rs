//! The dashboard's reducer and keymap, without a terminal: actions in,
//! state and effects out.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use crate::support::key_in;
use greenroom::model::RowKey;
use greenroom::tui::action::UiEffect;
use greenroom::tui::reduce::op::Verb;
use std::collections::BTreeMap;

use chrono::{DateTime, Duration, TimeZone, Utc};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use greenroom::model::{Health, Session, Status};
use greenroom::tmux::Beside;
use greenroom::tui::action::{Action, Command, Completion, Effect};
use greenroom::tui::keymap::{BINDINGS, Key, Keymap};
use greenroom::tui::model::state::{AppState, BesidePane, DetailTab, Mode, Overlay, SortMode};
use greenroom::tui::reduce::dialog::{Dialog, SpawnForm};
use greenroom::tui::reduce::update::update;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).unwrap()
}

fn session(name: &str, health: Health, focused_min_ago: Option<i64>) -> Session {
    crate::support::session::session(name)
        .health(health)
        .created(Some(now() - Duration::hours(1)))
        .focused(focused_min_ago.map(|m| now() - Duration::minutes(m)))
        .branch(&format!("feat/{name}"))
        .build()
}

fn rows() -> Vec<Session> {
    vec![
        session("alpha", Health::Idle, Some(1)),
        session("bravo", Health::Errored, Some(5)),
        session("charlie", Health::Active, Some(10)),
        session("delta", Health::Waiting, None),
    ]
}

fn loaded() -> AppState {
    let mut s = AppState::new(now(), vec![]);
    update(
        &mut s,
        Action::Rows {
            rows: rows(),
            problems: vec![],
        },
    );
    s
}

fn names(s: &AppState) -> Vec<String> {
    s.list.visible_sessions().map(|r| r.name.clone()).collect()
}

fn cmd(s: &mut AppState, c: Command) -> Vec<Effect> {
    update(s, Action::Command(c))
}

#[test]
fn the_first_row_is_selected_and_moves_are_clamped() {
    let mut s = loaded();
    assert_eq!(names(&s), ["alpha", "bravo", "charlie", "delta"]);
    assert_eq!(
        s.nav.selected.as_ref().map(|k| k.id.as_str()),
        Some("id-alpha")
    );
    cmd(&mut s, Command::Up);
    assert_eq!(s.cursor(), Some(0));
    cmd(&mut s, Command::Down);
    cmd(&mut s, Command::Down);
    assert_eq!(
        s.nav.selected.as_ref().map(|k| k.id.as_str()),
        Some("id-charlie")
    );
    cmd(&mut s, Command::Bottom);
    assert_eq!(s.cursor(), Some(3));
    cmd(&mut s, Command::Down);
    assert_eq!(s.cursor(), Some(3));
    cmd(&mut s, Command::Top);
    assert_eq!(s.cursor(), Some(0));
    update(
        &mut s,
        Action::Resize {
            width: 80,
            height: 8,
        },
    );
    let page =
        greenroom::tui::view::sidebar_list_area(ratatui::layout::Rect::new(0, 0, 80, 8)).height;
    assert_eq!(
        s.nav.page,
        usize::from(page),
        "a page is what the sidebar shows"
    );
    cmd(&mut s, Command::PageDown);
    assert_eq!(s.cursor(), Some(s.nav.page.min(3)));
}

#[test]
fn selection_follows_the_session_when_rows_reorder() {
    let mut s = loaded();
    cmd(&mut s, Command::Down); // bravo
    let mut reordered = rows();
    reordered.reverse();
    reordered[0].last_focused_at = Some(now()); // delta focused just now
    update(
        &mut s,
        Action::Rows {
            rows: reordered,
            problems: vec![],
        },
    );
    assert_eq!(names(&s)[0], "delta");
    assert_eq!(
        s.nav.selected.as_ref().map(|k| k.id.as_str()),
        Some("id-bravo")
    );
}

#[test]
fn when_the_selected_session_disappears_the_line_stays() {
    let mut s = loaded();
    cmd(&mut s, Command::Down); // bravo, line 1
    let without: Vec<_> = rows().into_iter().filter(|r| r.name != "bravo").collect();
    update(
        &mut s,
        Action::Rows {
            rows: without,
            problems: vec![],
        },
    );
    assert_eq!(s.cursor(), Some(1));
    assert_eq!(
        s.nav.selected.as_ref().map(|k| k.id.as_str()),
        Some("id-charlie")
    );
}

#[test]
fn triage_puts_the_most_urgent_first() {
    let mut s = loaded();
    cmd(&mut s, Command::ToggleTriage);
    assert_eq!(s.nav.sort, SortMode::Triage);
    assert_eq!(names(&s), ["bravo", "delta", "charlie", "alpha"]);
    assert!(s.status.as_ref().unwrap().text.contains("triage"));
    cmd(&mut s, Command::ToggleTriage);
    assert_eq!(names(&s), ["alpha", "bravo", "charlie", "delta"]);
}

#[test]
fn the_filter_matches_name_folder_branch_and_clears_on_escape() {
    let mut s = loaded();
    cmd(&mut s, Command::Filter);
    assert_eq!(s.mode, Mode::Filter);
    for c in "feat/ch".chars() {
        key_in(&mut s, KeyCode::Char(c));
    }
    assert_eq!(names(&s), ["charlie"]);
    assert_eq!(
        s.nav.selected.as_ref().map(|k| k.id.as_str()),
        Some("id-charlie")
    );
    key_in(&mut s, KeyCode::Backspace);
    key_in(&mut s, KeyCode::Backspace);
    assert_eq!(names(&s).len(), 4);
    key_in(&mut s, KeyCode::Char('d'));
    key_in(&mut s, KeyCode::Enter);
    assert_eq!(s.mode, Mode::Normal);
    assert_eq!(names(&s), ["delta"]);
    // Keys are commands again once the filter is set.
    cmd(&mut s, Command::Filter);
    key_in(&mut s, KeyCode::Esc);
    assert_eq!(s.nav.filter, "");
    assert_eq!(names(&s).len(), 4);
}

#[test]
fn the_health_filter_cycles_through_the_classes_shown_and_back() {
    let mut s = loaded();
    let mut held: Vec<Health> = s.list.rows.iter().map(|r| r.health).collect();
    held.sort();
    held.dedup();
    assert!(
        held.len() >= 2 && held.len() < Health::ALL.len(),
        "{held:?}"
    );
    cmd(&mut s, Command::CycleHealthFilter);
    assert_eq!(s.nav.health_filter, Some(Health::Errored));
    assert_eq!(names(&s), ["bravo"]);
    cmd(&mut s, Command::CycleHealthFilter);
    assert_eq!(names(&s), ["delta"]);
    // Only classes some row has: a filter never shows an empty list.
    let mut seen = vec![Health::Errored, s.nav.health_filter.unwrap()];
    while let Some(h) = {
        cmd(&mut s, Command::CycleHealthFilter);
        s.nav.health_filter
    } {
        assert!(!names(&s).is_empty(), "{h:?} shows nothing");
        seen.push(h);
    }
    assert_eq!(seen, held);
    assert_eq!(names(&s).len(), 4);
}

fn old_id() -> String {
    "0b1c2d3e-aaaa-4bbb-8ccc-123456789abc".into()
}

#[test]
fn archived_sessions_show_under_a_toggle_and_never_count_or_alert() {
    let mut s = loaded();
    let mut next = rows();
    let mut old = session("echo", Health::Errored, Some(2));
    old.id = old_id();
    old.status = Status::Archived;
    old.archived = true;
    next.push(old);
    let effects = update(
        &mut s,
        Action::Rows {
            rows: next,
            problems: vec![],
        },
    );
    assert!(
        effects
            .iter()
            .all(|e| !matches!(e, Effect::Ui(UiEffect::Notify(_)))),
        "{effects:?}"
    );
    assert!(!s.triage.attention.contains(&RowKey::here(old_id())));
    assert_eq!(names(&s), ["alpha", "bravo", "charlie", "delta"]);
    assert_eq!(
        s.list.counts().get(&Health::Errored),
        Some(&1),
        "bravo only"
    );
    cmd(&mut s, Command::ToggleArchived);
    assert_eq!(names(&s), ["alpha", "echo", "bravo", "charlie", "delta"]);
    assert_eq!(
        s.status.as_ref().map(|l| l.text.as_str()),
        Some("showing 1 archived session(s); r restores one, A hides them")
    );
    // Restore is offered on an archived row; kill and dismiss say why not.
    s.nav.selected = Some(RowKey::here(old_id()));
    assert!(cmd(&mut s, Command::Restore) == [crate::support::here(Verb::Restore, &[&old_id()])]);
    cmd(&mut s, Command::ToggleArchived);
    assert_eq!(names(&s), ["alpha", "bravo", "charlie", "delta"]);
    let binding = BINDINGS
        .iter()
        .find(|b| b.command == Command::ToggleArchived)
        .unwrap();
    assert_eq!(binding.defaults, ["A"]);
}

#[test]
fn a_session_that_turns_waiting_is_marked_and_alerts_until_looked_at() {
    let mut s = loaded();
    assert!(
        s.triage.attention.is_empty(),
        "the first load raises no alarms"
    );
    let mut next = rows();
    next[2].health = Health::Waiting; // charlie
    let effects = update(
        &mut s,
        Action::Rows {
            rows: next.clone(),
            problems: vec![],
        },
    );
    assert!(s.triage.attention.contains(&RowKey::here("id-charlie")));
    assert!(
        matches!(&effects[..], [Effect::Ui(UiEffect::Notify(n))] if n.title.contains("charlie is waiting"))
    );
    // Same state again: no second alert.
    assert!(
        update(
            &mut s,
            Action::Rows {
                rows: next,
                problems: vec![]
            }
        )
        .is_empty()
    );
    cmd(&mut s, Command::Down);
    cmd(&mut s, Command::Down);
    assert_eq!(
        s.nav.selected.as_ref().map(|k| k.id.as_str()),
        Some("id-charlie")
    );
    assert!(
        s.triage.attention.is_empty(),
        "looking at it clears the mark"
    );
}

#[test]
fn alerts_can_be_turned_off_but_the_mark_stays() {
    let mut s = loaded();
    s.settings.alerts = false;
    let mut next = rows();
    next[0].health = Health::Stuck;
    next[0].id = "id-alpha".into();
    cmd(&mut s, Command::Down); // away from alpha
    let effects = update(
        &mut s,
        Action::Rows {
            rows: next,
            problems: vec![],
        },
    );
    assert!(
        effects
            .iter()
            .all(|e| !matches!(e, Effect::Ui(UiEffect::Notify(_))))
    );
    assert!(s.triage.attention.contains(&RowKey::here("id-alpha")));
}

#[test]
fn overlays_take_keys_and_close() {
    let mut s = loaded();
    cmd(&mut s, Command::Help);
    assert_eq!(s.overlay(), Some(Overlay::Help));
    cmd(&mut s, Command::Down);
    assert_eq!(s.cursor(), Some(0), "keys do not leak under the overlay");
    assert!(cmd(&mut s, Command::Quit).is_empty(), "q closes help first");
    assert_eq!(s.overlay(), None);
    cmd(&mut s, Command::ShowProblems);
    assert_eq!(s.overlay(), Some(Overlay::Problems));
    cmd(&mut s, Command::ShowProblems);
    assert_eq!(s.overlay(), None);
    assert_eq!(cmd(&mut s, Command::Quit), vec![Effect::Ui(UiEffect::Quit)]);
}

#[test]
fn status_lines_expire() {
    let mut s = loaded();
    update(&mut s, Action::Status("done".into()));
    update(&mut s, Action::Tick(now() + Duration::seconds(3)));
    assert!(s.status.is_some());
    update(&mut s, Action::Tick(now() + Duration::seconds(60)));
    assert!(s.status.is_none());
}

fn key(s: &mut AppState, k: KeyCode) -> Vec<Effect> {
    crate::support::key_in(s, k)
}

#[test]
fn kill_and_dismiss_ask_first_and_apply_to_marked_rows() {
    let mut s = loaded();
    cmd(&mut s, Command::Kill);
    assert!(matches!(s.dialog(), Some(Dialog::Confirm { names, .. }) if names == &["alpha"]));
    // Keys go to the dialog, not to the sidebar.
    assert!(cmd(&mut s, Command::Down).is_empty());
    assert!(key(&mut s, KeyCode::Char('j')).is_empty());
    assert_eq!(s.cursor(), Some(0));
    key(&mut s, KeyCode::Char('n'));
    assert!(s.dialog().is_none(), "n cancels");
    cmd(&mut s, Command::Kill);
    assert!(key(&mut s, KeyCode::Enter).is_empty(), "Enter is not a yes");
    assert!(s.dialog().is_none());

    cmd(&mut s, Command::Mark); // alpha, moves to bravo
    cmd(&mut s, Command::Mark); // bravo
    assert_eq!(s.nav.marked.len(), 2);
    cmd(&mut s, Command::Dismiss);
    assert!(s.dialog().is_none(), "live sessions cannot be dismissed");
    assert!(s.status.is_some(), "the refusal is said");
    cmd(&mut s, Command::Kill);
    let effects = key(&mut s, KeyCode::Char('y'));
    assert_eq!(
        effects,
        vec![crate::support::here(Verb::Kill, &["id-alpha", "id-bravo"])]
    );
    assert!(s.nav.marked.is_empty(), "marks are spent by the action");
}

#[test]
fn send_types_a_line_and_refuses_a_stopped_session() {
    let mut s = loaded();
    cmd(&mut s, Command::Send);
    for c in "yes, go $(on)".chars() {
        key(&mut s, KeyCode::Char(c));
    }
    key(&mut s, KeyCode::Backspace);
    let effects = key(&mut s, KeyCode::Enter);
    assert_eq!(
        effects,
        vec![crate::support::here(
            Verb::Send("yes, go $(on".into()),
            &["id-alpha"]
        )]
    );
    assert!(s.dialog().is_none());

    let mut stopped = rows();
    let uid = uuid::Uuid::new_v4().to_string();
    stopped[0].status = Status::Dormant;
    stopped[0].id = uid.clone();
    update(
        &mut s,
        Action::Rows {
            rows: stopped,
            problems: vec![],
        },
    );
    assert_eq!(
        s.nav.selected.as_ref().map(|k| k.id.as_str()),
        Some(uid.as_str())
    );
    cmd(&mut s, Command::Send);
    assert!(s.dialog().is_none());
    assert!(s.status.as_ref().unwrap().text.contains("not running"));
    assert!(cmd(&mut s, Command::Attach).is_empty());
    assert_eq!(
        cmd(&mut s, Command::Restore),
        vec![crate::support::here(Verb::Restore, &[&uid])]
    );
    // Kill needs a live session; dismiss a stopped one of greenroom's own.
    cmd(&mut s, Command::Kill);
    assert!(s.dialog().is_none());
    cmd(&mut s, Command::Dismiss);
    assert!(
        matches!(s.dialog(), Some(Dialog::Confirm { ids, .. }) if ids == &[RowKey::here(uid.clone())])
    );
}

#[test]
fn the_new_session_form_edits_fields_and_submits() {
    let mut s = loaded();
    assert_eq!(
        cmd(&mut s, Command::New),
        vec![Effect::Ui(UiEffect::OpenSpawnForm)]
    );
    let form = SpawnForm::new(
        "agent-3".into(),
        "/work".into(),
        vec!["claude".into(), "shell".into()],
    );
    s.mode = Mode::Dialog(Dialog::Spawn(form));
    key(&mut s, KeyCode::Backspace);
    key(&mut s, KeyCode::Char('9'));
    key(&mut s, KeyCode::Down); // folder
    let completion = key(&mut s, KeyCode::Tab);
    assert_eq!(
        completion,
        vec![Effect::Ui(UiEffect::CompletePath {
            text: "/work".into()
        })]
    );
    update(
        &mut s,
        Action::PathCompleted(Completion {
            text: Some("/work/".into()),
            candidates: vec![],
        }),
    );
    key(&mut s, KeyCode::Char('x'));
    key(&mut s, KeyCode::Down); // agent
    key(&mut s, KeyCode::Right);
    key(&mut s, KeyCode::Down);
    key(&mut s, KeyCode::Down); // prompt
    key(&mut s, KeyCode::Char('h'));
    let effects = key(&mut s, KeyCode::Enter);
    assert_eq!(
        effects,
        vec![Effect::Spawn(greenroom::tui::action::NewSession {
            name: "agent-9".into(),
            cwd: "/work/x".into(),
            agent: Some("shell".into()),
            worktree: None,
            prompt: Some("h".into()),
        })]
    );
    update(
        &mut s,
        Action::Spawned(Err("a session named agent-9 already exists".into())),
    );
    assert!(
        matches!(s.dialog(), Some(Dialog::Spawn(f)) if f.error.as_deref() == Some("a session named agent-9 already exists") && !f.busy)
    );
    key(&mut s, KeyCode::Enter);
    update(&mut s, Action::Spawned(Ok("id-new".into())));
    assert!(s.dialog().is_none());
    let mut more = rows();
    more.push(session("new", Health::Idle, None));
    update(
        &mut s,
        Action::Rows {
            rows: more,
            problems: vec![],
        },
    );
    assert_eq!(
        s.nav.selected.as_ref().map(|k| k.id.as_str()),
        Some("id-new"),
        "the new session is selected when it shows up"
    );
}

pub fn pane() -> Beside {
    Beside {
        pane_id: "%7".into(),
        tty: "/dev/pts/7".into(),
    }
}

#[test]
fn follow_mode_moves_the_pane_beside_with_the_selection() {
    let mut s = loaded();
    assert_eq!(
        cmd(&mut s, Command::OpenBeside),
        vec![crate::support::here(Verb::OpenBeside, &["id-alpha"])]
    );
    update(&mut s, Action::BesideOpened(Ok(pane())));
    assert_eq!(
        cmd(&mut s, Command::Down),
        vec![crate::support::here(Verb::Follow(pane()), &["id-bravo"])]
    );
    update(&mut s, Action::BesideClosed);
    assert_eq!(s.link.beside, BesidePane::Closed);
    assert!(cmd(&mut s, Command::Down).is_empty());
}

#[test]
fn the_preview_is_requested_only_when_shown_and_live() {
    let mut s = loaded();
    assert!(
        cmd(&mut s, Command::Down).is_empty(),
        "overview tab: no capture"
    );
    let effects = cmd(&mut s, Command::TogglePreview);
    assert_eq!(s.detail.tab, DetailTab::Preview);
    assert_eq!(
        effects,
        vec![crate::support::here(Verb::Capture, &["id-bravo"])]
    );
    update(
        &mut s,
        Action::Preview {
            id: RowKey::here("id-bravo"),
            text: "hello".into(),
        },
    );
    assert_eq!(s.detail.preview.as_ref().unwrap().text, "hello");
    // A late capture for another session is dropped.
    update(
        &mut s,
        Action::Preview {
            id: RowKey::here("id-alpha"),
            text: "stale".into(),
        },
    );
    assert_eq!(s.detail.preview.as_ref().unwrap().text, "hello");
    let mut dormant = rows();
    dormant[2].status = Status::Dormant;
    update(
        &mut s,
        Action::Rows {
            rows: dormant,
            problems: vec![],
        },
    );
    assert!(
        cmd(&mut s, Command::Down).is_empty(),
        "a dormant session has no pane"
    );
    // An exited session's dead pane is kept: its last lines are shown.
    let mut exited = rows();
    exited[3].status = Status::Exited;
    update(
        &mut s,
        Action::Rows {
            rows: exited,
            problems: vec![],
        },
    );
    assert_eq!(
        cmd(&mut s, Command::Down),
        vec![crate::support::here(Verb::Capture, &["id-delta"])]
    );
}

#[test]
fn clicks_select_the_row_under_the_mouse_and_the_wheel_scrolls() {
    let mut s = loaded();
    update(&mut s, Action::ClickRow(2));
    assert_eq!(
        s.nav.selected.as_ref().map(|k| k.id.as_str()),
        Some("id-charlie")
    );
    update(&mut s, Action::ClickRow(40));
    assert_eq!(
        s.nav.selected.as_ref().map(|k| k.id.as_str()),
        Some("id-charlie")
    );
    update(&mut s, Action::ScrollUp);
    assert_eq!(s.cursor(), Some(0));
    update(&mut s, Action::ScrollDown);
    assert_eq!(s.cursor(), Some(3));
}

#[test]
fn keys_parse_and_map_to_commands() {
    let km = Keymap::default();
    let key = |code, mods| Key::from_event(&KeyEvent::new(code, mods));
    assert_eq!(
        km.lookup(key(KeyCode::Char('j'), KeyModifiers::NONE)),
        Some(Command::Down)
    );
    assert_eq!(
        km.lookup(key(KeyCode::Down, KeyModifiers::NONE)),
        Some(Command::Down)
    );
    assert_eq!(
        km.lookup(key(KeyCode::Char('G'), KeyModifiers::SHIFT)),
        Some(Command::Bottom)
    );
    assert_eq!(
        km.lookup(key(KeyCode::Char('c'), KeyModifiers::CONTROL)),
        Some(Command::Quit)
    );
    assert_eq!(
        km.lookup(key(KeyCode::Char('c'), KeyModifiers::NONE)),
        Some(Command::Review)
    );
    assert_eq!(
        km.lookup(key(KeyCode::Enter, KeyModifiers::NONE)),
        Some(Command::Attach)
    );
    assert_eq!(
        km.lookup(key(KeyCode::Char('D'), KeyModifiers::SHIFT)),
        Some(Command::Dismiss)
    );
    assert_eq!(km.label(Command::Down), "j/↓");
    assert_eq!(
        Key::parse("ctrl-d").unwrap(),
        Key {
            code: KeyCode::Char('d'),
            ctrl: true,
            alt: false
        }
    );
    assert_eq!(Key::parse("F5").unwrap().code, KeyCode::F(5));
    assert!(Key::parse("nonsense").is_err());
}

#[test]
fn keys_can_be_rebound_and_mistakes_are_named() {
    let mut over = BTreeMap::new();
    over.insert("attach".to_owned(), vec!["a".to_owned()]);
    let km = Keymap::new(&over).unwrap();
    assert_eq!(km.lookup(Key::parse("a").unwrap()), Some(Command::Attach));
    assert_eq!(km.lookup(Key::parse("enter").unwrap()), None);
    assert_eq!(km.lookup(Key::parse("j").unwrap()), Some(Command::Down));
    let mut bad = BTreeMap::new();
    bad.insert("atach".to_owned(), vec!["a".to_owned()]);
    assert!(Keymap::new(&bad).unwrap_err().contains("atach"));
    let mut bad_key = BTreeMap::new();
    bad_key.insert("quit".to_owned(), vec!["hyper-q".to_owned()]);
    assert!(Keymap::new(&bad_key).unwrap_err().contains("hyper-q"));
}

#[test]
fn every_binding_is_described_and_no_default_key_is_taken_twice() {
    let mut seen = std::collections::HashSet::new();
    for b in BINDINGS {
        assert!(!b.description.is_empty());
        for k in b.defaults {
            let key = Key::parse(k).unwrap();
            assert!(
                seen.insert((b.layer, key)),
                "{k} bound twice in {:?}",
                b.layer
            );
            // A layer with an input types characters: binding one would
            // make it impossible to type.
            let typed = matches!(key.code, KeyCode::Char(_)) && !key.ctrl && !key.alt;
            assert!(
                !(b.layer.takes_text() && typed),
                "{k} is text in {:?}",
                b.layer
            );
        }
    }
}

#[test]
fn while_following_the_list_keeps_its_order() {
    let mut s = loaded();
    update(&mut s, Action::BesideOpened(Ok(pane())));
    cmd(&mut s, Command::Down); // bravo
    // tmux records the follow switch as an attach: bravo is now the newest focus.
    let mut next = rows();
    next[1].last_focused_at = Some(now());
    update(
        &mut s,
        Action::Rows {
            rows: next,
            problems: vec![],
        },
    );
    assert_eq!(names(&s), ["alpha", "bravo", "charlie", "delta"]);
    cmd(&mut s, Command::Down);
    assert_eq!(
        s.nav.selected.as_ref().map(|k| k.id.as_str()),
        Some("id-charlie"),
        "down moves on, not back"
    );
}

#[test]
fn in_a_popup_an_attach_that_switched_the_client_quits() {
    use greenroom::tui::action::Finished;
    let switched = || {
        Action::Finished(Finished::Switched {
            name: "alpha".into(),
        })
    };
    let mut s = loaded();
    let effects = update(&mut s, switched());
    assert!(
        !effects.contains(&Effect::Ui(UiEffect::Quit)),
        "{effects:?}"
    );
    let mut s = loaded();
    s.settings.popup = true;
    let effects = update(&mut s, switched());
    assert_eq!(effects, vec![Effect::Ui(UiEffect::Quit)]);
    // A failed attach keeps the popup open, with the reason on screen.
    let mut s = loaded();
    s.settings.popup = true;
    let effects = update(&mut s, Action::Finished(Finished::Failed("no".into())));
    assert!(
        !effects.contains(&Effect::Ui(UiEffect::Quit)),
        "{effects:?}"
    );
    assert_eq!(s.status.as_ref().map(|l| l.text.as_str()), Some("no"));
}

#[test]
fn an_adopted_row_s_preview_captures_its_pane() {
    let mut adopted = session("claude@work", Health::Idle, Some(0));
    adopted.id = "%7".into();
    adopted.source = greenroom::model::Source::Tmux;
    adopted.tmux_session = Some("work".into());
    adopted.adopted = Some(greenroom::model::Adopted {
        pane: greenroom::tmux::PaneId::parse("%7").unwrap(),
        hooks: false,
        record: None,
    });
    let mut s = AppState::new(now(), vec![]);
    s.detail.tab = DetailTab::Preview;
    let effects = update(
        &mut s,
        Action::Rows {
            rows: vec![adopted],
            problems: vec![],
        },
    );
    assert!(
        effects.contains(&crate::support::here(Verb::Capture, &["%7"])),
        "{effects:?}"
    );
}

#[test]
fn killing_an_adopted_row_asks_about_its_pane_only() {
    let mut adopted = session("claude@work", Health::Idle, Some(0));
    adopted.id = "%7".into();
    adopted.source = greenroom::model::Source::Tmux;
    adopted.adopted = Some(greenroom::model::Adopted {
        pane: greenroom::tmux::PaneId::parse("%7").unwrap(),
        hooks: true,
        record: None,
    });
    for (row, panes) in [
        (adopted, true),
        (session("alpha", Health::Idle, Some(0)), false),
    ] {
        let mut s = AppState::new(now(), vec![]);
        update(
            &mut s,
            Action::Rows {
                rows: vec![row],
                problems: vec![],
            },
        );
        cmd(&mut s, Command::Kill);
        match &s.mode {
            Mode::Dialog(Dialog::Confirm { panes_only, .. }) => assert_eq!(*panes_only, panes),
            other => panic!("{other:?}"),
        }
    }
}

/// A row that changed alone (`RowsChanged`) leaves the dashboard as every
/// row sent again would: order, selection, marks, alerts and handled rows.
#[test]
fn a_row_changed_alone_equals_every_row_sent_again() {
    let changes: Vec<fn(&mut Session)> = vec![
        |r| r.name = "zulu".into(),
        |r| r.last_focused_at = Some(now()),
        |r| r.health = Health::Waiting,
        |r| r.health = Health::Idle,
    ];
    for (n, change) in changes.into_iter().enumerate() {
        let mut by_all = loaded();
        cmd(&mut by_all, Command::Down); // bravo
        by_all
            .triage
            .handled
            .insert(RowKey::here("id-charlie"), Health::Active);
        let mut by_one = by_all.clone();
        let mut all = rows();
        change(&mut all[2]); // charlie
        let one = vec![all[2].clone()];
        let effects_all = update(
            &mut by_all,
            Action::Rows {
                rows: all,
                problems: vec![],
            },
        );
        let effects_one = update(&mut by_one, Action::RowsChanged(one));
        assert_eq!(effects_one, effects_all, "change {n}");
        assert_eq!(names(&by_one), names(&by_all), "change {n}");
        assert_eq!(by_one.nav.selected, by_all.nav.selected, "change {n}");
        assert_eq!(by_one.cursor(), by_all.cursor(), "change {n}");
        assert_eq!(
            by_one.triage.attention, by_all.triage.attention,
            "change {n}"
        );
        assert_eq!(
            by_one.triage.last_health, by_all.triage.last_health,
            "change {n}"
        );
        assert_eq!(by_one.triage.handled, by_all.triage.handled, "change {n}");
        let mut held: Vec<_> = by_one.list.rows.clone();
        let mut sent: Vec<_> = by_all.list.rows.clone();
        held.sort_by(|a, b| a.id.cmp(&b.id));
        sent.sort_by(|a, b| a.id.cmp(&b.id));
        assert_eq!(held, sent, "change {n}");
    }
}

/// The clock's rows each second capture nothing while the preview shown is
/// the selected row's as it looked; a row that died or turned to ask is
/// captured again.
#[test]
fn new_rows_capture_the_preview_only_when_it_went_stale() {
    let mut s = loaded();
    cmd(&mut s, Command::Down); // bravo
    cmd(&mut s, Command::TogglePreview);
    update(
        &mut s,
        Action::Preview {
            id: RowKey::here("id-bravo"),
            text: "hello".into(),
        },
    );
    let send = |s: &mut AppState, rows: Vec<Session>| {
        update(
            s,
            Action::Rows {
                rows,
                problems: vec![],
            },
        )
    };
    let capture = crate::support::here(Verb::Capture, &["id-bravo"]);
    assert!(send(&mut s, rows()).is_empty(), "the same rows again");
    let mut asking = rows();
    asking[1].health = Health::Waiting;
    assert!(send(&mut s, asking).contains(&capture), "turned waiting");
    let mut died = rows();
    died[1].health = Health::Waiting;
    died[1].status = Status::Exited;
    assert!(send(&mut s, died.clone()).contains(&capture), "died");
    assert!(send(&mut s, died).is_empty(), "as it was");
}
