//! Claude Code's own session registry in the catalog: which record speaks
//! for which tmux pane, and the transcript its session id names.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use super::pane_row::{Heard, pane_row};
use super::rows::{RowContext, waiting_for};
use super::usage::UsageFiles;
use super::{Problems, WatchTarget};
use crate::health::{self, Report};
use crate::model::{Activity, ActivitySource, Adopted, Health, Session, Usage};
use crate::sources::claude_registry::{self, RegistryEntry};
use crate::sources::{read_text_file, transcript};
use crate::tmux::Pane;

/// Claude Code's own session records, by path (`sessions/<pid>.json`),
/// and the transcript each one's session id names.
#[derive(Debug, Default)]
pub(super) struct Registry {
    /// The registry folder of the configured Claude Code folder, if any.
    dir: Option<PathBuf>,
    /// Claude Code's folder, where a record's transcript is looked for.
    claude_dir: Option<PathBuf>,
    pub(super) entries: BTreeMap<PathBuf, RegistryEntry>,
    pub(super) transcripts: HashMap<PathBuf, PathBuf>,
    /// The records of `entries` by the session id and by the pane they
    /// name: every row looks its record up, at every build, and a linear
    /// scan of the records for each was most of a build with many. Kept
    /// in path order, as `entries`, so ties go the same way.
    by_session: HashMap<String, BTreeSet<PathBuf>>,
    by_pane: HashMap<String, BTreeSet<PathBuf>>,
}

impl Registry {
    pub(super) fn new(claude_dir: Option<&Path>) -> Self {
        Registry {
            dir: claude_dir.map(claude_registry::registry_dir),
            claude_dir: claude_dir.map(Path::to_path_buf),
            ..Registry::default()
        }
    }

    /// Whether `path` is a record of the registry folder.
    fn is_record(&self, path: &Path) -> bool {
        self.dir
            .as_ref()
            .is_some_and(|dir| path.parent() == Some(dir.as_path()))
            && claude_registry::registry_pid(path).is_some()
    }

    /// Whether a changed path is the registry's: a record, or the folder.
    pub(super) fn claims(&self, path: &Path) -> bool {
        self.is_record(path) || self.dir.as_deref() == Some(path)
    }

    /// Claude Code's own session records: what a Claude Code with no
    /// hooks says of itself.
    pub(super) fn targets(&self) -> Vec<WatchTarget> {
        self.dir.iter().map(WatchTarget::folder).collect()
    }
}

impl Registry {
    /// Reads every record in the registry folder (a missing folder is no
    /// Claude Code running: nothing, no problem).
    pub(super) fn load(&mut self, problems: &mut Problems, usage: &mut UsageFiles) -> bool {
        let Some(dir) = self.dir.clone() else {
            return false;
        };
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return false;
        };
        let paths: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| claude_registry::registry_pid(p).is_some())
            .collect();
        let mut changed = false;
        for path in paths {
            changed |= self.apply_record(&path, problems, usage);
        }
        changed
    }

    /// Reads the registry folder again: the records gone are dropped, the
    /// rest read. Returns whether rows change.
    fn rescan(&mut self, problems: &mut Problems, usage: &mut UsageFiles) -> bool {
        let gone: Vec<PathBuf> = self
            .entries
            .keys()
            .filter(|p| std::fs::symlink_metadata(p).is_err())
            .cloned()
            .collect();
        let mut changed = false;
        for path in gone {
            changed |= self.apply_record(&path, problems, usage);
        }
        changed | self.load(problems, usage)
    }

    /// A record of the registry folder changed, or the folder itself
    /// appeared (or went): what it holds was written before its watch was
    /// armed. Returns whether rows change.
    pub(super) fn apply(
        &mut self,
        path: &Path,
        problems: &mut Problems,
        usage: &mut UsageFiles,
    ) -> bool {
        if self.is_record(path) {
            self.apply_record(path, problems, usage)
        } else {
            self.rescan(problems, usage)
        }
    }

    /// A record changed, appeared or went (Claude Code removes its own at
    /// exit). Returns whether rows change.
    fn apply_record(
        &mut self,
        path: &Path,
        problems: &mut Problems,
        usage: &mut UsageFiles,
    ) -> bool {
        if std::fs::symlink_metadata(path).is_err() {
            let had_problem = problems.remove(path).is_some();
            self.transcripts.remove(path);
            return self.remove_entry(path) || had_problem;
        }
        let read = read_text_file(path).and_then(|t| claude_registry::parse_entry(&t, path));
        match read {
            Ok(mut entry) => {
                entry.ancestry = crate::sources::procs::ancestry(entry.pid);
                let had_problem = problems.remove(path).is_some();
                let tracked = usage.on && self.track(&entry, usage);
                let changed = self.entries.get(path) != Some(&entry);
                self.insert_entry(path, entry);
                changed || had_problem || tracked
            }
            Err(e) => {
                self.remove_entry(path);
                problems.insert(path.to_path_buf(), e.clone()).as_ref() != Some(&e)
            }
        }
    }

    /// Keeps a record, in `entries` and its indexes.
    fn insert_entry(&mut self, path: &Path, entry: RegistryEntry) {
        self.remove_entry(path);
        self.by_session
            .entry(entry.session_id.clone())
            .or_default()
            .insert(path.to_path_buf());
        if let Some(pane) = &entry.tmux_pane {
            self.by_pane
                .entry(pane.clone())
                .or_default()
                .insert(path.to_path_buf());
        }
        self.entries.insert(path.to_path_buf(), entry);
    }

    /// Drops a record from `entries` and its indexes. Returns whether it was kept.
    fn remove_entry(&mut self, path: &Path) -> bool {
        let Some(old) = self.entries.remove(path) else {
            return false;
        };
        unindex(&mut self.by_session, &old.session_id, path);
        if let Some(pane) = &old.tmux_pane {
            unindex(&mut self.by_pane, pane, path);
        }
        true
    }

    /// The records of `index` under `key`, in path order.
    fn indexed<'a>(
        &'a self,
        index: &'a HashMap<String, BTreeSet<PathBuf>>,
        key: &str,
    ) -> impl Iterator<Item = &'a RegistryEntry> {
        index
            .get(key)
            .into_iter()
            .flatten()
            .filter_map(|path| self.entries.get(path))
    }

    /// Follows the transcript a record's session id names.
    fn track(&mut self, entry: &RegistryEntry, usage: &mut UsageFiles) -> bool {
        let main = self.claude_dir.as_deref().and_then(|claude| {
            let cwd = entry.cwd.as_deref()?;
            transcript::locate(claude, cwd, &entry.session_id)
        });
        match main {
            Some(main) => {
                self.transcripts.insert(entry.path.clone(), main.clone());
                usage.transcripts.track(main)
            }
            None => self.transcripts.remove(&entry.path).is_some(),
        }
    }

    /// Starts following every record's transcript (see `load_usage`).
    pub(super) fn load_usage(&mut self, usage: &mut UsageFiles) -> bool {
        let entries: Vec<RegistryEntry> = self.entries.values().cloned().collect();
        let mut changed = false;
        for e in &entries {
            changed |= self.track(e, usage);
        }
        changed
    }

    /// The record that speaks for a pane: its pane id and its session
    /// name both as the record says (the record names no tmux server, and
    /// pane ids start again at `%0` on a new server), written by a process
    /// that runs in that pane (a record naming the operator's own pane, or
    /// a stale one whose process is gone, speaks for nothing).
    pub(super) fn of(&self, pane: &Pane) -> Option<&RegistryEntry> {
        self.indexed(&self.by_pane, pane.id.as_str()).find(|e| {
            e.tmux_pane.as_deref() == Some(pane.id.as_str())
                && e.tmux_session.as_deref() == Some(pane.session.as_str())
                && e.ancestry.contains(&pane.pid)
        })
    }

    /// The live record of the Claude Code conversation its hooks named (the
    /// session id they reported): a record whose process was gone when it
    /// was read (no parent found) speaks for nothing.
    pub(super) fn of_session(&self, id: Option<&str>) -> Option<&RegistryEntry> {
        let id = id?;
        self.indexed(&self.by_session, id)
            .filter(|e| e.session_id == id && e.ancestry.len() > 1)
            .max_by_key(|e| e.status_at)
    }

    /// The usage a record's transcript holds, priced. No IO.
    fn usage(&self, e: &RegistryEntry, usage: &UsageFiles, now: DateTime<Utc>) -> Option<Usage> {
        let main = self.transcripts.get(&e.path)?;
        usage.of_main(main, now)
    }
}

/// Takes `path` out of `index` under `key`, and the key once it holds none.
fn unindex(index: &mut HashMap<String, BTreeSet<PathBuf>>, key: &str, path: &Path) {
    if let Some(paths) = index.get_mut(key) {
        paths.remove(path);
        if paths.is_empty() {
            index.remove(key);
        }
    }
}

/// Claude Code's own status as a report: busy, waiting or idle, since it
/// last set it. Its record turns idle on an interrupt: heard.
pub(super) fn registry_report<'a>(e: &'a RegistryEntry, state: &'a Activity) -> Report<'a> {
    Report {
        state,
        detail: e.waiting_for.as_deref(),
        since: e.status_at,
        reported_at: e.status_at,
        hears_interrupt: true,
    }
}

/// Idle, as a report borrows it.
static IDLE: Activity = Activity::Idle;

/// The last word of a Claude Code whose hooks report and which keeps its
/// own record: the hook's report, unless the record turned idle after the
/// hook said Active or AwaitingInput. That is an interrupt (Esc) or a
/// refused prompt ("No", Esc), on which Claude Code fires no hook; so with
/// a record both are heard, and the screen need not tell them (see
/// [`Report::hears_interrupt`]). Otherwise the hooks stay the first
/// source. Returns whether the record spoke.
pub(super) fn last_word<'a>(
    hook: Option<Report<'a>>,
    record: Option<&RegistryEntry>,
) -> (Option<Report<'a>>, bool) {
    let Some(record) = record else {
        return (hook, false);
    };
    let hook = hook.map(|r| Report {
        hears_interrupt: true,
        ..r
    });
    let interrupted = hook.as_ref().is_some_and(|r| {
        matches!(*r.state, Activity::Active | Activity::AwaitingInput)
            && record.activity() == Activity::Idle
            && record.status_at > r.reported_at
    });
    if !interrupted {
        return (hook, false);
    }
    let report = Report {
        state: &IDLE,
        detail: None,
        since: record.status_at,
        reported_at: record.status_at,
        hears_interrupt: true,
    };
    (Some(report), true)
}

impl Registry {
    /// A Claude Code with no greenroom hooks, by its own record: its
    /// status (busy, waiting, idle), session id and usage.
    pub(super) fn row(
        &self,
        pane: &Pane,
        e: &RegistryEntry,
        agent: Option<String>,
        usage: &UsageFiles,
        cx: &RowContext<'_>,
    ) -> Session {
        let (t, now) = (cx.thresholds, cx.now);
        let facts = pane.facts();
        let state = e.activity();
        let mut activity =
            health::effective_activity(Some(registry_report(e, &state)), Some(&facts), now, t);
        if activity.source == ActivitySource::Hook {
            activity.source = ActivitySource::ClaudeRegistry;
        }
        // Its status changes only with the turn's state: in a long turn
        // with no question, its transcript's answers are its words.
        let answered = self
            .transcripts
            .get(&e.path)
            .and_then(|main| usage.transcripts.last_answer_at(main));
        let last_signal_at = health::sign_of_life(
            state == Activity::Active,
            [e.status_at, answered],
            facts.window_activity,
        );
        let agent = agent.unwrap_or_else(|| "claude".to_owned());
        let cwd = e.cwd.clone().unwrap_or_default();
        let heard = Heard::running(activity, last_signal_at, None);
        let mut row = pane_row(pane, agent, cwd, heard, cx);
        row.agent_session_id = Some(e.session_id.clone());
        // What it waits for, in its record's words ("permission prompt").
        row.waiting_for = (row.health == Health::Waiting)
            .then(|| waiting_for(&row.activity, None))
            .flatten();
        row.usage = self.usage(e, usage, now);
        row.adopted = Some(Adopted {
            pane: pane.id.clone(),
            hooks: false,
            record: None,
        });
        row
    }
}

#[cfg(test)]
mod tests;
