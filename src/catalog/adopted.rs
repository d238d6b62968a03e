//! Agents greenroom did not start, in the panes of its tmux server: those
//! whose hooks report (records in `<sidecar dir>/adopted/`) and those found
//! from the pane's program alone (discovery, no hooks). Rows here do no IO;
//! the pane probes (`/proc`) run when the poll says a pane changed.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::ao_sessions::AoSessions;
use super::own::Own;
use super::pane_row::pane_row;
use super::probe::{Found, Probe, at_a_shell, probe, runs_a_command};
use super::registry::{Registry, last_word, registry_report};
use super::rows::{RowContext, waiting_for};
use super::usage::UsageFiles;
use super::word::{hook_report, name_the_speaker, said};
use super::{Problems, WatchTarget, add_problems};
use crate::health;
use crate::model::{Activity, Adopted, Health, Session, Status};
use crate::sources::adopted as records;
use crate::sources::claude_registry::RegistryEntry;
use crate::sources::sidecar::{self, Sidecar};
use crate::tmux::{Pane, PaneId, ServerState, Tmux};

/// What a discovered row says about itself.
pub const NO_HOOKS: &str = "no hooks: install them with `greenroom hooks install`";

/// Agents in panes greenroom did not start: their hooks' records, and
/// what each pane was found to run.
#[derive(Debug)]
pub(super) struct AdoptedPanes {
    /// `<sidecar dir>/adopted/`: records of agents greenroom did not start.
    pub(super) dir: PathBuf,
    pub(super) records: BTreeMap<PathBuf, Sidecar>,
    /// What each pane outside greenroom's sessions was found to run.
    pub(super) probes: HashMap<PaneId, Probe>,
    /// The programs discovery recognises as agents.
    pub(super) known_programs: Vec<String>,
    /// The tmux server greenroom follows: a record is its only when it
    /// names this one.
    tmux: Tmux,
}

impl AdoptedPanes {
    /// Whether a changed path is a record of the adopted folder.
    pub(super) fn claims(&self, path: &Path) -> bool {
        let name = path.file_name().map(|n| n.to_string_lossy());
        path.parent() == Some(self.dir.as_path())
            && name.is_some_and(|n| sidecar::is_sidecar_name(&n))
    }

    pub(super) fn targets(&self) -> Vec<WatchTarget> {
        vec![WatchTarget::folder(&self.dir)]
    }

    pub(super) fn new(config: &super::Settings) -> Self {
        AdoptedPanes {
            dir: records::adopted_dir(&config.sidecar_dir),
            records: BTreeMap::new(),
            probes: HashMap::new(),
            known_programs: super::probe::known_programs(config),
            tmux: Tmux::new(config.tmux_socket.clone()),
        }
    }
}

impl AdoptedPanes {
    /// Reads every record in the adopted folder.
    pub(super) fn load(&mut self, problems: &mut Problems) {
        let (records, found) = sidecar::SidecarStore::new(&self.dir).load_all();
        add_problems(problems, found);
        for s in records {
            self.records
                .insert(self.dir.join(format!("{}.json", s.id)), s);
        }
    }

    /// A record in the adopted folder changed. Returns whether rows change.
    pub(super) fn apply(
        &mut self,
        path: &Path,
        problems: &mut Problems,
        usage: &mut UsageFiles,
    ) -> bool {
        if std::fs::symlink_metadata(path).is_err() {
            let had_problem = problems.remove(path).is_some();
            if let Some(s) = self.records.remove(path) {
                usage.paths.remove(&s.id);
                return true;
            }
            return had_problem;
        }
        match sidecar::read_sidecar_file(path) {
            Ok(s) => {
                let had_problem = problems.remove(path).is_some();
                let changed = self.records.get(path) != Some(&s);
                let tracked = usage.on && usage.track(&s);
                self.records.insert(path.to_path_buf(), s);
                changed || had_problem || tracked
            }
            Err(p) => problems.insert(p.path, p.error.clone()).as_ref() != Some(&p.error),
        }
    }

    /// Looks at the panes the poll says changed (a new pane, another
    /// program or process); forgets panes that are gone. Only then is
    /// `/proc` read, and never for a pane of a claimed session.
    pub(super) fn probe_panes(&mut self, state: &ServerState, claimed: &HashSet<&str>) {
        let ServerState::Running(server) = state else {
            self.probes.clear();
            return;
        };
        let mut next: HashMap<PaneId, Probe> = HashMap::with_capacity(self.probes.len());
        for pane in server.panes() {
            if claimed.contains(pane.session.as_str()) {
                continue;
            }
            let kept = self
                .probes
                .get(&pane.id)
                .filter(|p| p.pid == pane.pid && p.command == pane.command)
                .cloned();
            let p = kept.unwrap_or_else(|| Probe {
                pid: pane.pid,
                command: pane.command.clone(),
                found: probe(pane, &self.known_programs),
                runs_a_command: runs_a_command(pane),
            });
            next.insert(pane.id.clone(), p);
        }
        self.probes = next;
    }

    /// Records of this server's panes that are gone (start-up removes them:
    /// a pane's record is worth nothing once its pane has closed).
    pub(super) fn stale(&self, tmux: Option<&ServerState>) -> Vec<PathBuf> {
        let live: HashSet<&PaneId> = match tmux {
            Some(ServerState::Running(server)) => server.panes().iter().map(|p| &p.id).collect(),
            Some(ServerState::NoServer) => HashSet::new(),
            _ => return Vec::new(),
        };
        self.records
            .iter()
            .filter(|(_, s)| self.on_this_server(s))
            .filter(|(_, s)| records::pane_of(s).is_none_or(|p| !live.contains(&p)))
            .map(|(path, _)| path.clone())
            .collect()
    }

    /// Whether the pane's agent has left it: the pane is back at a shell
    /// that is a prompt (one running a command line keeps the terminal
    /// while its agent works: [`runs_a_command`]).
    fn agent_left(&self, pane: &Pane) -> bool {
        at_a_shell(pane) && !self.probes.get(&pane.id).is_some_and(|p| p.runs_a_command)
    }

    /// Whether an adopted record's server is the one greenroom follows.
    fn on_this_server(&self, s: &Sidecar) -> bool {
        records::server_of(s).is_some_and(|server| self.tmux.is_current_server(Some(server)))
    }

    /// Rows for the agents in panes of sessions no other row has: the
    /// reported ones first, then those found by their program.
    pub(super) fn rows(
        &self,
        tmux: Option<&ServerState>,
        others: &[Session],
        registry: &Registry,
        usage: &UsageFiles,
        cx: &RowContext<'_>,
    ) -> Vec<Session> {
        let Some(ServerState::Running(server)) = tmux else {
            return Vec::new();
        };
        if server.panes().is_empty() {
            return Vec::new();
        }
        let taken: HashSet<&str> = others
            .iter()
            .filter(|r| !r.archived)
            .filter_map(|r| r.tmux_session.as_deref())
            .collect();
        let panes: HashMap<&PaneId, &Pane> = server
            .panes()
            .iter()
            .filter(|p| !taken.contains(p.session.as_str()))
            .map(|p| (&p.id, p))
            .collect();
        let mut out = Vec::new();
        let mut reported: HashSet<&PaneId> = HashSet::new();
        for s in self.records.values() {
            let Some(pane) = records::pane_of(s) else {
                continue;
            };
            // An ended agent, or a pane that is gone: the row ends.
            if s.status != Status::Running || !self.on_this_server(s) {
                continue;
            }
            // `TMUX_PANE` is whatever the reporter's environment said: the
            // record counts for the pane only when the reporter ran inside
            // it. Otherwise no row is made at all (rather than one shown
            // unverified without actions): a row that says "waiting" draws
            // the operator to a pane on the word of something elsewhere.
            let from_inside = |p: &&&Pane| records::reporter_of(s).contains(&p.pid);
            if let Some(p) = panes
                .get(&pane)
                .filter(|p| !self.agent_left(p))
                .filter(from_inside)
            {
                reported.insert(&p.id);
                out.push(reported_row(s, p, registry, usage, cx));
            }
        }
        for (id, pane) in &panes {
            if reported.contains(id) {
                continue;
            }
            let found = self.probes.get(*id).and_then(|p| p.found.as_ref());
            // Claude Code's own record of the pane, when no hook reports.
            if let Some(e) = registry.of(pane).filter(|_| !at_a_shell(pane)) {
                let agent = found.map(|f| f.agent.clone());
                out.push(registry.row(pane, e, agent, usage, cx));
                continue;
            }
            if let Some(found) = found {
                out.push(discovered_row(pane, found, cx));
            }
        }
        out
    }
}

/// Sessions whose panes belong to a row already (greenroom's own, AO's).
pub(super) fn claimed_sessions<'a>(own: &'a Own, ao: &'a AoSessions) -> HashSet<&'a str> {
    own.sidecars
        .values()
        .filter_map(|s| s.tmux_session.as_deref())
        .chain(ao.sessions.values().filter_map(|a| a.tmux_name.as_deref()))
        .collect()
}

/// Claude Code's own record of the pane, when it says waiting after the
/// last hook said anything else: its own dialogs (a first-run question)
/// block the agent and fire no hook. A hook's wait is kept: it names the
/// tool and command, which the record does not.
fn blocked_by_a_dialog<'a>(
    s: &Sidecar,
    entry: Option<&'a RegistryEntry>,
) -> Option<&'a RegistryEntry> {
    let hook_waits = s.activity == Some(Activity::AwaitingInput);
    entry
        .filter(|_| !hook_waits)
        .filter(|e| e.activity() == Activity::AwaitingInput)
        .filter(|e| {
            e.status_at
                .is_some_and(|at| s.activity_reported_at.is_none_or(|hook| at > hook))
        })
}

fn reported_row(
    s: &Sidecar,
    pane: &Pane,
    registry: &Registry,
    usage: &UsageFiles,
    cx: &RowContext<'_>,
) -> Session {
    let (t, now) = (cx.thresholds, cx.now);
    let facts = pane.facts();
    let dialog = blocked_by_a_dialog(s, registry.of(pane));
    let waits = Activity::AwaitingInput;
    let (report, from_record) = match dialog {
        Some(e) => (Some(registry_report(e, &waits)), true),
        None => last_word(
            hook_report(s, usage),
            registry.of_session(s.agent_session_id.as_deref()),
        ),
    };
    let said_active = report
        .as_ref()
        .is_some_and(|r| *r.state == Activity::Active);
    let last_signal_at = health::sign_of_life(
        said_active,
        [
            report.as_ref().and_then(|r| r.reported_at),
            s.activity_reported_at,
        ],
        facts.window_activity,
    );
    let mut activity = health::effective_activity(report, Some(&facts), now, t);
    name_the_speaker(&mut activity, from_record, s);
    let said = said(s.activity_tool.as_ref());
    let agent = s.agent.clone().unwrap_or_else(|| s.display_name());
    let cwd = s.current_cwd.clone().unwrap_or_else(|| s.cwd.clone());
    let mut row = pane_row(
        pane,
        agent,
        cwd,
        activity,
        last_signal_at,
        said.as_deref(),
        cx,
    );
    // What it asks, as greenroom's own rows say it; a dialog in the
    // words of Claude Code's record ("dialog open").
    let tool = s.activity_tool.as_ref().filter(|_| dialog.is_none());
    row.waiting_for = (row.health == Health::Waiting)
        .then(|| waiting_for(&row.activity, tool))
        .flatten();
    row.created_at = s.created_at;
    row.agent_session_id = s.agent_session_id.clone();
    row.usage = usage.of(s, now);
    row.adopted = Some(Adopted {
        pane: pane.id.clone(),
        hooks: true,
    });
    row
}

fn discovered_row(pane: &Pane, found: &Found, cx: &RowContext<'_>) -> Session {
    let facts = pane.facts();
    let mut activity = health::effective_activity(None, Some(&facts), cx.now, cx.thresholds);
    activity.detail.get_or_insert_with(|| NO_HOOKS.to_owned());
    let cwd = found.cwd.clone().unwrap_or_default();
    let mut row = pane_row(
        pane,
        found.agent.clone(),
        cwd,
        activity,
        facts.window_activity,
        None,
        cx,
    );
    row.adopted = Some(Adopted {
        pane: pane.id.clone(),
        hooks: false,
    });
    row
}
