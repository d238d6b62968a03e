//! Which why lines say nothing the detail pane does not say beside them
//! (the status with its source and age, the agent's own words, the failed
//! phase), so a view may leave them out. Pure.

use super::{HealthInputs, Rule, SILENT_DETAIL};
use crate::model::{ActivitySource, ActivityView};

/// Whether the why line of `rule` says only what the detail pane says
/// beside it: the status with its source and age (`active · hook · 4s`),
/// the agent's own last words, the failed phase. So: a report said again,
/// pane output within (or past) the active window, a status, what Maestro
/// says, an error with no exit status. A rule that judged something (an
/// exit status, silence, a screen that stopped after an Active report, no
/// report at all) adds to it, and so does any rule not named here.
pub(super) fn restates(rule: Rule, i: &HealthInputs<'_>, a: &ActivityView) -> bool {
    match rule {
        Rule::ReportedError
        | Rule::AwaitingInput
        | Rule::Working
        | Rule::Ended
        | Rule::OrchestrationFailed
        | Rule::PhaseInProgress
        | Rule::OrchestrationDone => true,
        Rule::Resting => match a.source {
            ActivitySource::Tmux => a.detail.as_deref() != Some(SILENT_DETAIL),
            ActivitySource::Nothing => false,
            _ => true,
        },
        Rule::EndedFailed => i.exit_status.filter(|s| *s != 0).is_none(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::health::test_clock::{ago, now, running, view};
    use crate::health::{Thresholds, decide, explain};
    use crate::model::{Activity, Status};

    /// A report said again adds nothing beside `waiting · hook · 2m`; a
    /// rule that judged something does.
    #[test]
    fn a_why_line_adds_only_what_the_status_does_not_say() {
        use Activity::*;
        use ActivitySource::{Hook, Nothing, Tmux};
        let adds = |status: Status, exit: Option<i32>, a: &ActivityView, signal: i64| {
            let t = Thresholds::default();
            let i = HealthInputs {
                status: &status,
                exit_status: exit,
                ..running(&a.state, ago(signal))
            };
            let (h, rule) = decide(i, now(), &t);
            explain(rule, h, &i, a, &t).adds()
        };
        let run = Status::Running;
        let restated = [
            (run.clone(), None, view(AwaitingInput, Hook, 2), 2),
            (run.clone(), None, view(Active, Hook, 1), 1),
            (run.clone(), None, view(Error, Hook, 4), 4),
            (run.clone(), None, view(Active, Tmux, 0), 0),
            (run.clone(), None, view(Idle, Tmux, 5), 5),
            (run.clone(), None, view(Idle, Hook, 5), 5),
            (Status::Killed, None, view(Idle, Hook, 3), 3),
            (Status::Exited, None, view(Error, Hook, 3), 3),
        ];
        for (status, exit, a, signal) in restated {
            assert!(!adds(status.clone(), exit, &a, signal), "{status:?} {a:?}");
        }
        let mut silent = view(Idle, Tmux, 1);
        silent.detail = Some(SILENT_DETAIL.into());
        let judged = [
            (Status::Exited, Some(2), view(Idle, Hook, 3), 3),
            (run.clone(), None, view(Active, Hook, 12), 12),
            (run.clone(), None, silent, 1),
            (run, None, view(Idle, Nothing, 1), 1),
        ];
        for (status, exit, a, signal) in judged {
            assert!(adds(status.clone(), exit, &a, signal), "{status:?} {a:?}");
        }
    }
}
