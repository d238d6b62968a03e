//! Activity and health: which activity a session shows, and how
//! urgently the operator should look at it. Pure: the clock is passed in.

use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::model::{Activity, ActivitySource, ActivityView, Health, Orchestration, Status};

mod explain;
mod ready;
mod restates;
mod signal;
#[cfg(test)]
mod test_clock;
pub use explain::{explain, provenance};
pub use ready::turn_ended_at;
pub use signal::{last_signal_at, sign_of_life};

/// Thresholds for activity inference and health: how long a hook's report
/// wins over tmux, how recent tmux output counts as active, and how long
/// an active session may show no sign of life before it is stuck; and
/// whether a finished turn the operator has not looked at is attention
/// (`ready_is_attention`; off, such a session is idle or done).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Thresholds {
    pub report_ttl: Duration,
    pub active_window: Duration,
    pub stuck_after: Duration,
    pub ready_is_attention: bool,
}

impl Default for Thresholds {
    fn default() -> Self {
        Self {
            report_ttl: Duration::from_secs(300),
            active_window: Duration::from_secs(30),
            stuck_after: Duration::from_secs(600),
            ready_is_attention: true,
        }
    }
}

pub use crate::model::TmuxFacts;

/// The agent's last word on itself: a hook's report as the sidecar
/// stores it, or a record the agent keeps (Claude Code's registry).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report<'a> {
    pub state: &'a Activity,
    pub detail: Option<&'a str>,
    pub since: Option<DateTime<Utc>>,
    pub reported_at: Option<DateTime<Utc>>,
    /// Whether an interrupt reaches greenroom as a word of the agent's own:
    /// Claude Code fires no hook on Esc, but its registry record turns idle.
    /// Then the screen proves nothing, and an Active word stands until the
    /// agent speaks again (stuck, after `stuck_after` of silence). Without
    /// one, a working screen that falls silent is the only sign that the
    /// turn ended ([`SILENT_AFTER`]).
    pub hears_interrupt: bool,
}

/// How long a pane may stay still under an Active report, after it moved
/// since that report, before the turn is taken as over (for an agent whose
/// interrupt is not heard otherwise: [`Report::hears_interrupt`]). Claude Code and
/// Gemini CLI redraw a spinner and a timer (at least once a second) for as
/// long as a turn runs, and no hook fires on an interrupt (Esc): a working
/// screen that falls silent is the only sign the turn ended. tmux keeps
/// `window_activity` in whole seconds, so this is 2 to 3 s of silence; a
/// screen that moves again after a stall puts the report back.
pub const SILENT_AFTER: std::time::Duration = std::time::Duration::from_secs(3);

/// The detail shown when the silence rule decides.
pub const SILENT_DETAIL: &str = "turn ended without a hook (the screen stopped moving)";

/// An Active report whose screen moved after it and then fell silent: the
/// agent's turn ended with no hook (an interrupt). A pane that never moved
/// after the report proves nothing (a program that draws no spinner), and
/// keeps the report, so stuck detection still sees it. tmux keeps whole
/// seconds, so "after" means in a later second than the report's: output
/// printed along with the report (a program that then hangs) is not a
/// spinner, while a spinner redraws in every later second of the turn.
fn fell_silent(r: &Report<'_>, facts: &TmuxFacts, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    use chrono::SubsecRound;
    let moved = facts.window_activity?;
    let reported = r.reported_at?.trunc_subsecs(0);
    (*r.state == Activity::Active
        && !facts.pane_dead
        && moved > reported
        && !within(now, Some(moved), SILENT_AFTER))
    .then_some(moved)
}

/// Every comparison of the clock the rules make goes through here, and
/// [`clock_moves_after`] lists each one: keep the two in step.
fn within(now: DateTime<Utc>, at: Option<DateTime<Utc>>, window: std::time::Duration) -> bool {
    let window = chrono::Duration::from_std(window).unwrap_or(chrono::TimeDelta::MAX);
    at.is_some_and(|at| now.signed_duration_since(at) <= window)
}

/// The first instant after `now` at which the clock alone could change
/// what these rules say of a session (its activity and health): where each
/// [`within`] they make turns false. Until then a row built from the same
/// facts says the same. `None`: never.
pub fn clock_moves_after(
    tmux: Option<&TmuxFacts>,
    reported_at: Option<DateTime<Utc>>,
    last_signal_at: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
    t: &Thresholds,
) -> Option<DateTime<Utc>> {
    let moved = tmux.and_then(|f| f.window_activity);
    [
        (moved, SILENT_AFTER),
        (reported_at, t.report_ttl),
        (moved, t.active_window),
        (last_signal_at, t.stuck_after),
    ]
    .into_iter()
    .filter_map(|(at, window)| {
        let window = chrono::Duration::from_std(window).ok()?;
        // `within` holds through `at + window` and turns at the instant after.
        at?.checked_add_signed(window)?
            .checked_add_signed(chrono::Duration::nanoseconds(1))
    })
    .filter(|turn| *turn > now)
    .min()
}

/// The activity to show. A report wins until `report_ttl` after it was made;
/// then tmux inference takes over; without tmux facts the last recorded
/// state is shown as not reported.
pub fn effective_activity(
    report: Option<Report<'_>>,
    tmux: Option<&TmuxFacts>,
    now: DateTime<Utc>,
    t: &Thresholds,
) -> ActivityView {
    if let (Some(r), Some(facts)) = (&report, tmux)
        && !r.hears_interrupt
        && let Some(still_since) = fell_silent(r, facts, now)
    {
        return ActivityView {
            state: Activity::Idle,
            detail: Some(SILENT_DETAIL.to_owned()),
            since: Some(still_since),
            reported: false,
            source: ActivitySource::Tmux,
        };
    }
    if let Some(r) = &report
        && within(now, r.reported_at, t.report_ttl)
    {
        return as_reported(r, true);
    }
    // An agent heard when its turn ends, an interrupt too, works until it
    // says otherwise, whatever its screen does: a hung API call ticks a
    // spinner, a frozen one shows a still screen, and both are stuck.
    if let Some(r) = &report
        && r.hears_interrupt
        && *r.state == Activity::Active
    {
        return as_reported(r, false);
    }
    // After the TTL a report is no longer exact, but it is still the last
    // known state until tmux shows something newer: an agent waiting for
    // input prints nothing, and must not fall out of triage after 5 minutes.
    if let (Some(r), Some(facts)) = (&report, tmux)
        && r.reported_at.is_some()
        && facts
            .window_activity
            .is_none_or(|a| Some(a) <= r.reported_at)
    {
        return as_reported(r, false);
    }
    if let Some(facts) = tmux {
        let state = if within(now, facts.window_activity, t.active_window) {
            Activity::Active
        } else {
            Activity::Idle
        };
        // Keep the report's clock when inference agrees with it, so the age
        // shown does not reset when the report merely expires.
        let since = match &report {
            Some(r) if *r.state == state => r.since,
            _ => facts.window_activity,
        };
        return ActivityView {
            state,
            detail: None,
            since,
            reported: false,
            source: ActivitySource::Tmux,
        };
    }
    match report {
        Some(r) => as_reported(&r, false),
        None => ActivityView {
            state: Activity::Unknown("unknown".into()),
            detail: None,
            since: None,
            reported: false,
            source: ActivitySource::Nothing,
        },
    }
}

/// What a report said, shown as the activity; `current` while the report
/// is within its TTL.
fn as_reported(r: &Report<'_>, current: bool) -> ActivityView {
    ActivityView {
        state: r.state.clone(),
        detail: r.detail.map(str::to_owned),
        since: r.since,
        reported: current,
        source: ActivitySource::Hook,
    }
}

/// Everything health depends on, gathered by the catalog.
#[derive(Debug, Clone, Copy)]
pub struct HealthInputs<'a> {
    pub status: &'a Status,
    pub exit_status: Option<i32>,
    pub activity: &'a Activity,
    pub orchestration: Option<&'a Orchestration>,
    /// The latest sign of life: tmux activity, a file change, a report
    /// ([`sign_of_life`]: an agent whose last word is Active is alive only
    /// while it speaks, whatever its spinner does).
    pub last_signal_at: Option<DateTime<Utc>>,
    /// What the agent last said, for the why line of a stuck one: the tool
    /// call it reported (`Bash \`npm test\``).
    pub said: Option<&'a str>,
    /// When the agent said, in its own word, that its turn ended
    /// ([`turn_ended_at`]); `None` when it did not (idle inferred from a
    /// still pane, or no word at all).
    pub turn_ended_at: Option<DateTime<Utc>>,
    /// When the operator last looked at the session: attached (greenroom or
    /// tmux), previewed, answered, or kept it selected for a moment.
    pub looked_at: Option<DateTime<Utc>>,
}

/// Which rule decided a health class: the "why" line says it in words
/// ([`explain`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Not running, and it left a failure: a non-zero exit, an exit whose
    /// last word was an error, or a failed phase.
    EndedFailed,
    /// Not running, and its orchestration completed.
    EndedDone,
    /// Not running: dormant, killed, exited (or archived).
    Ended,
    /// The agent reported an error.
    ReportedError,
    /// A Maestro phase failed and its errors are not all resolved.
    OrchestrationFailed,
    /// The agent asks the operator.
    AwaitingInput,
    /// Working, with no sign of life for `stuck_after`: for an agent
    /// that said it was Active, no word from it, whatever its screen does.
    Silent,
    /// The activity is Active.
    Working,
    /// Maestro says a phase is in progress.
    PhaseInProgress,
    /// Its orchestration completed.
    OrchestrationDone,
    /// Nothing to do.
    Resting,
    /// It finished (idle by its own word, or done) after the operator last
    /// looked: ready for them. `done` says which.
    Unseen { done: bool },
}
/// The health class. The first rule that holds wins, most urgent first:
/// an unresolved failure, then waiting, stuck, and so on down to done.
pub fn health(i: HealthInputs<'_>, now: DateTime<Utc>, t: &Thresholds) -> Health {
    decide(i, now, t).0
}

/// The health class and the rule that decided it: a finished turn the
/// operator has not looked at is ready ([`ready::unseen`]).
pub fn decide(i: HealthInputs<'_>, now: DateTime<Utc>, t: &Thresholds) -> (Health, Rule) {
    let (health, rule) = classify(i, now, t);
    match ready::unseen(health, &i, t) {
        Some(rule) => (Health::Ready, rule),
        None => (health, rule),
    }
}

/// The health class by what the agent does, whether or not anyone looked.
fn classify(i: HealthInputs<'_>, now: DateTime<Utc>, t: &Thresholds) -> (Health, Rule) {
    let orch_failed = i
        .orchestration
        .is_some_and(Orchestration::has_unresolved_failure);
    // An archived orchestration is finished business, whatever it last said.
    let orch_done = i
        .orchestration
        .is_some_and(|o| o.is_completed() || o.archived);
    let ended = match i.status {
        Status::Dormant => Some(Health::Dormant),
        Status::Killed => Some(Health::Killed),
        Status::Exited => Some(Health::Exited),
        Status::Archived => Some(Health::Dormant),
        Status::Running | Status::Unknown(_) => None,
    };
    if let Some(ended) = ended {
        // A session that is not running is waiting on nobody; only a
        // failure it left behind still needs the operator.
        // An exit whose last word was an error (an agent that died
        // without ending its session) left a failure too.
        let died = *i.status == Status::Exited && *i.activity == Activity::Error;
        return if i.exit_status.is_some_and(|s| s != 0) || orch_failed || died {
            (Health::Errored, Rule::EndedFailed)
        } else if orch_done {
            (Health::Done, Rule::EndedDone)
        } else {
            (ended, Rule::Ended)
        };
    }
    if *i.activity == Activity::Error {
        return (Health::Errored, Rule::ReportedError);
    }
    if orch_failed {
        return (Health::Errored, Rule::OrchestrationFailed);
    }
    if *i.activity == Activity::AwaitingInput {
        return (Health::Waiting, Rule::AwaitingInput);
    }
    let working = *i.activity == Activity::Active
        || i.orchestration
            .is_some_and(|o| !o.archived && !o.is_completed() && o.has_phase_in_progress());
    if working && !within(now, i.last_signal_at, t.stuck_after) {
        return (Health::Stuck, Rule::Silent);
    }
    if *i.activity == Activity::Active {
        (Health::Active, Rule::Working)
    } else if orch_done {
        (Health::Done, Rule::OrchestrationDone)
    } else if working {
        (Health::Active, Rule::PhaseInProgress)
    } else {
        (Health::Idle, Rule::Resting)
    }
}

/// Last focus: the later of greenroom's record and tmux's own attach time,
/// so switching with tmux keys counts too.
pub fn last_focus(
    recorded: Option<DateTime<Utc>>,
    tmux_attached: Option<DateTime<Utc>>,
) -> Option<DateTime<Utc>> {
    recorded.max(tmux_attached)
}
