//! Writing a state file as Maestro does: the frontmatter as JSON (newer
//! Maestro's `JSON.stringify(data, null, 2)`; the reader takes it as YAML),
//! replaced atomically; the finished file moved into `archive/`; the hook
//! state that names the agent working now. `greenroom demo-agent` writes
//! through these, and a round-trip test holds them to the reader, so the
//! demo cannot drift from what greenroom reads.

use std::fs;
use std::path::Path;

use serde_json::{Value, json};

use super::{ACTIVE_AGENT_FILE, ACTIVE_FILE};
use crate::model::{Orchestration, Phase};
use crate::sources::sidecar::write_atomic;

/// The state file's text for an orchestration.
pub fn render_state(o: &Orchestration) -> String {
    let mut frontmatter = json!({
        "session_id": o.session_id,
        "task": o.task,
        "created": o.created,
        "updated": o.updated,
        "status": o.status,
        "workflow_mode": o.workflow_mode,
        "current_phase": o.current_phase,
        "total_phases": o.total_phases,
        "execution_mode": "sequential",
        "phases": o.phases.iter().map(phase).collect::<Vec<_>>(),
    });
    if let (Some(t), Value::Object(map)) = (&o.token_usage, &mut frontmatter) {
        let by_agent: serde_json::Map<String, Value> = t
            .by_agent
            .iter()
            .map(|(agent, c)| {
                let counts = json!({"input": c.input, "output": c.output, "cached": c.cached});
                (agent.clone(), counts)
            })
            .collect();
        map.insert(
            "token_usage".into(),
            json!({
                "total_input": t.input,
                "total_output": t.output,
                "total_cached": t.cached,
                "by_agent": by_agent,
            }),
        );
    }
    // A Value always serialises.
    let text = serde_json::to_string_pretty(&frontmatter).unwrap_or_default();
    let task = o.task.as_deref().unwrap_or("Maestro");
    format!("---\n{text}\n---\n\n# {task} Orchestration Log\n")
}

fn phase(p: &Phase) -> Value {
    let errors: Vec<Value> = p
        .errors
        .iter()
        .map(|e| {
            json!({
                "agent": e.agent,
                "timestamp": e.timestamp,
                "type": e.kind,
                "message": e.message,
                "resolution": e.resolution,
                "resolved": e.resolved,
            })
        })
        .collect();
    let mut value = json!({
        "id": p.id,
        "name": p.name,
        "status": p.status.as_str(),
        "agents": p.agents,
        "parallel": false,
        "started": p.started,
        "completed": p.completed,
        "blocked_by": [],
        "errors": errors,
        "retry_count": p.retry_count,
    });
    if let (false, Value::Object(map)) = (p.warnings.is_empty(), &mut value) {
        map.insert(
            "downstream_context".into(),
            json!({ "warnings": p.warnings }),
        );
    }
    value
}

/// Replaces `<state_folder>/active-session.md` atomically.
pub fn write_state(state_folder: &Path, o: &Orchestration) -> Result<(), String> {
    write_atomic(&state_folder.join(ACTIVE_FILE), render_state(o).as_bytes())
        .map_err(|e| e.to_string())
}

/// Moves the active file to `archive/<name>.md`, as Maestro does when an
/// orchestration completes.
pub fn archive_state(state_folder: &Path, name: &str) -> Result<(), String> {
    let archive = state_folder.join("archive");
    fs::create_dir_all(&archive)
        .map_err(|e| format!("cannot create {}: {e}", archive.display()))?;
    let to = archive.join(format!("{name}.md"));
    fs::rename(state_folder.join(ACTIVE_FILE), &to)
        .map_err(|e| format!("cannot archive into {}: {e}", to.display()))
}

/// Names the agent working now for one agent session (Maestro's hooks'
/// `<hooks>/<session>/active-agent`); `None` removes the name.
pub fn write_active_agent(
    hooks_dir: &Path,
    agent_session_id: &str,
    agent: Option<&str>,
) -> Result<(), String> {
    let dir = hooks_dir.join(agent_session_id);
    let file = dir.join(ACTIVE_AGENT_FILE);
    match agent {
        Some(agent) => {
            fs::create_dir_all(&dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            fs::write(&file, format!("{agent}\n"))
                .map_err(|e| format!("cannot write {}: {e}", file.display()))
        }
        None => match fs::remove_file(&file) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(format!("cannot remove {}: {e}", file.display()))
            }
            _ => Ok(()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{PhaseError, PhaseId, PhaseStatus, TokenCounts, TokenUsage};

    fn sample() -> Orchestration {
        Orchestration {
            session_id: Some("2026-03-14-aws".into()),
            task: Some("Upgrade \"staging\"".into()),
            status: Some("in_progress".into()),
            workflow_mode: Some("standard".into()),
            current_phase: Some(PhaseId::Text("2.1".into())),
            total_phases: Some(2),
            created: Some("2026-03-14T10:00:00Z".into()),
            updated: Some("2026-03-14T10:05:00Z".into()),
            phases: vec![
                Phase {
                    id: PhaseId::Number(1),
                    name: Some("Plan".into()),
                    status: PhaseStatus::Completed,
                    agents: vec!["architect".into()],
                    errors: vec![],
                    retry_count: 0,
                    warnings: vec!["check the lock".into()],
                    started: Some("2026-03-14T10:00:00Z".into()),
                    completed: Some("2026-03-14T10:02:00Z".into()),
                },
                Phase {
                    id: PhaseId::Text("2.1".into()),
                    name: Some("Rewrite: modules".into()),
                    status: PhaseStatus::Failed,
                    agents: vec!["devops-engineer".into()],
                    errors: vec![PhaseError {
                        agent: Some("devops-engineer".into()),
                        timestamp: Some("2026-03-14T10:04:00Z".into()),
                        kind: Some("rate_limit".into()),
                        message: Some("429 rate_limit_error".into()),
                        resolution: None,
                        resolved: false,
                    }],
                    retry_count: 1,
                    warnings: vec![],
                    started: Some("2026-03-14T10:02:00Z".into()),
                    completed: None,
                },
            ],
            token_usage: Some(TokenUsage {
                input: 10,
                output: 20,
                cached: 30,
                by_agent: [(
                    "architect".to_owned(),
                    TokenCounts {
                        input: 10,
                        output: 20,
                        cached: 30,
                    },
                )]
                .into(),
            }),
            ..Orchestration::default()
        }
    }

    #[test]
    fn what_is_written_reads_back_the_same() {
        let o = sample();
        let path = Path::new("/ws/docs/maestro/state/active-session.md");
        let read =
            super::super::parse_state(&render_state(&o), path, Path::new("/ws"), false).unwrap();
        assert_eq!(read.contradictions, Vec::<String>::new());
        let mut expected = o;
        expected.created_at = expected
            .created
            .as_deref()
            .and_then(super::super::parse_time);
        expected.updated_at = expected
            .updated
            .as_deref()
            .and_then(super::super::parse_time);
        expected.path = path.to_path_buf();
        expected.workspace = "/ws".into();
        assert_eq!(read, expected);
    }

    #[test]
    fn the_active_agent_is_named_and_cleared_where_the_reader_looks() {
        let dir = tempfile::tempdir().unwrap();
        write_active_agent(dir.path(), "abc", Some("coder")).unwrap();
        assert_eq!(
            super::super::read_active_agent(dir.path(), "abc").as_deref(),
            Some("coder")
        );
        write_active_agent(dir.path(), "abc", None).unwrap();
        assert_eq!(super::super::read_active_agent(dir.path(), "abc"), None);
    }
}
