//! Ready for the operator: an agent that finished its turn (idle by its own
//! word, or done) after the operator last looked at it. The moment an agent
//! most often needs them is a calm idle; this makes it attention until they
//! look or the agent starts again. Pure: no clock is read (a look and a
//! finished turn are both times the inputs carry).

use chrono::{DateTime, TimeDelta, Utc};

use super::{HealthInputs, Rule, Thresholds};
use crate::model::{Activity, ActivitySource, ActivityView, Health, Status, Why};

/// A turn that ends this soon after a look was seen ending: the operator
/// who just answered a prompt (the agent stops on a refusal), attached or
/// kept the row selected is still there when the agent's word arrives.
pub const LOOK_LASTS: TimeDelta = TimeDelta::seconds(5);

/// When the agent said, in its own word, that its turn ended: an idle its
/// hook reported or Claude Code's own record says. Idle inferred from a
/// still pane is no word of the agent's (a program may just be slow), and
/// an idle greenroom's answer left is the operator's own doing.
pub fn turn_ended_at(a: &ActivityView) -> Option<DateTime<Utc>> {
    let own_word = matches!(
        a.source,
        ActivitySource::Hook | ActivitySource::ClaudeRegistry
    );
    (a.state == Activity::Idle && own_word)
        .then_some(a.since)
        .flatten()
}

/// The rule that makes a finished session ready, when it holds: it is idle
/// by its agent's word, or done, at a time later than the operator's last
/// look and the moment it lasts ([`LOOK_LASTS`]; never looked: any time).
/// Off with `ready_is_attention = false`.
pub(super) fn unseen(health: Health, i: &HealthInputs<'_>, t: &Thresholds) -> Option<Rule> {
    if !t.ready_is_attention {
        return None;
    }
    // Done is ready only while its agent runs: an orchestration that ended
    // with its session, or one with no session at all (a lone Maestro
    // row), leaves no agent to instruct.
    let done = match health {
        Health::Idle => false,
        Health::Done if *i.status == Status::Running => true,
        _ => return None,
    };
    let finished = finished_at(done, i)?;
    i.looked_at
        .is_none_or(|looked| finished > looked + LOOK_LASTS)
        .then_some(Rule::Unseen { done })
}

/// The why line of a ready session: what finished, how long ago, and that
/// the operator has not looked since (or at all).
pub(super) fn why(done: bool, i: &HealthInputs<'_>) -> Why {
    let what = if done {
        "its orchestration completed "
    } else {
        "finished its turn "
    };
    let looked = match i.looked_at {
        Some(_) => "you have not looked since",
        None => "you have not looked at it",
    };
    Why::default()
        .words(what)
        .age(finished_at(done, i))
        .words(format!(" ago; {looked}: ready"))
}

/// When it finished: its turn's end, or (done) the later of that and its
/// orchestration's last update.
pub(super) fn finished_at(done: bool, i: &HealthInputs<'_>) -> Option<DateTime<Utc>> {
    match done {
        false => i.turn_ended_at,
        true => i
            .turn_ended_at
            .max(i.orchestration.and_then(|o| o.updated_at)),
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeDelta;

    use super::*;
    use crate::health::decide;
    use crate::health::test_clock::{ago, now, running, view};
    use crate::model::Orchestration;

    /// The health of a running session whose agent shows `a`, last looked
    /// at `looked_min` minutes ago.
    fn health_of(a: &ActivityView, looked_min: Option<i64>, t: &Thresholds) -> Health {
        health_with(a, None, looked_min, t)
    }

    fn health_with(
        a: &ActivityView,
        o: Option<&Orchestration>,
        looked_min: Option<i64>,
        t: &Thresholds,
    ) -> Health {
        let i = HealthInputs {
            orchestration: o,
            turn_ended_at: turn_ended_at(a),
            looked_at: looked_min.and_then(ago),
            ..running(&a.state, a.since)
        };
        decide(i, now(), t).0
    }

    #[test]
    fn idle_by_its_own_word_after_the_last_look_is_ready() {
        let t = Thresholds::default();
        let hook = view(Activity::Idle, ActivitySource::Hook, 3);
        assert_eq!(health_of(&hook, Some(10), &t), Health::Ready);
        assert_eq!(health_of(&hook, None, &t), Health::Ready);
        let record = view(Activity::Idle, ActivitySource::ClaudeRegistry, 3);
        assert_eq!(health_of(&record, Some(10), &t), Health::Ready);
    }

    #[test]
    fn idle_inferred_or_left_by_an_answer_is_not_ready() {
        let t = Thresholds::default();
        for source in [ActivitySource::Tmux, ActivitySource::Answer] {
            let a = view(Activity::Idle, source, 3);
            assert_eq!(health_of(&a, Some(10), &t), Health::Idle, "{source:?}");
        }
    }

    #[test]
    fn a_look_after_the_turn_ended_makes_it_idle_again() {
        let t = Thresholds::default();
        let a = view(Activity::Idle, ActivitySource::Hook, 3);
        assert_eq!(health_of(&a, Some(1), &t), Health::Idle);
        // Looked at the very moment it ended: seen.
        assert_eq!(health_of(&a, Some(3), &t), Health::Idle);
        // Ended a few seconds after the look (an answer's refusal, a
        // quick reply the operator watched): seen too.
        let soon = HealthInputs {
            turn_ended_at: a.since,
            looked_at: a.since.map(|s| s - TimeDelta::seconds(4)),
            ..running(&a.state, a.since)
        };
        assert_eq!(decide(soon, now(), &t).0, Health::Idle);
    }

    #[test]
    fn working_or_asking_is_never_ready() {
        let t = Thresholds::default();
        // Even with an earlier turn's end unseen: the agent's now counts.
        for (state, health) in [
            (Activity::Active, Health::Active),
            (Activity::AwaitingInput, Health::Waiting),
            (Activity::Error, Health::Errored),
        ] {
            let i = HealthInputs {
                turn_ended_at: ago(5),
                looked_at: ago(10),
                ..running(&state, ago(1))
            };
            assert_eq!(decide(i, now(), &t).0, health, "{state:?}");
        }
    }

    #[test]
    fn a_finished_orchestration_after_the_look_is_ready() {
        let t = Thresholds::default();
        let o = Orchestration {
            status: Some("completed".into()),
            updated_at: ago(2),
            ..Default::default()
        };
        let a = view(Activity::Idle, ActivitySource::Tmux, 2);
        assert_eq!(health_with(&a, Some(&o), Some(5), &t), Health::Ready);
        assert_eq!(health_with(&a, Some(&o), Some(1), &t), Health::Done);
        // No agent runs (a lone Maestro row, an ended session): done.
        for status in [Status::Unknown("Unknown".into()), Status::Dormant] {
            let i = HealthInputs {
                status: &status,
                orchestration: Some(&o),
                ..running(&a.state, a.since)
            };
            assert_eq!(decide(i, now(), &t).0, Health::Done, "{status:?}");
        }
    }

    #[test]
    fn the_why_line_says_what_finished_and_that_nobody_looked() {
        let t = Thresholds::default();
        let a = view(Activity::Idle, ActivitySource::Hook, 3);
        for (looked, line) in [
            (
                ago(10),
                "finished its turn 3m ago; you have not looked since: ready",
            ),
            (
                None,
                "finished its turn 3m ago; you have not looked at it: ready",
            ),
        ] {
            let i = HealthInputs {
                turn_ended_at: turn_ended_at(&a),
                looked_at: looked,
                ..running(&a.state, ago(3))
            };
            let (h, rule) = decide(i, now(), &t);
            let why = crate::health::explain(rule, h, &i, &a, &t);
            assert_eq!((h, why.at(now())), (Health::Ready, line.into()));
        }
    }

    #[test]
    fn the_off_switch_leaves_it_idle() {
        let t = Thresholds {
            ready_is_attention: false,
            ..Thresholds::default()
        };
        let a = view(Activity::Idle, ActivitySource::Hook, 3);
        assert_eq!(health_of(&a, Some(10), &t), Health::Idle);
        assert_eq!(health_of(&a, None, &t), Health::Idle);
    }
}
