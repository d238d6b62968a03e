//! Agents greenroom did not start, in the panes of its tmux server: those
//! whose hooks report (records in `<sidecar dir>/adopted/`) and those found
//! from the pane's program alone (discovery, no hooks). Rows here do no IO;
//! the pane probes (`/proc`) run when the poll says a pane changed.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::ao_sessions::AoSessions;
use super::own::Own;
use super::probe::{Probe, at_a_shell, probe, runs_a_command};
use super::registry::Registry;
use super::rows::RowContext;
use super::usage::UsageFiles;
use super::{Problems, WatchTarget, add_problems};
use crate::model::{Session, Status};
use crate::sources::adopted as records;
use crate::sources::sidecar::{self, Sidecar};
use crate::tmux::{Pane, PaneId, ServerState, Tmux};

mod ended;
mod live;

use live::{discovered_row, reported_row};

/// Agents in panes greenroom did not start: their hooks' records, and
/// what each pane was found to run.
#[derive(Debug)]
pub(super) struct AdoptedPanes {
    /// `<sidecar dir>/adopted/`: records of agents greenroom did not start.
    pub(super) dir: PathBuf,
    pub(super) records: BTreeMap<PathBuf, Sidecar>,
    /// What each pane outside greenroom's sessions was found to run.
    pub(super) probes: HashMap<PaneId, Probe>,
    /// Those panes as the last poll saw them.
    panes: HashMap<PaneId, Pane>,
    /// Panes the poll saw go back to a shell, and no hook has spoken from
    /// since: their agent has ended (a hook heard after that is a new
    /// agent the poll has not seen yet, not a death).
    left: HashSet<PaneId>,
    /// Each record seen speaking from inside its live pane, with that
    /// pane as last seen: what an ended agent's row shows once the pane
    /// has closed, when it can no longer vouch for the record.
    vouched: HashMap<PathBuf, Pane>,
    /// The programs discovery recognises as agents.
    pub(super) known_programs: Vec<String>,
    /// The tmux server greenroom follows: a record is its only when it
    /// names this one.
    tmux: Tmux,
}

impl AdoptedPanes {
    /// Whether a changed path is the adopted folder's: a record, or the
    /// folder itself (the first hook creates it).
    pub(super) fn claims(&self, path: &Path) -> bool {
        self.is_record(path) || path == self.dir
    }

    fn is_record(&self, path: &Path) -> bool {
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
            panes: HashMap::new(),
            left: HashSet::new(),
            vouched: HashMap::new(),
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

    /// A record in the adopted folder changed, or the folder itself
    /// appeared (or went). Returns whether rows change.
    pub(super) fn apply(
        &mut self,
        path: &Path,
        problems: &mut Problems,
        usage: &mut UsageFiles,
    ) -> bool {
        if path == self.dir {
            return self.rescan(problems, usage);
        }
        self.apply_record(path, problems, usage)
    }

    /// Reads the folder again: the first hook creates it and writes its
    /// record milliseconds later, before the folder's watch is armed, so
    /// no event will ever come for that record. Records gone are dropped.
    fn rescan(&mut self, problems: &mut Problems, usage: &mut UsageFiles) -> bool {
        let mut paths: Vec<PathBuf> = self.records.keys().cloned().collect();
        if let Ok(entries) = std::fs::read_dir(&self.dir) {
            paths.extend(entries.filter_map(Result::ok).map(|e| e.path()));
        }
        paths.retain(|p| self.is_record(p));
        paths.sort();
        paths.dedup();
        let mut changed = false;
        for path in &paths {
            changed |= self.apply_record(path, problems, usage);
        }
        changed
    }

    fn apply_record(
        &mut self,
        path: &Path,
        problems: &mut Problems,
        usage: &mut UsageFiles,
    ) -> bool {
        if std::fs::symlink_metadata(path).is_err() {
            let had_problem = problems.remove(path).is_some();
            self.vouched.remove(path);
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
                if changed && let Some(pane) = records::pane_of(&s) {
                    // The agent spoke after its pane was seen at a shell:
                    // it started since, whatever the last poll said.
                    self.left.remove(&pane);
                }
                self.records.insert(path.to_path_buf(), s);
                self.vouch(path);
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
            self.panes.clear();
            self.left.clear();
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
            let p = kept.unwrap_or_else(|| {
                // A pane seen anew at a prompt: its agent (if any) has left.
                // A shell given a command line keeps the terminal while the
                // agent it runs works: no prompt.
                if at_a_shell(pane) && !runs_a_command(pane) {
                    self.left.insert(pane.id.clone());
                } else {
                    self.left.remove(&pane.id);
                }
                Probe {
                    pid: pane.pid,
                    command: pane.command.clone(),
                    found: probe(pane, &self.known_programs),
                }
            });
            next.insert(pane.id.clone(), p);
        }
        self.left.retain(|id| next.contains_key(id));
        self.probes = next;
        self.panes = server
            .panes()
            .iter()
            .filter(|p| self.probes.contains_key(&p.id))
            .map(|p| (p.id.clone(), p.clone()))
            .collect();
        let paths: Vec<PathBuf> = self.records.keys().cloned().collect();
        for path in paths {
            self.vouch(&path);
        }
    }

    /// Remembers the pane of a record whose reporter runs inside it: once
    /// the pane closes, nothing else can vouch for the record.
    fn vouch(&mut self, path: &Path) {
        let Some(s) = self.records.get(path) else {
            return;
        };
        let pane = records::pane_of(s).and_then(|id| self.panes.get(&id));
        if let Some(pane) = pane.filter(|p| speaks_from_inside(s, p)) {
            self.vouched.insert(path.to_path_buf(), pane.clone());
        }
    }

    /// Records of this server's panes that are gone (start-up removes them:
    /// a pane's record is worth nothing once its pane has closed).
    /// Whether the pane was found running `agent` (by its program).
    pub(super) fn runs(&self, pane: &PaneId, agent: &str) -> bool {
        self.probes
            .get(pane)
            .and_then(|p| p.found.as_ref())
            .is_some_and(|f| f.agent == agent)
    }

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
        let mut ended: Vec<(&Sidecar, &Pane, bool)> = Vec::new();
        for (path, s) in &self.records {
            let Some(pane) = records::pane_of(s) else {
                continue;
            };
            if !self.on_this_server(s) {
                continue;
            }
            // `TMUX_PANE` is whatever the reporter's environment said: the
            // record counts for the pane only when the reporter ran inside
            // it (or did while the pane was there). Otherwise no row is
            // made at all (rather than one shown unverified without
            // actions): a row that says "waiting" draws the operator to a
            // pane on the word of something elsewhere.
            let live = panes.get(&pane).copied();
            let inside = live.filter(|p| speaks_from_inside(s, p));
            match inside {
                Some(p) if s.status == Status::Running && !self.has_left(p) => {
                    reported.insert(&p.id);
                    out.push(reported_row(s, p, registry, usage, cx));
                }
                // It ended (its SessionEnd), or died: its pane went back to
                // a shell, or closed. Shown until dismissed.
                Some(p) => ended.push((s, p, true)),
                None if live.is_none() => {
                    if let Some(p) = self.vouched.get(path) {
                        ended.push((s, p, false));
                    }
                }
                None => {}
            }
        }
        let mut spoken: HashSet<&PaneId> = HashSet::new();
        for (id, pane) in &panes {
            if reported.contains(id) {
                continue;
            }
            let found = self.probes.get(*id).and_then(|p| p.found.as_ref());
            // Claude Code's own record of the pane, when no hook reports.
            if let Some(e) = registry.of(pane).filter(|_| !at_a_shell(pane)) {
                let agent = found.map(|f| f.agent.clone());
                out.push(registry.row(pane, e, agent, usage, cx));
                spoken.insert(id);
                continue;
            }
            if let Some(found) = found {
                out.push(discovered_row(pane, found, usage, cx));
                spoken.insert(id);
            }
        }
        // A pane that runs another agent now is that agent's row.
        ended.retain(|(_, p, _)| !spoken.contains(&p.id));
        out.extend(
            ended
                .into_iter()
                .map(|(s, p, live)| ended::row(s, p, live, usage, cx)),
        );
        out
    }

    /// Whether the poll saw the pane go back to a shell prompt with no
    /// word from its agent since (a shell given a command line is no
    /// prompt: it keeps the terminal while the agent it runs works).
    fn has_left(&self, pane: &Pane) -> bool {
        at_a_shell(pane) && self.left.contains(&pane.id)
    }
}

/// Whether a record's last reporter ran inside the pane (its process is
/// among the reporter's ancestors).
fn speaks_from_inside(s: &Sidecar, pane: &Pane) -> bool {
    records::reporter_of(s).contains(&pane.pid)
}

/// Sessions whose panes belong to a row already (greenroom's own, AO's).
pub(super) fn claimed_sessions<'a>(own: &'a Own, ao: &'a AoSessions) -> HashSet<&'a str> {
    own.sidecars
        .values()
        .filter_map(|s| s.tmux_session.as_deref())
        .chain(ao.sessions.values().filter_map(|a| a.tmux_name.as_deref()))
        .collect()
}
