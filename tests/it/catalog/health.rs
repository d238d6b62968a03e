//! Every activity and health rule, with the clock passed in,
//! on both sides of each threshold.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use chrono::{DateTime, Duration, TimeZone, Utc};
use greenroom::config::Thresholds;
use greenroom::health::{
    HealthInputs, Report, SILENT_DETAIL, TmuxFacts, effective_activity, health, last_focus,
};
use greenroom::model::{
    Activity, Health, Orchestration, Phase, PhaseError, PhaseId, PhaseStatus, Status,
};

pub(super) fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).unwrap()
}

pub(super) fn ago(secs: i64) -> Option<DateTime<Utc>> {
    Some(now() - Duration::seconds(secs))
}

pub(super) fn t() -> Thresholds {
    Thresholds::default() // ttl 300 s, active window 30 s, stuck after 600 s
}

pub(super) fn report(state: &Activity, reported_secs_ago: i64) -> Report<'_> {
    Report {
        state,
        detail: Some("why"),
        since: ago(reported_secs_ago + 5),
        reported_at: ago(reported_secs_ago),
        hears_interrupt: false,
    }
}

pub(super) fn tmux(active_secs_ago: i64) -> TmuxFacts {
    TmuxFacts {
        window_activity: ago(active_secs_ago),
        ..TmuxFacts::default()
    }
}

#[test]
fn a_report_wins_until_the_ttl_then_inference_takes_over() {
    let waiting = Activity::AwaitingInput;
    let fresh = effective_activity(Some(report(&waiting, 299)), Some(&tmux(1)), now(), &t());
    assert_eq!(fresh.state, Activity::AwaitingInput);
    assert!(fresh.reported);
    assert_eq!(fresh.detail.as_deref(), Some("why"));

    let expired = effective_activity(Some(report(&waiting, 301)), Some(&tmux(1)), now(), &t());
    assert_eq!(expired.state, Activity::Active);
    assert!(!expired.reported);
    assert_eq!(expired.detail, None);
}

#[test]
fn tmux_activity_inside_the_window_is_active_outside_idle() {
    assert_eq!(
        effective_activity(None, Some(&tmux(29)), now(), &t()).state,
        Activity::Active
    );
    assert_eq!(
        effective_activity(None, Some(&tmux(31)), now(), &t()).state,
        Activity::Idle
    );
    assert_eq!(
        effective_activity(None, Some(&TmuxFacts::default()), now(), &t()).state,
        Activity::Idle
    );
}

#[test]
fn without_tmux_the_last_recorded_state_shows_as_not_reported() {
    let idle = Activity::Idle;
    let v = effective_activity(Some(report(&idle, 10_000)), None, now(), &t());
    assert_eq!(v.state, Activity::Idle);
    assert!(!v.reported);
    let none = effective_activity(None, None, now(), &t());
    assert!(matches!(none.state, Activity::Unknown(_)));
}

pub(super) fn inputs<'a>(
    status: &'a Status,
    activity: &'a Activity,
    signal: Option<DateTime<Utc>>,
) -> HealthInputs<'a> {
    HealthInputs {
        status,
        exit_status: None,
        activity,
        orchestration: None,
        last_signal_at: signal,
        said: None,
        turn_ended_at: None,
        looked_at: None,
    }
}

#[test]
fn running_sessions_classify_by_activity() {
    let run = Status::Running;
    let h = |a: Activity| health(inputs(&run, &a, ago(1)), now(), &t());
    assert_eq!(h(Activity::Error), Health::Errored);
    assert_eq!(h(Activity::AwaitingInput), Health::Waiting);
    assert_eq!(h(Activity::Active), Health::Active);
    assert_eq!(h(Activity::Idle), Health::Idle);
    assert_eq!(h(Activity::Unknown("?".into())), Health::Idle);
}

#[test]
fn active_with_no_sign_of_life_past_the_threshold_is_stuck() {
    let run = Status::Running;
    let active = Activity::Active;
    assert_eq!(
        health(inputs(&run, &active, ago(599)), now(), &t()),
        Health::Active
    );
    assert_eq!(
        health(inputs(&run, &active, ago(601)), now(), &t()),
        Health::Stuck
    );
    // Idle sessions are never stuck: nothing is expected of them.
    let idle = Activity::Idle;
    assert_eq!(
        health(inputs(&run, &idle, ago(100_000)), now(), &t()),
        Health::Idle
    );
}

#[test]
fn ended_sessions_show_how_they_ended_unless_they_failed() {
    let idle = Activity::AwaitingInput;
    for (status, want) in [
        (Status::Dormant, Health::Dormant),
        (Status::Killed, Health::Killed),
        (Status::Exited, Health::Exited),
    ] {
        assert_eq!(health(inputs(&status, &idle, None), now(), &t()), want);
    }
    let exited = Status::Exited;
    let mut i = inputs(&exited, &idle, None);
    i.exit_status = Some(3);
    assert_eq!(health(i, now(), &t()), Health::Errored);
    i.exit_status = Some(0);
    assert_eq!(health(i, now(), &t()), Health::Exited);
}

fn orchestration(status: &str, phase: PhaseStatus, errors: Vec<PhaseError>) -> Orchestration {
    Orchestration {
        status: Some(status.into()),
        phases: vec![Phase {
            id: PhaseId::Number(1),
            name: None,
            status: phase,
            agents: vec![],
            errors,
            retry_count: 0,
            warnings: vec![],
            started: None,
            completed: None,
        }],
        ..Orchestration::default()
    }
}

#[test]
fn maestro_failures_completion_and_progress_count() {
    let run = Status::Running;
    let idle = Activity::Idle;
    let unresolved = PhaseError {
        message: Some("auth failed".into()),
        ..PhaseError::default()
    };
    let resolved = PhaseError {
        resolved: true,
        ..unresolved.clone()
    };
    let with = |o: &Orchestration, signal| {
        let mut i = inputs(&run, &idle, signal);
        i.orchestration = Some(o);
        health(i, now(), &t())
    };
    let failed = orchestration("blocked", PhaseStatus::Failed, vec![unresolved]);
    assert_eq!(with(&failed, ago(1)), Health::Errored);
    let retried = orchestration("in_progress", PhaseStatus::Failed, vec![resolved]);
    assert_ne!(with(&retried, ago(1)), Health::Errored);
    let done = orchestration("completed", PhaseStatus::Completed, vec![]);
    assert_eq!(with(&done, ago(1)), Health::Done);
    let working = orchestration("in_progress", PhaseStatus::InProgress, vec![]);
    assert_eq!(with(&working, ago(599)), Health::Active);
    assert_eq!(with(&working, ago(601)), Health::Stuck);
    // A dormant session keeps its failure visible.
    let dormant = Status::Dormant;
    let failed = orchestration("blocked", PhaseStatus::Failed, vec![]);
    let mut i = inputs(&dormant, &idle, None);
    i.orchestration = Some(&failed);
    assert_eq!(health(i, now(), &t()), Health::Errored);
}

#[test]
fn health_order_is_urgency_order() {
    let mut all = Health::ALL.to_vec();
    all.sort();
    assert_eq!(all, Health::ALL.to_vec());
    assert!(Health::Errored < Health::Waiting && Health::Waiting < Health::Stuck);
    assert!(Health::Idle < Health::Dormant && Health::Exited < Health::Done);
}

#[test]
fn last_focus_is_the_later_of_greenroom_and_tmux() {
    assert_eq!(last_focus(ago(10), ago(5)), ago(5));
    assert_eq!(last_focus(ago(5), ago(10)), ago(5));
    assert_eq!(last_focus(None, ago(10)), ago(10));
    assert_eq!(last_focus(None, None), None);
}

#[test]
fn an_expired_report_stands_until_tmux_shows_something_newer() {
    let waiting = Activity::AwaitingInput;
    // Reported 10 minutes ago; the pane has been quiet since well before.
    let quiet = tmux(1_000);
    let v = effective_activity(Some(report(&waiting, 600)), Some(&quiet), now(), &t());
    assert_eq!(
        v.state,
        Activity::AwaitingInput,
        "a waiting agent stays waiting"
    );
    assert!(!v.reported, "but it is no longer an exact report");
    // The operator answered in the pane: tmux activity after the report wins.
    let answered = tmux(20);
    let v = effective_activity(Some(report(&waiting, 600)), Some(&answered), now(), &t());
    assert_eq!(v.state, Activity::Active);
    // A stale Active report with no output since is the last known state:
    // after stuck_after without a sign of life, that is stuck.
    let active = Activity::Active;
    let v = effective_activity(Some(report(&active, 700)), Some(&quiet), now(), &t());
    let run = Status::Running;
    let h = health(inputs(&run, &v.state, ago(700)), now(), &t());
    assert_eq!(h, Health::Stuck);
}

/// Issue 12 §2.1: Esc fires no hook, but Claude Code's (and Gemini CLI's)
/// working screen redraws a spinner every second while a turn runs. A pane
/// that moved after an Active report and then stayed still for the silence
/// window means the turn is over.
#[test]
fn a_working_screen_that_falls_silent_ends_the_reported_turn() {
    let active = Activity::Active;
    let run = Status::Running;
    // Reported 20 s ago, the spinner moved until 6 s ago, then nothing.
    let v = effective_activity(Some(report(&active, 20)), Some(&tmux(6)), now(), &t());
    assert_eq!(v.state, Activity::Idle);
    assert_eq!(v.detail.as_deref(), Some(SILENT_DETAIL));
    assert_eq!(v.since, ago(6), "idle since the screen went still");
    assert!(!v.reported);
    assert_eq!(
        health(inputs(&run, &v.state, ago(6)), now(), &t()),
        Health::Idle
    );
    // Still animating (moved within the 3 s window): the report stands.
    for moved in [0, 3] {
        let v = effective_activity(Some(report(&active, 20)), Some(&tmux(moved)), now(), &t());
        assert_eq!(v.state, Activity::Active, "moved {moved} s ago");
        assert!(v.reported);
    }
    // tmux keeps whole seconds: a move in the report's own second is output
    // printed with the report, not a spinner; the next second's move is.
    let at = now() - Duration::milliseconds(9_300);
    let r = Report {
        state: &active,
        detail: None,
        since: Some(at),
        reported_at: Some(at),
        hears_interrupt: false,
    };
    let same_second = TmuxFacts {
        window_activity: ago(10),
        ..TmuxFacts::default()
    };
    let v = effective_activity(Some(r.clone()), Some(&same_second), now(), &t());
    assert_eq!(v.state, Activity::Active);
    let next_second = TmuxFacts {
        window_activity: ago(9),
        ..TmuxFacts::default()
    };
    let v = effective_activity(Some(r), Some(&next_second), now(), &t());
    assert_eq!(v.state, Activity::Idle);
}

#[test]
fn the_silence_rule_leaves_quiet_programs_waiting_and_idle_alone() {
    let active = Activity::Active;
    // The pane never moved after the report: no evidence (a program that
    // draws no spinner); the report stands, and later stuck detection too.
    let v = effective_activity(Some(report(&active, 20)), Some(&tmux(30)), now(), &t());
    assert_eq!(v.state, Activity::Active);
    assert!(v.reported);
    // Waiting and idle agents print nothing: silence changes nothing.
    for state in [Activity::AwaitingInput, Activity::Idle, Activity::Error] {
        let v = effective_activity(Some(report(&state, 20)), Some(&tmux(6)), now(), &t());
        assert_eq!(v.state, state);
        assert!(v.reported);
    }
    // A dead pane is the exit rules' business, not an interrupt.
    let dead = TmuxFacts {
        pane_dead: true,
        ..tmux(6)
    };
    let v = effective_activity(Some(report(&active, 20)), Some(&dead), now(), &t());
    assert_ne!(v.detail.as_deref(), Some(SILENT_DETAIL));
}

#[test]
fn every_class_is_in_all_once_with_its_own_glyph() {
    // ALL comes from the enum's own list: each class serialises to its name.
    for h in Health::ALL {
        let json = serde_json::to_string(h).unwrap();
        assert_eq!(json, format!("\"{}\"", h.as_str()));
    }
    let mut glyphs: Vec<&str> = Health::ALL.iter().map(|h| h.glyph()).collect();
    glyphs.sort_unstable();
    glyphs.dedup();
    assert_eq!(glyphs.len(), Health::ALL.len());
}

#[test]
fn what_may_be_done_with_a_row() {
    use crate::support::session::session;
    use greenroom::model::Source;
    let live = session("a").build();
    assert!(live.can_attach() && !live.can_restore() && !live.can_dismiss());
    let no_tmux = session("a").tmux(None).build();
    assert!(!no_tmux.can_attach());
    for stopped in [Status::Dormant, Status::Killed, Status::Exited] {
        let s = session("a").status(stopped.clone()).build();
        assert!(
            !s.can_attach() && s.can_restore() && s.can_dismiss(),
            "{stopped}"
        );
        let theirs = session("a").status(stopped).source(Source::Maestro).build();
        assert!(!theirs.can_restore() && !theirs.can_dismiss());
    }
    let archived = session("a").status(Status::Archived).archived().build();
    assert!(archived.can_restore() && !archived.can_dismiss() && !archived.can_attach());
}

#[test]
fn the_status_counts_show_what_needs_the_operator_and_what_works() {
    use crate::support::session::session;
    use greenroom::cli::status::line;
    let rows = [
        session("a").health(Health::Errored).build(),
        session("b").health(Health::Errored).build(),
        session("c").health(Health::Waiting).build(),
        session("d").health(Health::Active).build(),
        session("e").health(Health::Idle).build(),
        session("f").health(Health::Done).build(),
        // Archived rows are finished business: not counted.
        session("g").health(Health::Stuck).archived().build(),
    ];
    let now = chrono::Utc::now();
    assert_eq!(
        line(&rows, false, now),
        "✖ 2 errored · ◆ 1 waiting · ● 1 active"
    );
    assert!(
        line(&rows, true, now)
            .starts_with("#[fg=red]✖2#[default] #[fg=yellow]◆1#[default] #[fg=green]●1#[default]"),
        "{}",
        line(&rows, true, now)
    );
    let calm = [session("e").health(Health::Idle).build()];
    assert_eq!(line(&calm, false, now), "", "nothing to say");
}
