//! Places where a state file disagrees with itself. They are shown to the
//! operator as written; greenroom never decides which side is right.

use std::collections::BTreeMap;

use crate::model::{Orchestration, Phase, PhaseStatus};

/// How many phases one note names before it says "and N more".
const MAX_NAMED: usize = 5;

/// One short, plain-English note per issue. `listed` is how many phase
/// entries the file has (the model may hold fewer: the list is capped).
pub(super) fn contradictions(orch: &Orchestration, listed: usize) -> Vec<String> {
    let mut notes = Vec::new();
    let phases = &orch.phases;
    let status = orch.status.as_deref();

    if let Some(total) = orch.total_phases
        && usize::try_from(total).ok() != Some(listed)
    {
        let listed_text = match listed {
            1 => "1 phase is listed".to_owned(),
            n => format!("{n} phases are listed"),
        };
        notes.push(format!("total_phases says {total}, but {listed_text}"));
    }
    if orch.archived && status == Some("in_progress") {
        notes.push("archived, but its status is still in_progress".into());
    }

    // Ids compare as text so `3` and `"3"` are the same phase.
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for phase in phases {
        *seen.entry(phase.id.to_string()).or_default() += 1;
    }
    for (id, times) in seen.iter().filter(|(_, times)| **times > 1) {
        notes.push(format!("phase id {id} is used {times} times"));
    }

    if let Some(current) = orch.current_phase.as_ref().map(ToString::to_string) {
        let in_progress = names(phases, |p| p.status == PhaseStatus::InProgress);
        let current_in_progress = phases
            .iter()
            .any(|p| p.id.to_string() == current && p.status == PhaseStatus::InProgress);
        if !phases.is_empty() && !seen.contains_key(&current) {
            notes.push(format!("current_phase {current} names no listed phase"));
        }
        if !current_in_progress && !in_progress.is_empty() {
            notes.push(format!(
                "current_phase is {current}, but {} in progress",
                phase_list(&in_progress)
            ));
        }
    }

    let is_done = |p: &Phase| matches!(p.status, PhaseStatus::Completed | PhaseStatus::Skipped);
    if status == Some("completed") {
        let open: Vec<String> = phases
            .iter()
            .filter(|p| !is_done(p))
            .map(|p| format!("{} ({})", p.id, status_text(&p.status)))
            .collect();
        if !open.is_empty() {
            notes.push(format!(
                "status is completed, but these phases are not: {}",
                cap(&open)
            ));
        }
    }
    if status == Some("in_progress") && !phases.is_empty() && phases.iter().all(is_done) {
        let any_skipped = phases.iter().any(|p| p.status == PhaseStatus::Skipped);
        notes.push(format!(
            "status is in_progress, but every phase is {}",
            if any_skipped {
                "completed or skipped"
            } else {
                "completed"
            }
        ));
    }

    for phase in phases.iter().filter(|p| p.status == PhaseStatus::Pending) {
        if let Some(done_at) = phase.completed.as_deref().filter(|t| !t.trim().is_empty()) {
            notes.push(format!(
                "phase {} is pending but has a completed time ({done_at})",
                phase.id
            ));
        }
    }
    notes
}

fn names(phases: &[Phase], keep: impl Fn(&Phase) -> bool) -> Vec<String> {
    phases
        .iter()
        .filter(|p| keep(p))
        .map(|p| p.id.to_string())
        .collect()
}

/// "phase 3 is" / "phases 3, 4 are".
fn phase_list(ids: &[String]) -> String {
    match ids {
        [one] => format!("phase {one} is"),
        many => format!("phases {} are", cap(many)),
    }
}

fn cap(items: &[String]) -> String {
    let mut text = items
        .iter()
        .take(MAX_NAMED)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > MAX_NAMED {
        text.push_str(&format!(" and {} more", items.len() - MAX_NAMED));
    }
    text
}

fn status_text(status: &PhaseStatus) -> &str {
    match status.as_str() {
        "" => "no status",
        s => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PhaseId;

    fn phase(id: i64, status: &str) -> Phase {
        Phase {
            id: PhaseId::Number(id),
            name: None,
            status: PhaseStatus::from(status),
            agents: Vec::new(),
            errors: Vec::new(),
            retry_count: 0,
            warnings: Vec::new(),
            started: None,
            completed: None,
        }
    }

    fn orch(status: &str, current: Option<i64>, phases: Vec<Phase>) -> Orchestration {
        Orchestration {
            status: Some(status.into()),
            current_phase: current.map(PhaseId::Number),
            phases,
            ..Orchestration::default()
        }
    }

    #[test]
    fn consistent_file_has_no_notes() {
        let o = orch(
            "in_progress",
            Some(2),
            vec![phase(1, "completed"), phase(2, "in_progress")],
        );
        assert!(contradictions(&o, 2).is_empty());
    }

    #[test]
    fn total_and_archive_and_all_done() {
        let mut o = orch(
            "in_progress",
            Some(1),
            vec![phase(1, "completed"), phase(2, "skipped")],
        );
        o.total_phases = Some(1);
        o.archived = true;
        assert_eq!(
            contradictions(&o, 2),
            [
                "total_phases says 1, but 2 phases are listed",
                "archived, but its status is still in_progress",
                "status is in_progress, but every phase is completed or skipped",
            ]
        );
    }

    #[test]
    fn duplicate_and_current_phase_notes() {
        let o = orch(
            "in_progress",
            Some(1),
            vec![
                phase(1, "completed"),
                phase(3, "in_progress"),
                phase(3, "pending"),
            ],
        );
        assert_eq!(
            contradictions(&o, 3),
            [
                "phase id 3 is used 2 times",
                "current_phase is 1, but phase 3 is in progress"
            ]
        );
        let o = orch(
            "in_progress",
            Some(9),
            vec![phase(1, "in_progress"), phase(2, "in_progress")],
        );
        assert_eq!(
            contradictions(&o, 2),
            [
                "current_phase 9 names no listed phase",
                "current_phase is 9, but phases 1, 2 are in progress",
            ]
        );
    }

    #[test]
    fn current_phase_in_progress_allows_parallel_phases() {
        let o = orch(
            "in_progress",
            Some(2),
            vec![phase(2, "in_progress"), phase(3, "in_progress")],
        );
        assert!(contradictions(&o, 2).is_empty());
    }

    #[test]
    fn completed_with_open_phases_and_pending_with_completed_time() {
        let mut p = phase(2, "pending");
        p.completed = Some("2026-01-01T00:00:00Z".into());
        let o = orch("completed", None, vec![phase(1, "failed"), p, phase(3, "")]);
        assert_eq!(
            contradictions(&o, 3),
            [
                "status is completed, but these phases are not: 1 (failed), 2 (pending), 3 (no status)",
                "phase 2 is pending but has a completed time (2026-01-01T00:00:00Z)",
            ]
        );
    }

    #[test]
    fn cap_names_a_few() {
        let ids: Vec<String> = (1..=7).map(|i| i.to_string()).collect();
        assert_eq!(cap(&ids), "1, 2, 3, 4, 5 and 2 more");
    }
}
