//! Building the rows: each source's record merged with tmux facts and
//! classified by the pure health rules. No IO happens here.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::Catalog;
use super::order::sort_by_last_focus;
use super::word::{hook_report, name_the_speaker, said, sidecar_signal_at};
use crate::attention;
use crate::health::{self, HealthInputs, Report, TmuxFacts};
use crate::model::{
    ActivitySource, ActivityView, Health, Orchestration, Session, Source, Status, WaitingFor,
};
use crate::sources::sidecar::{Sidecar, ToolCall};

pub(super) type Facts<'a> = Option<&'a BTreeMap<String, TmuxFacts>>;

/// What every source's rows are built with beside its own records.
pub(super) struct RowContext<'a> {
    pub(super) thresholds: &'a crate::health::Thresholds,
    pub(super) facts: Facts<'a>,
    pub(super) problems: &'a super::Problems,
    /// The operator's snoozes of rows greenroom does not own, by row id.
    pub(super) snoozes: &'a BTreeMap<String, crate::sources::snooze::Snooze>,
    /// The operator's looks at rows greenroom does not own, by row id.
    pub(super) looks: &'a crate::sources::looks::Looks,
    pub(super) now: DateTime<Utc>,
}

impl Catalog {
    /// The rows, in sidebar order (last focus, newest first).
    pub fn rows(&self, now: DateTime<Utc>) -> Vec<Session> {
        let facts = self.tmux_facts();
        let mut claimed = HashSet::new();
        let mut rows = Vec::with_capacity(self.len());
        let sidecars = self
            .own
            .sidecars
            .iter()
            .map(|s| (s, false))
            .chain(self.own.archived.iter().map(|s| (s, true)));
        let mut kept = self.cache.rows.begin();
        for ((path, sidecar), archived) in sidecars {
            let orchestration = self.orchestration_for(sidecar);
            if let Some(o) = &orchestration {
                claimed.insert(Arc::as_ptr(o));
            }
            let inputs = self.inputs(sidecar, archived, orchestration.as_ref(), facts, now);
            let mut row = kept.row(path, inputs, || {
                self.sidecar_row(path, sidecar, orchestration.clone(), archived, &facts, now)
            });
            self.fresh_parts(&mut row, path, sidecar, now);
            rows.push(row);
        }
        self.cache
            .built
            .store(kept.finish(), std::sync::atomic::Ordering::Relaxed);
        let sidecar_rows = rows.len();
        let cx = self.row_context(facts, now);
        rows.extend(self.maestro.rows(&claimed, &cx));
        rows.extend(self.ao.rows(&cx));
        let adopted =
            self.adopted
                .rows(self.tmux.as_ref(), &rows, &self.registry, &self.usage, &cx);

        // Maestro's, AO's and adopted rows are built anew each time, and
        // a rate of tokens per minute falls as the minutes pass: with any
        // of them, every moment of the clock may change the rows.
        let timed = rows.len() > sidecar_rows
            || !adopted.is_empty()
            || rows
                .iter()
                .any(|r| r.usage.as_ref().is_some_and(|u| u.tokens_per_minute > 0.0));
        *self
            .cache
            .last_build
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = Some((now, timed));
        rows.extend(adopted);
        self.screens.apply(&mut rows);
        let unique = make_ids_unique(&mut rows);
        self.cache
            .ids_unique
            .store(unique, std::sync::atomic::Ordering::Relaxed);
        self.git.attach(&mut rows);
        sort_by_last_focus(&mut rows);
        rows
    }

    fn row_context<'a>(&'a self, facts: Facts<'a>, now: DateTime<Utc>) -> RowContext<'a> {
        RowContext {
            thresholds: &self.config.thresholds,
            facts,
            problems: &self.problems,
            snoozes: &self.own.snoozes,
            looks: &self.own.looks,
            now,
        }
    }

    fn active_state_file(&self, cwd: &Path) -> Option<&PathBuf> {
        self.maestro.workspaces.get(cwd)
    }

    /// The session's running orchestration; else, while no new one has
    /// started there, the one it finished (archived after it was created).
    pub(super) fn orchestration_for(&self, s: &Sidecar) -> Option<Arc<Orchestration>> {
        // Looked up again rather than collected: the first pass nearly
        // always finds it, and this runs for every row at every build.
        let files = || super::sidecar_cwds(s).filter_map(|cwd| self.active_state_file(cwd));
        if let Some(o) =
            files().find_map(|file| self.maestro.states.get(file).filter(|o| !o.archived))
        {
            return Some(o.clone());
        }
        files()
            // An active file that cannot be read is a new orchestration too.
            .filter(|file| !self.problems.contains_key(*file))
            .filter_map(|file| self.maestro.finished.get(file.parent()?))
            .filter_map(|path| self.maestro.states.get(path))
            .find(|o| {
                let finished = o.updated_at;
                finished.is_none() || s.created_at.is_none() || finished >= s.created_at
            })
            .cloned()
    }

    /// How many rows the last build made anew; the others were kept from
    /// the build before (for benchmarks and tests).
    pub fn rows_built(&self) -> usize {
        self.cache.built.load(std::sync::atomic::Ordering::Relaxed)
    }

    pub(super) fn active_agent_of(&self, s: &Sidecar) -> Option<&str> {
        let id = s.agent_session_id.as_ref()?;
        self.maestro.active_agents.get(id).map(String::as_str)
    }

    /// What a row says that is looked up at every build rather than kept
    /// (see `row_cache.rs`): the problems of its files, and its usage.
    pub(super) fn fresh_parts(
        &self,
        row: &mut Session,
        path: &Path,
        s: &Sidecar,
        now: DateTime<Utc>,
    ) {
        self.sidecar_problems(path, s, &mut row.problems);
        // A dismissed session's money was spent all the same.
        row.usage = self.usage.of(s, now);
        if row.agent_session_id.is_none() {
            row.agent_session_id = self.usage.agent_session_id(s).map(ToOwned::to_owned);
        }
    }

    /// A record's row, without what [`Self::fresh_parts`] adds.
    pub(super) fn sidecar_row(
        &self,
        path: &Path,
        s: &Sidecar,
        orchestration: Option<Arc<Orchestration>>,
        archived: bool,
        facts: &Facts<'_>,
        now: DateTime<Utc>,
    ) -> Session {
        let t = &self.config.thresholds;
        let mut problems = Vec::new();
        let tmux_session = checked_tmux_name(s.tmux_session.as_deref(), path, &mut problems);
        let (status, live, exit_status) =
            sidecar_status(s, archived, facts, tmux_session.as_deref());
        let activity = self.sidecar_activity(s, &status, exit_status, live.as_ref(), archived, now);
        let (word, _) = self.sidecar_word(s, archived);
        let last_signal_at =
            sidecar_signal_at(live.as_ref(), s, orchestration.as_deref(), word.as_ref());
        let said = said(s.activity_tool.as_ref());
        let looked_at = health::last_focus(
            s.last_focused_at,
            live.as_ref().and_then(|f| f.last_attached),
        );
        let inputs = HealthInputs {
            status: &status,
            exit_status,
            activity: &activity.state,
            orchestration: orchestration.as_deref(),
            last_signal_at,
            said: said.as_deref(),
            turn_ended_at: health::turn_ended_at(&activity),
            looked_at,
        };
        let (health, rule) = health::decide(inputs, now, t);
        let why = health::explain(rule, health, &inputs, &activity, t);
        let snoozed_until = s
            .snooze
            .filter(|z| attention::snooze_holds(z, health, s.activity_reported_at, now))
            .map(|z| z.until);
        let waiting_for = (health == Health::Waiting)
            .then(|| waiting_for(&activity, s.activity_tool.as_ref()))
            .flatten();
        Session {
            id: s.id.to_string(),
            name: s.display_name(),
            source: Source::Greenroom,
            status,
            health,
            cwd: s.cwd.clone(),
            agent: s.agent.clone(),
            tmux_session,
            created_at: s.created_at,
            last_focused_at: looked_at,
            last_activity_at: last_signal_at,
            agent_session_id: s.agent_session_id.clone(),
            activity,
            orchestration,
            active_agent: self.active_agent_of(s).map(ToOwned::to_owned),
            usage: None,
            branch: s.worktree.as_ref().map(|w| w.branch.clone()),
            own_worktree: s
                .worktree
                .as_ref()
                .filter(|w| w.path == s.cwd)
                .map(|w| w.path.clone()),
            agent_orchestrator: None,
            archived,
            problems,
            adopted: None,
            changes: None,
            snoozed_until,
            waiting_for,
            why,
            host: None,
        }
    }

    /// What the row shows the agent doing: its last report (an archived
    /// record's is over, like its status) against what tmux shows.
    fn sidecar_activity(
        &self,
        s: &Sidecar,
        status: &Status,
        exit_status: Option<i32>,
        live: Option<&TmuxFacts>,
        archived: bool,
        now: DateTime<Utc>,
    ) -> ActivityView {
        let (report, from_record) = self.sidecar_word(s, archived);
        let mut activity = health::effective_activity(report, live, now, &self.config.thresholds);
        name_the_speaker(&mut activity, from_record, s);
        // How a kept dead pane ended is the news, unless a report says more.
        if let (Status::Exited, Some(code), None) = (status, exit_status, &activity.detail) {
            activity.detail = Some(format!("exited with status {code}"));
        }
        activity
    }

    /// The last word of a record's agent: its hook's report, heard beside
    /// Claude Code's own record of the conversation (an archived record's
    /// is over, like its status). Returns whether the record spoke.
    pub(super) fn sidecar_word<'a>(
        &'a self,
        s: &'a Sidecar,
        archived: bool,
    ) -> (Option<Report<'a>>, bool) {
        if archived {
            return (None, false);
        }
        let record = self.registry.of_session(s.agent_session_id.as_deref());
        super::registry::last_word(hook_report(s, &self.usage), record)
    }

    /// What is wrong with the record's own file and its Maestro state file.
    fn sidecar_problems(&self, path: &Path, s: &Sidecar, problems: &mut Vec<String>) {
        // Nearly always: no lookups of every row's folders.
        if self.problems.is_empty() {
            return;
        }
        if let Some(err) = self.problems.get(path) {
            problems.push(format!("{}: {err}", path.display()));
        }
        for cwd in super::sidecar_cwds(s) {
            if let Some(file) = self.active_state_file(cwd)
                && let Some(err) = self.problems.get(file)
            {
                problems.push(format!("{}: {err}", file.display()));
            }
        }
    }
}

/// A record's status with what tmux says of its session, and how its pane
/// ended. Dismissed or archived at start-up: whatever it last recorded
/// (Running, often) is over, and tmux's view of the name is not its.
fn sidecar_status(
    s: &Sidecar,
    archived: bool,
    facts: &Facts<'_>,
    tmux_session: Option<&str>,
) -> (Status, Option<TmuxFacts>, Option<i32>) {
    if archived {
        return (Status::Archived, None, None);
    }
    let (status, live) = live_status(facts, &s.status, tmux_session);
    let exit_status = live.as_ref().and_then(|f| f.exit_status).or(s.exit_status);
    (status, live, exit_status)
}

/// What a waiting session asks: the hook's words (Claude Code's
/// Notification message, Gemini CLI's command; Claude Code's own record's
/// `waitingFor`) and the tool call it holds;
/// a question the call puts (AskUserQuestion) is said in its own words,
/// not the Notification's "needs your permission". Greenroom's own rows
/// and hand-started ones alike.
pub(super) fn waiting_for(a: &ActivityView, tool: Option<&ToolCall>) -> Option<WaitingFor> {
    let said = a.detail.clone().filter(|_| {
        matches!(
            a.source,
            ActivitySource::Hook | ActivitySource::ClaudeRegistry
        )
    });
    let asked = tool.and_then(|t| t.question.clone());
    let w = WaitingFor {
        question: asked.or(said),
        tool: tool.and_then(|t| t.tool.clone()),
        command: tool.and_then(|t| t.command.clone()),
        options: tool.map(|t| t.options.clone()).unwrap_or_default(),
    };
    (w != WaitingFor::default()).then_some(w)
}

/// Row ids must be unique (the dashboard selects by id), but two Maestro
/// workspaces can share a session id, and AO can keep a legacy and a
/// current file for one session: those get their folder appended.
/// Returns whether every id was unique already.
fn make_ids_unique(rows: &mut [Session]) -> bool {
    // Borrowed: nearly always every id is unique already.
    let mut once: HashSet<&str> = HashSet::with_capacity(rows.len());
    if rows.iter().all(|r| once.insert(r.id.as_str())) {
        return true;
    }
    let mut seen: HashMap<String, usize> = HashMap::with_capacity(rows.len());
    for r in rows.iter() {
        *seen.entry(r.id.clone()).or_insert(0) += 1;
    }
    let mut used: HashSet<String> = HashSet::new();
    for r in rows.iter_mut() {
        if seen.get(&r.id).is_some_and(|&n| n > 1) {
            let mut id = format!("{}@{}", r.id, r.cwd.display());
            let mut n = 2;
            while used.contains(&id) {
                id = format!("{}@{}#{n}", r.id, r.cwd.display());
                n += 1;
            }
            r.id = id;
        }
        used.insert(r.id.clone());
    }
    false
}

/// A tmux session name from a file, if tmux may be handed it: a refused
/// one (see [`crate::tmux::check_session_name`]) leaves the row without a
/// tmux session, with the reason among its problems.
pub(super) fn checked_tmux_name(
    name: Option<&str>,
    path: &Path,
    problems: &mut Vec<String>,
) -> Option<String> {
    let name = name?;
    match crate::tmux::check_session_name(name) {
        Ok(()) => Some(name.to_owned()),
        Err(e) => {
            problems.push(format!("{}: {e}", path.display()));
            None
        }
    }
}

/// Status from tmux once tmux has been asked, else as the file says.
pub(super) fn live_status(
    facts: &Facts<'_>,
    recorded: &Status,
    tmux_name: Option<&str>,
) -> (Status, Option<TmuxFacts>) {
    let Some(facts) = facts else {
        return (recorded.clone(), None);
    };
    match tmux_name.and_then(|n| facts.get(n)) {
        Some(f) if f.pane_dead => (Status::Exited, Some(f.clone())),
        Some(f) => (Status::Running, Some(f.clone())),
        // Killed and Exited say how it ended; a vanished session is dormant.
        None if matches!(recorded, Status::Killed | Status::Exited) => (recorded.clone(), None),
        None => (Status::Dormant, None),
    }
}
