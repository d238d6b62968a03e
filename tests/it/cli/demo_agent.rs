//! `greenroom demo-agent`: each role's scene played, and what it wrote
//! read back through greenroom's own readers (sidecar, transcript, Maestro
//! state, hook state); and the waiting agent, in a real pane, waiting for
//! the operator's answer.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;

use chrono::Utc;
use greenroom::cli::demo::agent::{self, Operator, Setup, Stop};
use greenroom::config::Env;
use greenroom::model::{Activity, PhaseStatus};
use greenroom::sources::maestro;
use greenroom::sources::sidecar::{Sidecar, SidecarStore};
use greenroom::sources::transcript::TranscriptUsage;

use crate::support::{Pane, TmuxServer, wait_for};

struct MapEnv(HashMap<&'static str, String>);

impl Env for MapEnv {
    fn var(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }
}

/// An operator who sends these lines and gives these answers, then leaves.
struct Scripted {
    lines: VecDeque<&'static str>,
    answers: VecDeque<bool>,
}

impl Operator for Scripted {
    fn line(&mut self) -> Option<String> {
        self.lines.pop_front().map(str::to_owned)
    }
    fn permission(&mut self, asked: &mut dyn FnMut()) -> Option<bool> {
        asked();
        self.answers.pop_front()
    }
}

/// A demo folder with one session record, as `greenroom demo` makes them.
struct Place {
    dir: tempfile::TempDir,
    store: SidecarStore,
    id: uuid::Uuid,
}

impl Place {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let store = SidecarStore::new(dir.path().join("sessions"));
        let s = Sidecar::new("agent", &dir.path().join("work"), "demo", Utc::now());
        store.create(&s).unwrap();
        for sub in ["transcripts", "maestro-hooks", "work/docs/maestro/state"] {
            std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        }
        Place {
            id: s.id,
            dir,
            store,
        }
    }

    fn path(&self, p: &str) -> PathBuf {
        self.dir.path().join(p)
    }

    fn env(&self) -> MapEnv {
        MapEnv(HashMap::from([
            ("GREENROOM_SESSION_ID", self.id.to_string()),
            (
                "GREENROOM_SIDECAR_DIR",
                self.store.dir().display().to_string(),
            ),
        ]))
    }

    /// Plays `role` in-process, without pauses, for at most `steps` steps.
    fn play(&self, role: &str, operator: &mut Scripted, steps: usize) -> (Stop, String) {
        let env = self.env();
        let setup = Setup {
            cwd: self.path("work"),
            transcripts: self.path("transcripts"),
            maestro_hooks: Some(self.path("maestro-hooks")),
            env: &env,
            paced: false,
        };
        let mut out = Vec::new();
        let stop = agent::play(role, setup, &mut out, operator, Some(steps));
        (stop, String::from_utf8(out).unwrap())
    }

    fn sidecar(&self) -> Sidecar {
        self.store.read(self.id).unwrap()
    }

    fn orchestrations(&self) -> Vec<greenroom::model::Orchestration> {
        let loc = maestro::location_for_workspace(&self.path("work"), maestro::DEFAULT_STATE_DIR);
        let (found, problems) = maestro::read_location(&loc, true);
        assert!(problems.is_empty(), "{problems:?}");
        found
    }
}

fn operator(lines: &[&'static str], answers: &[bool]) -> Scripted {
    Scripted {
        lines: lines.iter().copied().collect(),
        answers: answers.iter().copied().collect(),
    }
}

/// The transcript the hooks named, read by the transcript reader: tokens spent.
fn spent(sidecar: &Sidecar) -> u64 {
    let path = sidecar
        .transcript_path
        .clone()
        .expect("a hook named the transcript");
    let mut usage = TranscriptUsage::new(&path);
    usage.refresh().unwrap();
    usage
        .by_model()
        .get("claude-sonnet-4-5")
        .map_or(0, |u| u.input)
}

#[test]
fn every_role_reports_and_spends_through_greenroom_s_readers() {
    for role in agent::role_names() {
        let place = Place::new();
        let (_, shown) = place.play(role, &mut operator(&["go on"], &[true]), 120);
        let s = place.sidecar();
        assert!(
            s.agent_session_id.is_some(),
            "{role}: SessionStart recorded"
        );
        assert!(s.activity_reported_at.is_some(), "{role}: a report landed");
        assert!(spent(&s) > 0, "{role}: tokens in the transcript");
        assert!(shown.contains(&format!("role: {role}")), "{role}:\n{shown}");
    }
}

#[test]
fn an_unknown_role_plays_the_fresh_agent() {
    let place = Place::new();
    let (stop, shown) = place.play("nonsense", &mut operator(&[], &[]), 50);
    assert_eq!(stop, Stop::Gone, "it waits for a first prompt");
    assert!(shown.contains("Ready. What should I work on?"), "{shown}");
    assert_eq!(place.sidecar().activity, Some(Activity::Idle));
}

#[test]
fn the_docs_agent_completes_its_orchestration() {
    let place = Place::new();
    let (stop, _) = place.play("docs", &mut operator(&[], &[]), 200);
    assert_eq!(stop, Stop::Gone, "it ends waiting for the operator");
    let found = place.orchestrations();
    assert_eq!(found.len(), 1, "{found:?}");
    let o = &found[0];
    assert!(o.is_completed(), "{o:?}");
    assert_eq!(o.phases.len(), 3);
    assert!(o.phases.iter().all(|p| p.status == PhaseStatus::Completed));
    assert!(o.contradictions.is_empty(), "{:?}", o.contradictions);
    assert_eq!(place.sidecar().activity, Some(Activity::Idle));
    let sid = place.sidecar().agent_session_id.unwrap();
    assert_eq!(
        maestro::read_active_agent(&place.path("maestro-hooks"), &sid),
        None,
        "a completed orchestration names no agent"
    );
}

#[test]
fn the_infra_agent_fails_its_phase_and_reports_the_error() {
    let place = Place::new();
    let (stop, _) = place.play("infra", &mut operator(&[], &[]), 200);
    assert_eq!(stop, Stop::Gone);
    let s = place.sidecar();
    assert_eq!(s.activity, Some(Activity::Error));
    assert!(s.activity_detail.unwrap().contains("rate_limit"));
    let o = &place.orchestrations()[0];
    assert!(o.has_unresolved_failure(), "{o:?}");
    assert_eq!(o.phases[1].errors[0].kind.as_deref(), Some("rate_limit"));
}

#[test]
fn the_infra_agent_retries_after_a_line() {
    let place = Place::new();
    place.play("infra", &mut operator(&["retry"], &[]), 200);
    let o = &place.orchestrations()[0];
    assert!(!o.has_unresolved_failure(), "{o:?}");
    assert!(o.is_completed());
    assert_eq!(o.phases[1].retry_count, 1);
}

#[test]
fn the_tests_agent_goes_silent_while_reported_active() {
    let place = Place::new();
    let (stop, shown) = place.play("tests", &mut operator(&[], &[]), 200);
    assert_eq!(stop, Stop::Gone);
    assert_eq!(place.sidecar().activity, Some(Activity::Active));
    assert!(
        shown
            .trim_end()
            .ends_with("test ws::reconnect_after_server_restart ...")
            || shown.contains("reconnect_after_server_restart ... \n"),
        "{shown}"
    );
    let o = &place.orchestrations()[0];
    assert_eq!(o.phases[1].status, PhaseStatus::InProgress);
}

#[test]
fn the_api_agent_names_the_working_agent_and_counts_its_tokens() {
    let place = Place::new();
    let (stop, _) = place.play("api", &mut operator(&[], &[]), 40);
    assert_eq!(stop, Stop::Budget, "it works for ever");
    let o = &place.orchestrations()[0];
    assert_eq!(o.status.as_deref(), Some("in_progress"));
    let tokens = o.token_usage.as_ref().unwrap();
    assert!(
        tokens.input > 0 && tokens.by_agent.contains_key("architect"),
        "{tokens:?}"
    );
    let sid = place.sidecar().agent_session_id.unwrap();
    let working = maestro::read_active_agent(&place.path("maestro-hooks"), &sid);
    assert!(
        working.is_some(),
        "the hook state names the agent working now"
    );
}

#[test]
fn the_api_agent_archives_a_finished_orchestration_and_starts_the_next() {
    let place = Place::new();
    place.play("api", &mut operator(&[], &[]), 160);
    let found = place.orchestrations();
    let archived: Vec<_> = found.iter().filter(|o| o.archived).collect();
    assert!(!archived.is_empty(), "{found:?}");
    assert!(archived.iter().all(|o| o.is_completed()));
    assert!(
        found.iter().any(|o| !o.archived),
        "the next orchestration runs: {found:?}"
    );
}

#[test]
fn the_web_agent_waits_then_goes_on_or_reports_the_refusal() {
    let place = Place::new();
    let (stop, shown) = place.play("web", &mut operator(&[], &[]), 200);
    assert_eq!(stop, Stop::Gone, "no answer: it waits");
    assert!(shown.contains("Do you want to proceed?") && shown.contains("1. Yes"));
    let s = place.sidecar();
    assert_eq!(s.activity, Some(Activity::AwaitingInput));
    assert!(s.activity_detail.unwrap().contains("permission"));

    let place = Place::new();
    let (_, shown) = place.play("web", &mut operator(&[], &[true]), 200);
    assert!(shown.contains("12 passed"), "allowed, it ran:\n{shown}");

    let place = Place::new();
    let (_, shown) = place.play("web", &mut operator(&[], &[false]), 200);
    assert!(shown.contains("I won't run that"), "{shown}");
    assert!(
        !shown.contains("12 passed"),
        "denied, it did not run:\n{shown}"
    );
}

// ------------------------------------------------------ the real binary

/// The web agent in a pane of a private tmux server, reporting into `place`.
fn web_agent_in_a_pane(place: &Place) -> TmuxServer {
    let tmux = TmuxServer::new();
    let id = format!("GREENROOM_SESSION_ID={}", place.id);
    let dir = format!("GREENROOM_SIDECAR_DIR={}", place.store.dir().display());
    let log = format!("GREENROOM_LOG={}", place.path("greenroom.log").display());
    let root = place.dir.path().display().to_string();
    let work = place.path("work").display().to_string();
    tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "web",
        "-x",
        "100",
        "-y",
        "40",
        "-c",
        &work,
        "-e",
        &id,
        "-e",
        &dir,
        "-e",
        &log,
        env!("CARGO_BIN_EXE_greenroom"),
        "demo-agent",
        "web",
        "--root",
        &root,
    ]);
    tmux
}

fn until_asked(place: &Place, pane: &Pane<'_>) {
    pane.until(30, "the permission question", |s| {
        s.contains("Do you want to proceed?")
    });
    wait_for(10, "the waiting report", || {
        (place.sidecar().activity == Some(Activity::AwaitingInput)).then_some(())
    });
}

fn answered(place: &Place, pane: &Pane<'_>, key: &str, shows: &str) {
    until_asked(place, pane);
    pane.keys(&[key]);
    pane.until(20, shows, |s| s.contains(shows));
    wait_for(10, "the agent active again", || {
        (place.sidecar().activity == Some(Activity::Active)).then_some(())
    });
}

#[test]
fn enter_in_the_waiting_agent_s_pane_allows_the_command() {
    let place = Place::new();
    let tmux = web_agent_in_a_pane(&place);
    answered(&place, &Pane::new(&tmux, "web"), "Enter", "12 passed");
}

#[test]
fn escape_in_the_waiting_agent_s_pane_denies_it() {
    let place = Place::new();
    let tmux = web_agent_in_a_pane(&place);
    let pane = Pane::new(&tmux, "web");
    answered(&place, &pane, "Escape", "I won't run that");
    assert!(!pane.text().contains("12 passed"));
}

#[test]
fn a_digit_answers_too() {
    let place = Place::new();
    let tmux = web_agent_in_a_pane(&place);
    answered(&place, &Pane::new(&tmux, "web"), "2", "I won't run that");
}
