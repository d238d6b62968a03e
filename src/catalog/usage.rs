//! Token usage from agent transcripts, kept by the catalog: which files
//! belong to which session, and their incremental readers (Claude Code
//! transcripts, Gemini CLI session files, Codex CLI rollouts, OpenCode's db).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use super::WatchTarget;
use crate::model::{Budget, ModelUsage};
use crate::sources::codex_rollout;
use crate::sources::gemini;
use crate::sources::prices::Prices;
use crate::sources::sidecar::Sidecar;
use crate::sources::transcript;

mod by_hand;
mod codex;
// Which panes run Codex: the screens look at those (`catalog::screens`).
pub(super) use codex::is_codex;
mod codex_hand;
mod errors;
mod floor;
mod opencode;
pub(super) use opencode::is_opencode;
mod reader;
mod sessions;
mod spend;
mod sum;

use floor::Floors;
use reader::Reader;

/// Claude Code keeps subagents' transcripts beside the main one; Gemini
/// CLI and Codex CLI have no such folder.
fn subagent_dir(main: &Path) -> Option<PathBuf> {
    let other = gemini::is_session_file(main) || codex_rollout::is_rollout(main);
    (!other).then(|| transcript::subagent_dir(main))
}

/// The transcripts of every session, by file.
#[derive(Debug, Default)]
pub struct Transcripts {
    readers: BTreeMap<PathBuf, Reader>,
    /// Main transcript -> its subagents' transcripts.
    subagents: BTreeMap<PathBuf, BTreeSet<PathBuf>>,
    /// What files that now count less counted before.
    floors: Floors,
}

fn is_jsonl(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "jsonl")
}

impl Transcripts {
    /// Starts following a session's main transcript and its subagents.
    /// Returns whether usage is now known where it was not.
    pub fn track(&mut self, main: PathBuf) -> bool {
        if self.subagents.contains_key(&main) {
            return false;
        }
        let mut changed = self.follow(&main);
        let mut subs = BTreeSet::new();
        if let Some(Ok(entries)) = subagent_dir(&main).map(std::fs::read_dir) {
            for e in entries.filter_map(Result::ok) {
                let path = e.path();
                if is_jsonl(&path) {
                    changed |= self.follow(&path);
                    subs.insert(path);
                }
            }
        }
        self.subagents.insert(main, subs);
        changed
    }

    fn follow(&mut self, path: &Path) -> bool {
        let reader = self
            .readers
            .entry(path.to_path_buf())
            .or_insert_with(|| Reader::new(path));
        let before = reader.counted();
        match reader.refresh() {
            Ok(changed) => {
                if changed {
                    self.floors.after_read(path, before, &reader.counted());
                }
                changed
            }
            Err(e) => {
                tracing::debug!(path = %path.display(), error = %e, "transcript unreadable");
                false
            }
        }
    }

    /// Stops following a session's transcripts (the session is gone).
    pub fn untrack(&mut self, main: &Path) {
        if let Some(subs) = self.subagents.remove(main) {
            for sub in subs {
                self.readers.remove(&sub);
                self.floors.forget(&sub);
            }
        }
        self.readers.remove(main);
        self.floors.forget(main);
    }

    /// How many sessions' transcripts are followed.
    pub fn tracked(&self) -> usize {
        self.subagents.len()
    }

    /// A changed file: a known transcript, or a new subagent transcript.
    pub fn apply(&mut self, path: &Path) -> Option<bool> {
        if self.readers.contains_key(path) {
            return Some(self.follow(path));
        }
        if !is_jsonl(path) {
            return self.apply_folder(path);
        }
        let dir = path.parent()?;
        let main = self
            .subagents
            .keys()
            .find(|m| subagent_dir(m).is_some_and(|d| d == dir))?
            .clone();
        self.subagents
            .entry(main)
            .or_default()
            .insert(path.to_path_buf());
        Some(self.follow(path))
    }

    /// A folder that appeared (or vanished): the transcripts it holds are
    /// read now, since they may have been written before it was watched.
    fn apply_folder(&mut self, dir: &Path) -> Option<bool> {
        let mains: Vec<PathBuf> = self
            .subagents
            .keys()
            .filter(|m| m.parent() == Some(dir) || transcript::subagent_dir(m) == dir)
            .cloned()
            .collect();
        if mains.is_empty() {
            return None;
        }
        let mut changed = false;
        for main in mains {
            changed |= self.follow(&main);
            if let Ok(entries) = std::fs::read_dir(transcript::subagent_dir(&main)) {
                for e in entries.filter_map(Result::ok) {
                    let path = e.path();
                    if is_jsonl(&path) {
                        changed |= self.follow(&path);
                        self.subagents.entry(main.clone()).or_default().insert(path);
                    }
                }
            }
        }
        Some(changed)
    }

    /// The folders to watch: each transcript's folder and its subagents folder.
    pub fn folders(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for main in self.subagents.keys() {
            out.extend(main.parent().map(Path::to_path_buf));
            out.extend(subagent_dir(main));
        }
        out
    }

    /// Per-model usage of a session: its main transcript plus subagents.
    pub fn by_model(&self, main: &Path) -> Option<BTreeMap<String, ModelUsage>> {
        let subs = self.subagents.get(main)?;
        let mut total: BTreeMap<String, ModelUsage> = BTreeMap::new();
        let mut known = false;
        for path in std::iter::once(main).chain(subs.iter().map(PathBuf::as_path)) {
            let Some(reader) = self.readers.get(path) else {
                continue;
            };
            let floor = self.floors.get(path);
            known |= reader.offset() > 0 || floor.is_some();
            let by_model = floor.map_or(reader.by_model(), |f| &f.by_model);
            for (model, u) in by_model {
                let t = total.entry(model.clone()).or_default();
                t.add(u);
            }
        }
        known.then_some(total)
    }

    /// When a session last answered, in its main transcript or a
    /// subagent's: a word from the agent.
    pub fn last_answer_at(&self, main: &Path) -> Option<chrono::DateTime<chrono::Utc>> {
        let subs = self.subagents.get(main)?;
        std::iter::once(main)
            .chain(subs.iter().map(PathBuf::as_path))
            .filter_map(|p| self.readers.get(p)?.last_answer_at())
            .max()
    }

    /// The last API error a main transcript shows, if no answer followed it.
    pub fn last_api_error(&self, main: &Path) -> Option<&str> {
        self.readers.get(main)?.last_api_error()
    }

    /// Claude Code's own totals in a main transcript, and what it counted after them.
    pub fn agent_total(
        &self,
        main: &Path,
    ) -> Option<(&transcript::AgentTotal, &BTreeMap<String, ModelUsage>)> {
        match self.floors.get(main) {
            Some(floor) => floor.agent.as_ref().map(|(a, since)| (a, since)),
            None => self.readers.get(main)?.agent_total(),
        }
    }

    /// The agent's session id a main transcript records (Codex's rollout).
    pub fn session_id(&self, main: &Path) -> Option<&str> {
        self.readers.get(main)?.session_id()
    }

    /// Reasoning tokens a main transcript records now (inside its output;
    /// shown, not priced, so no floor is kept for it).
    pub fn reasoning(&self, main: &Path) -> u64 {
        self.readers.get(main).map_or(0, Reader::reasoning)
    }

    /// Tokens per minute over the last five minutes, all of a session's files.
    pub fn rate(&self, main: &Path, now: chrono::DateTime<chrono::Utc>) -> f64 {
        let Some(subs) = self.subagents.get(main) else {
            return 0.0;
        };
        std::iter::once(main)
            .chain(subs.iter().map(PathBuf::as_path))
            .filter_map(|p| self.readers.get(p))
            .map(|r| r.tokens_per_minute(now))
            .sum()
    }
}

/// Token usage followed: the transcripts read, which session each is the
/// main one of, and whether usage is followed at all.
#[derive(Debug)]
pub(super) struct UsageFiles {
    /// Claude Code's folder, where a session's transcript is looked for.
    claude_dir: Option<PathBuf>,
    /// Codex CLI's home, where a Codex session's rollout is looked for.
    codex_dir: Option<PathBuf>,
    prices: Prices,
    /// The limits a session's spend is judged by.
    budget: Budget,
    pub(super) transcripts: Transcripts,
    /// Sidecar id -> its main transcript, found when the sidecar was read.
    pub(super) paths: HashMap<uuid::Uuid, PathBuf>,
    /// Sidecar id -> the transcripts of its earlier conversations (`/clear`).
    earlier: HashMap<uuid::Uuid, Vec<PathBuf>>,
    /// Codex sessions whose rollout is not written yet (see `codex.rs`).
    codex_waiting: HashMap<uuid::Uuid, Sidecar>,
    /// The panes found running Codex CLI and the rollout each holds open
    /// (see `codex_hand.rs`).
    hand: codex_hand::HandRollouts,
    /// OpenCode's sessions, from its database (see `opencode.rs`).
    opencode: opencode::OpencodeStore,
    /// Whether token usage is followed (see [`Catalog::load_usage`]).
    pub(super) on: bool,
}

impl UsageFiles {
    pub(super) fn new(config: &super::Settings) -> Self {
        UsageFiles {
            claude_dir: config.claude_dir.clone(),
            codex_dir: config.codex_dir.clone(),
            prices: config.prices.clone(),
            budget: config.budget,
            transcripts: Transcripts::default(),
            paths: HashMap::new(),
            earlier: HashMap::new(),
            codex_waiting: HashMap::new(),
            hand: codex_hand::HandRollouts::default(),
            opencode: opencode::OpencodeStore::new(config.opencode_db.clone()),
            on: false,
        }
    }

    /// Each followed transcript's folder and its subagents folder, and
    /// where the rollouts Codex has not written yet will be (greenroom's
    /// own sessions', and those of the Codexes started by hand).
    pub(super) fn targets(&self) -> Vec<WatchTarget> {
        let folders = self.transcripts.folders().into_iter();
        let codex = self.codex_folders().into_iter();
        let hand = self.hand_folders().into_iter();
        let opencode = self.opencode.folder();
        folders
            .chain(codex)
            .chain(hand)
            .chain(opencode)
            .map(WatchTarget::folder)
            .collect()
    }

    /// How many sessions wait for Codex to write their rollout.
    pub(super) fn codex_waiting(&self) -> usize {
        self.codex_waiting.len()
    }
}
