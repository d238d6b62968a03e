//! Agents greenroom did not start, in the panes of its tmux server: those
//! whose hooks report (records in `<sidecar dir>/adopted/`) and those found
//! from the pane's program alone (discovery, no hooks). Rows here do no IO;
//! the pane probes (`/proc`) run when the poll says a pane changed.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use super::Catalog;
use crate::health::{self, HealthInputs, Report};
use crate::model::{Adopted, Health, Session, Source, Status};
use crate::sources::adopted as records;
use crate::sources::procs;
use crate::sources::sidecar::{self, Sidecar};
use crate::tmux::{Pane, PaneId, ServerState};

/// Agents recognised by their program name without any configuration.
pub const KNOWN_AGENTS: &[&str] = &["claude", "gemini", "codex", "aider"];
/// Programs that run an agent without being one: the agent is then told
/// by the argv of the pane's processes.
const RUNNERS: &[&str] = &[
    "node", "nodejs", "bun", "deno", "npx", "npm", "python", "python3", "uv", "uvx", "env",
];
/// Shells: a pane back at one has no agent in front any more.
const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "fish", "dash", "ksh", "tcsh", "csh", "nu",
];

/// Whether the pane's program is a shell: its agent has exited (or was
/// killed without its SessionEnd hook), so its reported row ends.
fn at_a_shell(pane: &Pane) -> bool {
    SHELLS.contains(&program_name(pane.command.trim_start_matches('-')))
}

/// What a discovered row says about itself.
pub const NO_HOOKS: &str = "no hooks: install them with `greenroom hooks install`";

/// What a pane was found to run, kept until its program or process changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Probe {
    pid: u32,
    command: String,
    found: Option<Found>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Found {
    agent: String,
    cwd: Option<PathBuf>,
}

/// A program's name as an agent would be known by: the file name without
/// a script extension (`gemini.js` -> `gemini`).
fn program_name(word: &str) -> &str {
    let base = word.rsplit('/').next().unwrap_or(word);
    [".js", ".mjs", ".cjs", ".py"]
        .iter()
        .find_map(|ext| base.strip_suffix(ext))
        .unwrap_or(base)
}

/// A version number as a file name: Claude Code's native installs run
/// `…/claude/versions/2.1.328`.
fn is_version(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// The agent an argv word names, if one of `known`: its file name, or the
/// program folder above a version-named file.
fn agent_in_word(word: &str, known: &[String]) -> Option<String> {
    let name = program_name(word);
    if known.iter().any(|k| k == name) {
        return Some(name.to_owned());
    }
    if is_version(name) {
        let mut parts = word.rsplit('/').skip(1);
        if parts.next() == Some("versions")
            && let Some(folder) = parts.next()
            && known.iter().any(|k| k == folder)
        {
            return Some(folder.to_owned());
        }
    }
    None
}

/// What a pane runs, from its program name and (for a runner, or to find
/// the agent's folder) the argv of its first processes. Bounded IO.
fn probe(pane: &Pane, known: &[String]) -> Option<Found> {
    let direct = agent_in_word(&pane.command, known);
    let name = program_name(&pane.command);
    if direct.is_none() && !RUNNERS.contains(&name) && !is_version(name) {
        return None;
    }
    for pid in procs::family(pane.pid) {
        let argv = procs::argv(pid);
        // The program, or the script an interpreter or `env` was given.
        let agent = argv
            .iter()
            .take(4)
            .filter(|w| !w.starts_with('-') && !w.contains('='))
            .find_map(|w| agent_in_word(w, known));
        if let Some(agent) = agent {
            return Some(Found {
                agent,
                cwd: procs::cwd(pid),
            });
        }
    }
    direct.map(|agent| Found {
        agent,
        cwd: procs::cwd(pane.pid),
    })
}

/// The known agents plus the programs the `[agents.*]` presets run.
pub(super) fn known_programs(config: &super::Settings) -> Vec<String> {
    let mut out: Vec<String> = KNOWN_AGENTS.iter().map(|s| (*s).to_owned()).collect();
    for preset in config.agents.values() {
        if let Some(program) = preset.program() {
            let name = program_name(program);
            let shell = ["sh", "bash", "zsh", "fish", "dash"].contains(&name);
            if !name.is_empty() && !shell && !RUNNERS.contains(&name) {
                out.push(name.to_owned());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

impl Catalog {
    pub(super) fn load_adopted(&mut self) {
        let (records, problems) = sidecar::SidecarStore::new(&self.adopted_dir).load_all();
        self.add_problems(problems);
        for s in records {
            self.adopted
                .insert(self.adopted_dir.join(format!("{}.json", s.id)), s);
        }
    }

    /// A record in the adopted folder changed. Returns whether rows change.
    pub(super) fn apply_adopted(&mut self, path: &Path) -> bool {
        if std::fs::symlink_metadata(path).is_err() {
            let had_problem = self.problems.remove(path).is_some();
            if let Some(s) = self.adopted.remove(path) {
                self.transcript_paths.remove(&s.id);
                return true;
            }
            return had_problem;
        }
        match sidecar::read_sidecar_file(path) {
            Ok(s) => {
                let had_problem = self.problems.remove(path).is_some();
                let changed = self.adopted.get(path) != Some(&s);
                let tracked = self.usage_on && self.track_transcript(&s);
                self.adopted.insert(path.to_path_buf(), s);
                changed || had_problem || tracked
            }
            Err(p) => self.problems.insert(p.path, p.error.clone()).as_ref() != Some(&p.error),
        }
    }

    pub(super) fn adopted_records(&self) -> impl Iterator<Item = &Sidecar> {
        self.adopted.values()
    }

    /// Sessions whose panes belong to a row already (greenroom's own, AO's).
    fn claimed_sessions(&self) -> HashSet<&str> {
        self.sidecars
            .values()
            .filter_map(|s| s.tmux_session.as_deref())
            .chain(self.ao.values().filter_map(|a| a.tmux_name.as_deref()))
            .collect()
    }

    /// Looks at the panes the poll says changed (a new pane, another
    /// program or process); forgets panes that are gone. Only then is
    /// `/proc` read, and never for a pane of a claimed session.
    pub(super) fn probe_panes(&mut self, state: &ServerState) {
        let ServerState::Running(server) = state else {
            self.probes.clear();
            return;
        };
        let claimed = self.claimed_sessions();
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
            });
            next.insert(pane.id.clone(), p);
        }
        self.probes = next;
    }

    /// Records of this server's panes that are gone (start-up removes them:
    /// a pane's record is worth nothing once its pane has closed).
    pub fn stale_adopted(&self) -> Vec<PathBuf> {
        let live: HashSet<&PaneId> = match &self.tmux {
            Some(ServerState::Running(server)) => server.panes().iter().map(|p| &p.id).collect(),
            Some(ServerState::NoServer) => HashSet::new(),
            _ => return Vec::new(),
        };
        self.adopted
            .iter()
            .filter(|(_, s)| self.on_this_server(s))
            .filter(|(_, s)| records::pane_of(s).is_none_or(|p| !live.contains(&p)))
            .map(|(path, _)| path.clone())
            .collect()
    }

    /// Whether an adopted record's server is the one greenroom follows.
    fn on_this_server(&self, s: &Sidecar) -> bool {
        records::server_of(s).is_some_and(|server| {
            crate::tmux::Tmux::new(self.config.tmux_socket.clone()).is_current_server(Some(server))
        })
    }

    /// Rows for the agents in panes of sessions no other row has: the
    /// reported ones first, then those found by their program.
    pub(super) fn adopted_rows(&self, others: &[Session], now: DateTime<Utc>) -> Vec<Session> {
        let Some(ServerState::Running(server)) = &self.tmux else {
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
        for s in self.adopted.values() {
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
                .filter(|p| !at_a_shell(p))
                .filter(from_inside)
            {
                reported.insert(&p.id);
                out.push(self.reported_row(s, p, now));
            }
        }
        for (id, pane) in &panes {
            if reported.contains(id) {
                continue;
            }
            let found = self.probes.get(*id).and_then(|p| p.found.as_ref());
            // Claude Code's own record of the pane, when no hook reports.
            if let Some(e) = self.registry_of(pane).filter(|_| !at_a_shell(pane)) {
                let agent = found.map(|f| f.agent.clone());
                out.push(self.registry_row(pane, e, agent, now));
                continue;
            }
            if let Some(found) = found {
                out.push(self.discovered_row(pane, found, now));
            }
        }
        out
    }

    fn reported_row(&self, s: &Sidecar, pane: &Pane, now: DateTime<Utc>) -> Session {
        let t = &self.config.thresholds;
        let facts = pane.facts();
        let report = s.activity.as_ref().map(|state| Report {
            state,
            detail: self.error_words(s).or(s.activity_detail.as_deref()),
            since: s.activity_since,
            reported_at: s.activity_reported_at,
        });
        let activity = health::effective_activity(report, Some(&facts), now, t);
        let last_signal_at = [facts.window_activity, s.activity_reported_at]
            .into_iter()
            .flatten()
            .max();
        let agent = s.agent.clone().unwrap_or_else(|| s.display_name());
        let cwd = s.current_cwd.clone().unwrap_or_else(|| s.cwd.clone());
        let mut row = self.pane_row(pane, agent, cwd, activity, last_signal_at, now);
        row.created_at = s.created_at;
        row.agent_session_id = s.agent_session_id.clone();
        row.usage = self.usage_of(s, now);
        row.adopted = Some(Adopted {
            pane: pane.id.clone(),
            hooks: true,
        });
        row
    }

    fn discovered_row(&self, pane: &Pane, found: &Found, now: DateTime<Utc>) -> Session {
        let facts = pane.facts();
        let mut activity =
            health::effective_activity(None, Some(&facts), now, &self.config.thresholds);
        activity.detail.get_or_insert_with(|| NO_HOOKS.to_owned());
        let cwd = found.cwd.clone().unwrap_or_default();
        let mut row = self.pane_row(
            pane,
            found.agent.clone(),
            cwd,
            activity,
            facts.window_activity,
            now,
        );
        row.adopted = Some(Adopted {
            pane: pane.id.clone(),
            hooks: false,
        });
        row
    }

    pub(super) fn pane_row(
        &self,
        pane: &Pane,
        agent: String,
        cwd: PathBuf,
        activity: crate::model::ActivityView,
        last_signal_at: Option<DateTime<Utc>>,
        now: DateTime<Utc>,
    ) -> Session {
        let status = Status::Running;
        let inputs = HealthInputs {
            status: &status,
            exit_status: None,
            activity: &activity.state,
            orchestration: None,
            last_signal_at,
        };
        let t = &self.config.thresholds;
        let (health, rule): (Health, _) = health::decide(inputs, now, t);
        let why = health::explain(rule, health, &inputs, &activity, t);
        Session {
            id: pane.id.to_string(),
            name: format!("{agent}@{}", pane.session),
            source: Source::Tmux,
            status,
            health,
            cwd,
            agent: Some(agent),
            tmux_session: Some(pane.session.clone()),
            created_at: None,
            last_focused_at: pane.last_attached,
            last_activity_at: last_signal_at,
            agent_session_id: None,
            activity,
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
            // Not greenroom's record: no snooze kept for it.
            snoozed_until: None,
            waiting_for: None,
            why,
            host: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known() -> Vec<String> {
        KNOWN_AGENTS.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn agents_are_told_by_their_program() {
        let k = known();
        assert_eq!(agent_in_word("claude", &k).as_deref(), Some("claude"));
        assert_eq!(
            agent_in_word("/x/@google/gemini-cli/bundle/gemini.js", &k).as_deref(),
            Some("gemini")
        );
        assert_eq!(
            agent_in_word("/home/u/.local/share/claude/versions/2.1.328", &k).as_deref(),
            Some("claude")
        );
        assert_eq!(agent_in_word("/usr/bin/node", &k), None);
        assert_eq!(agent_in_word("/home/u/claude/notes.py", &k), None);
        assert_eq!(agent_in_word("2.1.328", &k), None);
    }

    #[test]
    fn presets_add_their_programs() {
        let mut config = super::super::Settings::bare("/nowhere".into());
        let preset = |launch: &str| crate::model::AgentPreset {
            launch: launch.to_owned(),
            resume: None,
            launch_with_prompt: None,
        };
        config
            .agents
            .insert("mine".into(), preset("env FOO=1 my-agent --fast"));
        config
            .agents
            .insert("viaNode".into(), preset("node agent.js"));
        let k = known_programs(&config);
        for p in ["aider", "claude", "codex", "gemini", "my-agent"] {
            assert!(k.contains(&p.to_owned()), "{p} in {k:?}");
        }
        assert!(!k.iter().any(|p| p == "node" || p == "sh"), "{k:?}");
    }
}
