//! The status word Agent Orchestrator itself shows for a v2 lifecycle.
//!
//! AO keeps its lifecycle in three parts (session, pull request, runtime)
//! and shows one word for all three: `deriveLegacyStatus` in AO's
//! `packages/core/src/lifecycle-state.ts` (ComposioHQ/agent-orchestrator,
//! commit 36fed87b2, the storage redesign). Its `readMetadata` shows a
//! stored `status` when the file has one (every legacy `key=value` file;
//! AO wrote it beside `statePayload` at each transition) and derives the
//! word when it has none (current JSON files, written without `status`).
//! The session's urgent and terminal states come first; a working or idle
//! session with a pull request is named for the pull request.

/// The parts of a lifecycle the word depends on, as written (absent: None).
#[derive(Debug, Clone, Copy, Default)]
pub struct LifecycleWords<'a> {
    pub session_state: Option<&'a str>,
    pub session_reason: Option<&'a str>,
    pub pr_state: Option<&'a str>,
    pub pr_reason: Option<&'a str>,
}

/// AO's word for the lifecycle, or None when it names no state AO knows:
/// AO's own schema refuses a lifecycle whose session state it does not
/// know, so an unknown word is shown as written rather than guessed at.
pub fn derive_status(l: LifecycleWords<'_>) -> Option<String> {
    let word = match l.session_state? {
        "not_started" => "spawning",
        "needs_input" => "needs_input",
        "stuck" => "stuck",
        "done" => "done",
        "detecting" => "detecting",
        "terminated" => terminated_word(l.session_reason),
        "working" | "idle" => return Some(pr_word(l).to_owned()),
        other => other,
    };
    Some(word.to_owned())
}

/// A terminated session's word comes from why it ended.
fn terminated_word(reason: Option<&str>) -> &'static str {
    match reason {
        Some("manually_killed" | "runtime_lost") => "killed",
        Some("auto_cleanup" | "pr_merged") => "cleanup",
        Some("error_in_process" | "probe_failure") => "errored",
        _ => "terminated",
    }
}

/// A working or idle session: its pull request's word when there is one.
fn pr_word(l: LifecycleWords<'_>) -> &'static str {
    match (l.pr_state, l.pr_reason) {
        (Some("merged"), _) => "merged",
        (Some("open"), Some("ci_failing")) => "ci_failed",
        (Some("open"), Some("changes_requested")) => "changes_requested",
        (Some("open"), Some("review_pending")) => "review_pending",
        (Some("open"), Some("approved")) => "approved",
        (Some("open"), Some("merge_ready")) => "mergeable",
        (Some("open"), _) => "pr_open",
        _ if l.session_state == Some("idle") => "idle",
        _ => "working",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// AO's own examples (lifecycle-state.test.ts, metadata.test.ts and
    /// migration-storage-v2.test.ts at 36fed87b2), then the rest of its
    /// switch. One case a line: session state, session reason, PR state,
    /// PR reason (`-`: absent), the word AO shows.
    const AO_TABLE: &str = "
        needs_input awaiting_user_input open review_pending needs_input
        stuck probe_failure open review_pending stuck
        terminated manually_killed open review_pending killed
        terminated auto_cleanup open review_pending cleanup
        terminated error_in_process open review_pending errored
        terminated pr_merged open review_pending cleanup
        idle awaiting_external_review open review_pending review_pending
        idle awaiting_external_review open merge_ready mergeable
        idle merged_waiting_decision merged merged merged
        working task_in_progress open review_pending review_pending
        done research_complete merged merge_complete done
        not_started spawn_requested none not_created spawning
        detecting - none - detecting
        terminated runtime_lost - - killed
        terminated probe_failure - - errored
        terminated agent_process_exited - - terminated
        working fixing_ci open ci_failing ci_failed
        working resolving_review_comments open changes_requested changes_requested
        idle - open approved approved
        working task_in_progress open in_progress pr_open
        working task_in_progress open - pr_open
        working task_in_progress closed closed_unmerged working
        idle pr_closed_waiting_decision closed closed_unmerged idle
        working task_in_progress none not_created working
        idle - - - idle
        paused - open review_pending paused";

    #[test]
    fn aos_own_examples() {
        let words: Vec<&str> = AO_TABLE.split_whitespace().collect();
        let word = |w: &'static str| Some(w).filter(|w| *w != "-");
        for case in words.chunks(5) {
            let l = LifecycleWords {
                session_state: word(case[0]),
                session_reason: word(case[1]),
                pr_state: word(case[2]),
                pr_reason: word(case[3]),
            };
            assert_eq!(derive_status(l).as_deref(), Some(case[4]), "{case:?}");
        }
    }

    #[test]
    fn no_session_state_says_nothing() {
        let l = LifecycleWords {
            pr_state: Some("open"),
            ..LifecycleWords::default()
        };
        assert_eq!(derive_status(l), None);
    }
}
