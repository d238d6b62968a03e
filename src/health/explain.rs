//! Where a status comes from and why: the provenance label beside every
//! status (`waiting · hook · 4s`) and the detail pane's "why" line naming
//! the rule that decided the health. Pure: the clock is passed in.

use chrono::{DateTime, Utc};

use super::{HealthInputs, Rule, SILENT_DETAIL, Thresholds};
use crate::display::{age, fit};
use crate::model::{Activity, ActivitySource, ActivityView, Health, Session, Source, Why};

/// The most of what a stuck agent last said that its why line shows.
const SAID_CHARS: usize = 80;

/// A length of time the way ages are shown: `45s`, `10m`, `2h`.
fn span(d: std::time::Duration) -> String {
    let now = DateTime::<Utc>::UNIX_EPOCH + chrono::TimeDelta::seconds(1 << 40);
    let then = chrono::TimeDelta::from_std(d)
        .ok()
        .and_then(|d| now.checked_sub_signed(d));
    age(now, then)
}

/// Who said it, as the why line names it.
fn said_by(a: &ActivityView) -> &'static str {
    match a.source {
        ActivitySource::Hook => "the hook reported",
        ActivitySource::Answer => "greenroom's answer left it",
        ActivitySource::Tmux => "tmux shows",
        ActivitySource::Maestro => "Maestro says",
        ActivitySource::AgentOrchestrator => "AO says",
        ActivitySource::ClaudeRegistry => "Claude Code's record says",
        ActivitySource::Nothing => "nothing reported",
    }
}

/// The why line: which rule decided the health, with the facts it used.
/// Its ages are times (the view states them), so the line is the same
/// from one second to the next.
pub fn explain(
    rule: Rule,
    health: Health,
    i: &HealthInputs<'_>,
    a: &ActivityView,
    t: &Thresholds,
) -> Why {
    let why = Why::default();
    // "<who> <state> 4m ago<end>"
    let said = |what: &str, end: &str| {
        Why::default()
            .words(format!("{} {what} ", said_by(a)))
            .age(a.since)
            .words(format!(" ago{end}"))
    };
    let why = match rule {
        Rule::EndedFailed => why.words(match i.exit_status.filter(|s| *s != 0) {
            Some(code) => format!("exited with status {code}: errored"),
            None if *i.activity == Activity::Error => match &a.detail {
                Some(how) => format!("{}: errored", fit(how, SAID_CHARS)),
                None => "ended with an error: errored".into(),
            },
            None => "not running, and a Maestro phase failed: errored".into(),
        }),
        Rule::EndedDone => why.words("not running, and its orchestration completed: done"),
        Rule::Ended => why.words(format!("status {}: {health}", i.status)),
        Rule::ReportedError => said("Error", ": errored"),
        Rule::OrchestrationFailed => {
            why.words("a Maestro phase failed and its errors are not resolved: errored")
        }
        Rule::AwaitingInput => said("AwaitingInput", ": waiting"),
        Rule::Silent => {
            let what = match i.activity {
                // The agent said it works and has said nothing since: the
                // silence, and the last thing it said.
                Activity::Active => {
                    let last = match i.said {
                        // The agent's own text: one bounded line.
                        Some(said) => fit(said, SAID_CHARS),
                        None => format!("{} Active", said_by(a)),
                    };
                    why.words("no word from the agent for ")
                        .age(i.last_signal_at)
                        .words(format!("; last: {last}"))
                }
                _ => why
                    .words("a Maestro phase in progress, no output or report for ")
                    .age(i.last_signal_at),
            };
            what.words(format!(": stuck after {}", span(t.stuck_after)))
        }
        Rule::Working => match a.source {
            ActivitySource::Tmux => why
                .words("pane output ")
                .age(a.since)
                .words(format!(" ago (within {}): active", span(t.active_window))),
            _ => said("Active", ": active"),
        },
        Rule::PhaseInProgress => why.words("Maestro says a phase is in progress: active"),
        Rule::OrchestrationDone => why.words("Maestro says the orchestration completed: done"),
        Rule::Resting => match a.source {
            ActivitySource::Tmux if a.detail.as_deref() == Some(SILENT_DETAIL) => why
                .words("the screen stopped moving ")
                .age(a.since)
                .words(" ago after an Active report: idle"),
            ActivitySource::Tmux => why
                .words("no pane output for ")
                .age(a.since)
                .words(format!(" (over {}): idle", span(t.active_window))),
            ActivitySource::Nothing => why.words("no report and no pane: idle"),
            _ => said(&a.state.to_string(), ": idle"),
        },
        Rule::Unseen { done } => super::ready::why(done, i),
    };
    match super::restates::restates(rule, i, a) {
        true => why.restating(),
        false => why,
    }
}

/// The status with its source and age: `waiting · hook · 4s`,
/// `active · tmux · 1s`, `stuck · silent 11m`, `done · Maestro`,
/// `needs_input · AO`.
pub fn provenance(s: &Session, now: DateTime<Utc>) -> String {
    if let Some(word) = s
        .agent_orchestrator
        .as_ref()
        .and_then(|a| a.status.as_ref())
    {
        return format!("{word} · AO");
    }
    // Maestro decided it: its session's row, a failed phase, a finished run.
    let by_maestro = s.orchestration.as_deref().is_some_and(|o| match s.health {
        Health::Errored => o.has_unresolved_failure() && s.activity.state != Activity::Error,
        Health::Done => true,
        _ => false,
    });
    if s.source == Source::Maestro || by_maestro {
        return format!("{} · Maestro", s.health);
    }
    if s.health == Health::Stuck {
        return format!("stuck · silent {}", age(now, s.last_activity_at));
    }
    if !s.status.is_live() || s.activity.source == ActivitySource::Nothing {
        return s.health.to_string();
    }
    match s.activity.since {
        Some(_) => format!(
            "{} · {} · {}",
            s.health,
            s.activity.source.label(),
            age(now, s.activity.since)
        ),
        None => format!("{} · {}", s.health, s.activity.source.label()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::health::decide;
    use crate::health::test_clock::{ago, now, running, view};
    use crate::model::{Orchestration, Phase, PhaseId, PhaseStatus, Status};

    /// The health, and the why line, for one set of inputs.
    fn why(
        status: Status,
        exit: Option<i32>,
        a: &ActivityView,
        o: Option<&Orchestration>,
        signal_min: i64,
    ) -> (Health, String) {
        let t = Thresholds::default();
        let i = HealthInputs {
            status: &status,
            exit_status: exit,
            orchestration: o,
            turn_ended_at: crate::health::turn_ended_at(a),
            looked_at: ago(0),
            ..running(&a.state, ago(signal_min))
        };
        let (h, rule) = decide(i, now(), &t);
        (h, explain(rule, h, &i, a, &t).at(now()))
    }

    fn orchestration(status: &str, phase: PhaseStatus) -> Orchestration {
        Orchestration {
            status: Some(status.into()),
            phases: vec![Phase {
                id: PhaseId::Number(1),
                name: None,
                status: phase,
                agents: vec![],
                errors: vec![],
                retry_count: 0,
                warnings: vec![],
                started: None,
                completed: None,
            }],
            ..Default::default()
        }
    }

    /// Status, exit status, activity, orchestration, minutes since the last
    /// signal; the health and the why line expected.
    type Case = (
        Status,
        Option<i32>,
        ActivityView,
        Option<Orchestration>,
        i64,
        Health,
        &'static str,
    );

    #[test]
    fn one_line_per_rule() {
        use Activity::*;
        use ActivitySource::{Hook, Tmux};
        let run = Status::Running;
        let cases: Vec<Case> = vec![
            (
                Status::Exited,
                Some(2),
                view(Idle, Hook, 3),
                None,
                3,
                Health::Errored,
                "exited with status 2: errored",
            ),
            (
                Status::Dormant,
                None,
                view(Idle, Hook, 3),
                Some(orchestration("completed", PhaseStatus::Completed)),
                3,
                Health::Done,
                "not running, and its orchestration completed: done",
            ),
            (
                Status::Killed,
                None,
                view(Idle, Hook, 3),
                None,
                3,
                Health::Killed,
                "status Killed: killed",
            ),
            (
                run.clone(),
                None,
                view(Error, Hook, 4),
                None,
                4,
                Health::Errored,
                "the hook reported Error 4m ago: errored",
            ),
            (
                run.clone(),
                None,
                view(Active, Tmux, 1),
                Some(orchestration("in_progress", PhaseStatus::Failed)),
                1,
                Health::Errored,
                "a Maestro phase failed and its errors are not resolved: errored",
            ),
            (
                run.clone(),
                None,
                view(AwaitingInput, Hook, 2),
                None,
                2,
                Health::Waiting,
                "the hook reported AwaitingInput 2m ago: waiting",
            ),
            (
                run.clone(),
                None,
                view(Active, Hook, 12),
                None,
                12,
                Health::Stuck,
                "no word from the agent for 12m; last: the hook reported Active: stuck after 10m",
            ),
            (
                run.clone(),
                None,
                view(Active, Tmux, 0),
                None,
                0,
                Health::Active,
                "pane output 0s ago (within 30s): active",
            ),
            (
                run.clone(),
                None,
                view(Active, Hook, 1),
                None,
                1,
                Health::Active,
                "the hook reported Active 1m ago: active",
            ),
            (
                run.clone(),
                None,
                view(Idle, Tmux, 2),
                Some(orchestration("in_progress", PhaseStatus::InProgress)),
                2,
                Health::Active,
                "Maestro says a phase is in progress: active",
            ),
            (
                run.clone(),
                None,
                view(Idle, Tmux, 2),
                Some(orchestration("completed", PhaseStatus::Completed)),
                2,
                Health::Done,
                "Maestro says the orchestration completed: done",
            ),
            (
                run.clone(),
                None,
                view(Idle, Tmux, 5),
                None,
                5,
                Health::Idle,
                "no pane output for 5m (over 30s): idle",
            ),
            (
                run.clone(),
                None,
                view(Idle, Hook, 5),
                None,
                5,
                Health::Idle,
                "the hook reported Idle 5m ago: idle",
            ),
        ];
        for (status, exit, a, o, signal, health, line) in cases {
            assert_eq!(
                why(status, exit, &a, o.as_ref(), signal),
                (health, line.to_owned())
            );
        }
        // What it last said, as the catalog words it: one bounded line.
        let a = view(Active, Hook, 12);
        let i = HealthInputs {
            said: Some("Bash `npm test\n`"),
            ..running(&a.state, ago(12))
        };
        let t = Thresholds::default();
        let (h, rule) = decide(i, now(), &t);
        assert_eq!(
            (h, explain(rule, h, &i, &a, &t).at(now())),
            (
                Health::Stuck,
                "no word from the agent for 12m; last: Bash `npm test `: stuck after 10m".into()
            )
        );
        let phase = orchestration("in_progress", PhaseStatus::InProgress);
        assert_eq!(
            why(run.clone(), None, &view(Idle, Tmux, 12), Some(&phase), 12).1,
            "a Maestro phase in progress, no output or report for 12m: stuck after 10m"
        );
        let mut silent = view(Idle, Tmux, 1);
        silent.detail = Some(SILENT_DETAIL.into());
        assert_eq!(
            why(run, None, &silent, None, 1).1,
            "the screen stopped moving 1m ago after an Active report: idle"
        );
    }
}
