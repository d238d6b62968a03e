//! The Maestro orchestration a demo agent runs: changed by its steps,
//! written through greenroom's state writer after each change, with the
//! agent working now named in Maestro's hook state.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use chrono::{SecondsFormat, Utc};

use super::{Maestro, Task};
use crate::model::{Orchestration, Phase, PhaseError, PhaseId, PhaseStatus, TokenUsage};
use crate::sources::maestro;

pub(super) struct MaestroState {
    /// The workspace's state folder, when it has one (agents that do not
    /// orchestrate have none, and write nothing).
    state_folder: Option<PathBuf>,
    hooks: Option<PathBuf>,
    /// The agent's session id, under which the hook state names the agent.
    sid: String,
    orchestration: Option<Orchestration>,
    /// How often each task ran: the same task again is a new Maestro session.
    tasks_run: HashMap<&'static str, u32>,
}

impl MaestroState {
    pub(super) fn new(cwd: &Path, hooks: Option<PathBuf>, sid: &str) -> Self {
        let state = maestro::location_for_workspace(cwd, maestro::DEFAULT_STATE_DIR).state_folder;
        Self {
            state_folder: state.is_dir().then_some(state),
            hooks,
            sid: sid.to_owned(),
            orchestration: None,
            tasks_run: HashMap::new(),
        }
    }

    /// One model call's tokens, counted for the phase running now.
    pub(super) fn spend(&mut self, input: u64, output: u64, cached: u64) {
        let Some(o) = &mut self.orchestration else {
            return;
        };
        let agent = current_phase(o).and_then(|p| p.agents.first().cloned());
        let t = o.token_usage.get_or_insert_with(TokenUsage::default);
        t.input += input;
        t.output += output;
        t.cached += cached;
        if let Some(agent) = agent {
            let c = t.by_agent.entry(agent).or_default();
            c.input += input;
            c.output += output;
            c.cached += cached;
        }
    }

    pub(super) fn change(&mut self, change: &Maestro) {
        let now = now();
        if let Maestro::New(task) = change {
            self.orchestration = Some(self.new_orchestration(task));
            return;
        }
        if let Maestro::Archive = change {
            if let (Some(folder), Some(o)) = (&self.state_folder, self.orchestration.take()) {
                let name = o.session_id.unwrap_or_default();
                if let Err(e) = maestro::archive_state(folder, &name) {
                    tracing::debug!(error = %e, "demo state not archived");
                }
            }
            return;
        }
        let mut active_agent = None;
        let Some(o) = &mut self.orchestration else {
            return;
        };
        match change {
            Maestro::Begin(n) => {
                o.current_phase = Some(PhaseId::Number(*n as i64));
                if let Some(p) = phase(o, *n) {
                    p.status = PhaseStatus::InProgress;
                    p.started = Some(now.clone());
                    active_agent = Some(p.agents.first().cloned());
                }
            }
            Maestro::Finish(n) => {
                if let Some(p) = phase(o, *n) {
                    p.status = PhaseStatus::Completed;
                    p.completed = Some(now.clone());
                }
            }
            Maestro::Fail(n, kind, message) => {
                if let Some(p) = phase(o, *n) {
                    p.status = PhaseStatus::Failed;
                    p.errors.push(PhaseError {
                        agent: p.agents.first().cloned(),
                        timestamp: Some(now.clone()),
                        kind: Some((*kind).to_owned()),
                        message: Some((*message).to_owned()),
                        resolution: None,
                        resolved: false,
                    });
                }
            }
            Maestro::Retry(n) => {
                if let Some(p) = phase(o, *n) {
                    p.status = PhaseStatus::InProgress;
                    p.retry_count += 1;
                    for e in &mut p.errors {
                        e.resolved = true;
                        e.resolution = Some("retried after the backoff".into());
                    }
                }
            }
            Maestro::Complete => {
                o.status = Some("completed".into());
                active_agent = Some(None);
            }
            Maestro::New(_) | Maestro::Archive => {}
        }
        o.updated = Some(now);
        if let Some(agent) = active_agent {
            self.name_active_agent(agent.as_deref());
        }
        self.write();
    }

    fn new_orchestration(&mut self, task: &'static Task) -> Orchestration {
        let runs = self.tasks_run.entry(task.slug).or_insert(0);
        *runs += 1;
        let date = Utc::now().format("%Y-%m-%d");
        let session_id = match *runs {
            1 => format!("{date}-{}", task.slug),
            n => format!("{date}-{}-{n}", task.slug),
        };
        let phases = task
            .phases
            .iter()
            .zip(1..)
            .map(|((name, agent), id)| Phase {
                id: PhaseId::Number(id),
                name: Some((*name).to_owned()),
                status: PhaseStatus::Pending,
                agents: vec![(*agent).to_owned()],
                errors: Vec::new(),
                retry_count: 0,
                warnings: Vec::new(),
                started: None,
                completed: None,
            })
            .collect();
        Orchestration {
            session_id: Some(session_id),
            task: Some(task.task.to_owned()),
            status: Some("in_progress".into()),
            workflow_mode: Some("standard".into()),
            current_phase: Some(PhaseId::Number(1)),
            total_phases: Some(task.phases.len() as u64),
            created: Some(now()),
            updated: Some(now()),
            phases,
            token_usage: Some(TokenUsage::default()),
            ..Orchestration::default()
        }
    }

    pub(super) fn write(&self) {
        if let (Some(folder), Some(o)) = (&self.state_folder, &self.orchestration)
            && let Err(e) = maestro::write_state(folder, o)
        {
            tracing::debug!(error = %e, "demo state not written");
        }
    }

    fn name_active_agent(&self, agent: Option<&str>) {
        if let Some(hooks) = &self.hooks
            && let Err(e) = maestro::write_active_agent(hooks, &self.sid, agent)
        {
            tracing::debug!(error = %e, "demo hook state not written");
        }
    }
}

fn now() -> String {
    Utc::now().to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn phase(o: &mut Orchestration, n: usize) -> Option<&mut Phase> {
    o.phases.get_mut(n.checked_sub(1)?)
}

fn current_phase(o: &Orchestration) -> Option<&Phase> {
    match &o.current_phase {
        Some(PhaseId::Number(n)) => o.phases.get(usize::try_from(*n).ok()?.checked_sub(1)?),
        _ => None,
    }
}
