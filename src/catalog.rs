//! Every source merged into one list of session rows.
//!
//! The catalog holds what each file last said, keyed by path, and builds the
//! rows from that; a Maestro state file joins the sidecar whose `cwd` or
//! `current_cwd` is its workspace, and is a row of its own otherwise.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use crate::config::Config;
use crate::health::{self, HealthInputs, Report, TmuxFacts};
use crate::model::{Activity, ActivityView, Orchestration, Problem, Session, Source, Status};
use crate::sources::ao::{self, AoSession};
use crate::sources::maestro::{self, StateLocation};
use crate::sources::sidecar::{Sidecar, SidecarStore};

/// What the catalog knows, file by file.
#[derive(Debug, Default)]
pub struct Catalog {
    sidecars: BTreeMap<PathBuf, Sidecar>,
    archived_sidecars: BTreeMap<PathBuf, Sidecar>,
    /// State files by path, with the workspace each belongs to.
    maestro: BTreeMap<PathBuf, Orchestration>,
    ao: BTreeMap<PathBuf, AoSession>,
    problems: BTreeMap<PathBuf, String>,
    /// tmux facts by tmux session name; `None` until tmux has been asked.
    tmux: Option<BTreeMap<String, TmuxFacts>>,
    include_archive: bool,
}

/// The Maestro state folders greenroom reads: every session's cwd and
/// current cwd, and the configured extra state dirs.
pub fn maestro_locations<'a>(
    config: &Config,
    sidecars: impl Iterator<Item = &'a Sidecar>,
) -> Vec<StateLocation> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let mut push = |loc: StateLocation| {
        if seen.insert(loc.state_folder.clone()) {
            out.push(loc);
        }
    };
    for dir in &config.state_dirs {
        push(maestro::resolve_state_dir(dir, &config.maestro_state_dir));
    }
    for s in sidecars {
        for cwd in std::iter::once(&s.cwd).chain(s.current_cwd.as_ref()) {
            push(maestro::location_for_workspace(cwd, &config.maestro_state_dir));
        }
    }
    out
}

impl Catalog {
    /// Reads every source once. Never fails: unreadable files become problems.
    pub fn load(config: &Config, include_archive: bool) -> Self {
        let mut catalog = Catalog {
            include_archive,
            ..Catalog::default()
        };
        let store = SidecarStore::new(&config.sidecar_dir);
        let (live, problems) = store.load_all();
        catalog.add_problems(problems);
        for s in live {
            catalog.sidecars.insert(store.path_for(s.id), s);
        }
        if include_archive {
            let (archived, problems) = store.load_archived();
            catalog.add_problems(problems);
            for s in archived {
                let path = store.archive_dir().join(format!("{}.json", s.id));
                catalog.archived_sidecars.insert(path, s);
            }
        }
        for loc in maestro_locations(config, catalog.sidecars.values()) {
            let (states, problems) = maestro::read_location(&loc, include_archive);
            catalog.add_problems(problems);
            for o in states {
                catalog.maestro.insert(o.path.clone(), o);
            }
        }
        if let Some(root) = &config.ao_dir {
            let (sessions, problems) = ao::read_root(root, include_archive);
            catalog.add_problems(problems);
            for s in sessions {
                catalog.ao.insert(s.path.clone(), s);
            }
        }
        catalog
    }

    fn add_problems(&mut self, problems: Vec<Problem>) {
        for p in problems {
            self.problems.insert(p.path, p.error);
        }
    }

    /// Replaces what tmux says about every session.
    pub fn set_tmux(&mut self, facts: Option<BTreeMap<String, TmuxFacts>>) {
        self.tmux = facts;
    }

    pub fn problems(&self) -> Vec<Problem> {
        self.problems
            .iter()
            .map(|(path, error)| Problem::new(path, error.clone()))
            .collect()
    }

    /// The rows, in sidebar order (last focus, newest first).
    pub fn rows(&self, config: &Config, now: DateTime<Utc>) -> Vec<Session> {
        let mut claimed = BTreeSet::new();
        let mut rows = Vec::new();
        let sidecars = self
            .sidecars
            .iter()
            .map(|s| (s, false))
            .chain(self.archived_sidecars.iter().map(|s| (s, true)));
        for ((path, sidecar), archived) in sidecars {
            let orchestration = self.orchestration_for(sidecar, config);
            if let Some(o) = &orchestration {
                claimed.insert(o.path.clone());
            }
            rows.push(self.sidecar_row(path, sidecar, orchestration, archived, config, now));
        }
        for o in self.maestro.values() {
            if !claimed.contains(&o.path) && (self.include_archive || !o.archived) {
                rows.push(maestro_row(o, config, now));
            }
        }
        for a in self.ao.values() {
            if self.include_archive || !a.archived {
                rows.push(self.ao_row(a, config, now));
            }
        }
        sort_by_last_focus(&mut rows);
        rows
    }

    fn orchestration_for(&self, s: &Sidecar, config: &Config) -> Option<Orchestration> {
        std::iter::once(&s.cwd)
            .chain(s.current_cwd.as_ref())
            .find_map(|cwd| {
                let loc = maestro::location_for_workspace(cwd, &config.maestro_state_dir);
                let active = loc.state_folder.join("active-session.md");
                self.maestro.get(&active).filter(|o| !o.archived).cloned()
            })
            .map(|mut o| {
                if let Some(id) = &s.agent_session_id {
                    o.active_agent = maestro::read_active_agent(&config.maestro_hooks_dir, id);
                }
                o
            })
    }

    fn sidecar_row(
        &self,
        path: &Path,
        s: &Sidecar,
        orchestration: Option<Orchestration>,
        archived: bool,
        config: &Config,
        now: DateTime<Utc>,
    ) -> Session {
        let tmux_name = s.tmux_session.clone();
        let (status, facts) = self.live_status(&s.status, tmux_name.as_deref(), archived);
        let exit_status = facts.as_ref().and_then(|f| f.exit_status).or(s.exit_status);
        let report = s.activity.as_ref().map(|state| Report {
            state,
            detail: s.activity_detail.as_deref(),
            since: s.activity_since,
            reported_at: s.activity_reported_at,
        });
        let activity = health::effective_activity(report, facts.as_ref(), now, &config.thresholds);
        let last_signal_at = [
            facts.as_ref().and_then(|f| f.window_activity),
            s.activity_reported_at,
            s.last_activity_at,
            orchestration.as_ref().and_then(orchestration_updated),
        ]
        .into_iter()
        .flatten()
        .max();
        let health = health::health(
            HealthInputs {
                status: &status,
                exit_status,
                activity: &activity.state,
                orchestration: orchestration.as_ref(),
                last_signal_at,
            },
            now,
            &config.thresholds,
        );
        let mut problems = Vec::new();
        for cwd in std::iter::once(&s.cwd).chain(s.current_cwd.as_ref()) {
            let loc = maestro::location_for_workspace(cwd, &config.maestro_state_dir);
            let active = loc.state_folder.join("active-session.md");
            if let Some(err) = self.problems.get(&active) {
                problems.push(format!("{}: {err}", active.display()));
            }
        }
        Session {
            id: s.id.to_string(),
            name: s.display_name(),
            source: Source::Greenroom,
            status,
            health,
            cwd: s.cwd.clone(),
            agent: s.agent.clone(),
            tmux_session: tmux_name,
            created_at: s.created_at,
            last_focused_at: health::last_focus(
                s.last_focused_at,
                facts.as_ref().and_then(|f| f.last_attached),
            ),
            last_activity_at: last_signal_at,
            agent_session_id: s.agent_session_id.clone(),
            activity,
            orchestration,
            usage: None,
            branch: s.worktree.as_ref().map(|w| w.branch.clone()),
            archived: archived || path.parent().is_some_and(|p| p.ends_with("archive")),
            problems,
        }
    }

    /// Status from tmux when tmux has been asked, else as the file says.
    fn live_status(
        &self,
        recorded: &Status,
        tmux_name: Option<&str>,
        archived: bool,
    ) -> (Status, Option<TmuxFacts>) {
        let Some(tmux) = &self.tmux else {
            return (recorded.clone(), None);
        };
        match tmux_name.and_then(|n| tmux.get(n)) {
            Some(f) if f.pane_dead => (Status::Exited, Some(f.clone())),
            Some(f) => (Status::Running, Some(f.clone())),
            None if archived => (recorded.clone(), None),
            // Killed and Exited are facts about how it ended; keep them.
            None if matches!(recorded, Status::Killed | Status::Exited) => (recorded.clone(), None),
            None => (Status::Dormant, None),
        }
    }

    fn ao_row(&self, a: &AoSession, config: &Config, now: DateTime<Utc>) -> Session {
        let (status, facts) = match &self.tmux {
            Some(_) if !a.archived => self.live_status(&a.status(), a.tmux_name.as_deref(), false),
            _ => (a.status(), None),
        };
        let recorded = a.activity();
        let report = Report {
            state: &recorded,
            detail: None,
            since: a.last_transition_at,
            reported_at: None,
        };
        let activity = health::effective_activity(Some(report), facts.as_ref(), now, &config.thresholds);
        let last_signal_at = facts
            .as_ref()
            .and_then(|f| f.window_activity)
            .max(a.last_transition_at);
        let health = health::health(
            HealthInputs {
                status: &status,
                exit_status: facts.as_ref().and_then(|f| f.exit_status),
                activity: &activity.state,
                orchestration: None,
                last_signal_at,
            },
            now,
            &config.thresholds,
        );
        Session {
            id: a.id.clone(),
            name: a.name().to_owned(),
            source: Source::AgentOrchestrator,
            status,
            health,
            cwd: a.worktree.clone().unwrap_or_default(),
            agent: a.agent.clone(),
            tmux_session: a.tmux_name.clone(),
            created_at: a.created_at,
            last_focused_at: facts.as_ref().and_then(|f| f.last_attached),
            last_activity_at: last_signal_at,
            agent_session_id: None,
            activity,
            orchestration: None,
            usage: None,
            branch: a.branch.clone(),
            archived: a.archived,
            problems: Vec::new(),
        }
    }
}

fn orchestration_updated(o: &Orchestration) -> Option<DateTime<Utc>> {
    o.updated
        .as_deref()
        .and_then(|u| DateTime::parse_from_rfc3339(u).ok())
        .map(|d| d.with_timezone(&Utc))
}

/// A Maestro session no greenroom session claims: no tmux, no actions.
fn maestro_row(o: &Orchestration, config: &Config, now: DateTime<Utc>) -> Session {
    let state = if !o.archived && !o.is_completed() && o.has_phase_in_progress() {
        Activity::Active
    } else {
        Activity::Idle
    };
    let updated = orchestration_updated(o);
    let status = Status::Unknown("Unknown".into());
    let health = health::health(
        HealthInputs {
            status: &status,
            exit_status: None,
            activity: &state,
            orchestration: Some(o),
            last_signal_at: updated,
        },
        now,
        &config.thresholds,
    );
    let created = o
        .created
        .as_deref()
        .and_then(|c| DateTime::parse_from_rfc3339(c).ok())
        .map(|d| d.with_timezone(&Utc));
    let name = o
        .session_id
        .clone()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| o.workspace.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default());
    Session {
        id: o.session_id.clone().unwrap_or_else(|| o.path.display().to_string()),
        name,
        source: Source::Maestro,
        status,
        health,
        cwd: o.workspace.clone(),
        agent: None,
        tmux_session: None,
        created_at: created,
        last_focused_at: None,
        last_activity_at: updated,
        agent_session_id: None,
        activity: ActivityView {
            state,
            detail: None,
            since: updated,
            reported: false,
        },
        orchestration: Some(o.clone()),
        usage: None,
        branch: None,
        archived: o.archived,
        problems: Vec::new(),
    }
}

/// Sidebar order: last focus, newest first; never-focused sessions after
/// every focused one, newest created first; then by name for stability.
pub fn sort_by_last_focus(rows: &mut [Session]) {
    rows.sort_by(|a, b| {
        b.last_focused_at
            .cmp(&a.last_focused_at)
            .then_with(|| b.created_at.cmp(&a.created_at))
            .then_with(|| a.name.cmp(&b.name))
            .then_with(|| a.id.cmp(&b.id))
    });
}

/// Triage order: most urgent health first, then sidebar order.
pub fn sort_for_triage(rows: &mut [Session]) {
    sort_by_last_focus(rows);
    rows.sort_by_key(|r| r.health);
}
