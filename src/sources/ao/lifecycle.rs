//! What Agent Orchestrator's lifecycle states mean for triage. AO decides
//! some states itself (it saw the agent ask, stall, fail CI, finish): those
//! decide the health; the rest leave it to tmux, as for any session.

use crate::model::Health;

/// The health AO's own lifecycle state implies, if it implies one:
/// `needs_input` waits for the operator, `stuck` is stuck, `errored` and
/// `ci_failed` are errors, `merged` and `done` are done, `killed` and
/// `terminated` were killed. Any other state (working, pr_open,
/// review_pending, ...) says nothing about the agent right now.
pub fn lifecycle_health(state: &str) -> Option<Health> {
    match state.trim() {
        "needs_input" => Some(Health::Waiting),
        "stuck" => Some(Health::Stuck),
        "errored" | "ci_failed" => Some(Health::Errored),
        "merged" | "done" => Some(Health::Done),
        "killed" | "terminated" => Some(Health::Killed),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_state_ao_spells() {
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
            ("idle", None),
            ("detecting", None),
            ("not_started", None),
        ];
        for (state, health) in cases {
            assert_eq!(lifecycle_health(state), health, "{state}");
        }
    }
}
