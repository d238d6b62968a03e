//! A `Session` row built in one line: a live greenroom session, idle, with
//! the fields a test does not care about filled plainly. Tests change only
//! what differs (`session("alpha").health(Health::Waiting).build()`).

use std::path::PathBuf;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use greenroom::model::{
    Activity, ActivityView, Health, Orchestration, Session, Source, Status, Usage,
};

pub struct SessionBuilder(Session);

/// A live greenroom session named `name`: id `id-<name>`, tmux session
/// `gr-<name>`, folder `/work/<name>`, agent claude, idle.
pub fn session(name: &str) -> SessionBuilder {
    SessionBuilder(Session {
        id: format!("id-{name}"),
        name: name.to_owned(),
        source: Source::Greenroom,
        status: Status::Running,
        health: Health::Idle,
        cwd: PathBuf::from(format!("/work/{name}")),
        agent: Some("claude".into()),
        tmux_session: Some(format!("gr-{name}")),
        created_at: None,
        last_focused_at: None,
        last_activity_at: None,
        agent_session_id: None,
        activity: ActivityView {
            state: Activity::Idle,
            detail: None,
            since: None,
            reported: false,
            source: greenroom::model::ActivitySource::Tmux,
        },
        orchestration: None,
        active_agent: None,
        usage: None,
        branch: None,
        agent_orchestrator: None,
        archived: false,
        problems: Vec::new(),
        adopted: None,
        changes: None,
        own_worktree: None,
        snoozed_until: None,
        waiting_for: None,
        why: Default::default(),
        host: None,
    })
}

impl SessionBuilder {
    pub fn build(self) -> Session {
        self.0
    }

    pub fn id(mut self, id: &str) -> Self {
        self.0.id = id.to_owned();
        self
    }

    pub fn health(mut self, h: Health) -> Self {
        self.0.health = h;
        self
    }

    pub fn status(mut self, s: Status) -> Self {
        self.0.status = s;
        self
    }

    pub fn source(mut self, s: Source) -> Self {
        self.0.source = s;
        self
    }

    pub fn archived(mut self) -> Self {
        self.0.archived = true;
        self
    }

    pub fn cwd(mut self, cwd: &str) -> Self {
        self.0.cwd = PathBuf::from(cwd);
        self
    }

    pub fn agent(mut self, agent: Option<&str>) -> Self {
        self.0.agent = agent.map(str::to_owned);
        self
    }

    pub fn tmux(mut self, name: Option<&str>) -> Self {
        self.0.tmux_session = name.map(str::to_owned);
        self
    }

    pub fn created(mut self, at: Option<DateTime<Utc>>) -> Self {
        self.0.created_at = at;
        self
    }

    pub fn focused(mut self, at: Option<DateTime<Utc>>) -> Self {
        self.0.last_focused_at = at;
        self
    }

    pub fn last_activity(mut self, at: Option<DateTime<Utc>>) -> Self {
        self.0.last_activity_at = at;
        self
    }

    pub fn branch(mut self, b: &str) -> Self {
        self.0.branch = Some(b.to_owned());
        self
    }

    /// What the agent is doing, since when, and whether a hook said so.
    pub fn activity(
        mut self,
        state: Activity,
        since: Option<DateTime<Utc>>,
        reported: bool,
    ) -> Self {
        let source = match reported {
            true => greenroom::model::ActivitySource::Hook,
            false => greenroom::model::ActivitySource::Tmux,
        };
        self.0.activity = ActivityView {
            state,
            detail: None,
            since,
            reported,
            source,
        };
        self
    }

    pub fn detail(mut self, d: &str) -> Self {
        self.0.activity.detail = Some(d.to_owned());
        self
    }

    pub fn orchestration(mut self, o: Orchestration) -> Self {
        self.0.orchestration = Some(Arc::new(o));
        self
    }

    pub fn usage(mut self, u: Usage) -> Self {
        self.0.usage = Some(u);
        self
    }
}
