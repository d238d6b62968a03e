//! Every source merged into one list of session rows.
//!
//! The catalog holds what each file last said, keyed by path. It is built
//! once at start-up, then follows the world one file change at a time
//! ([`Catalog::apply`]): only the file that changed is read again. Building
//! rows ([`Catalog::rows`]) does no IO.

mod adopted;
mod apply;
mod changes;
mod foreign;
mod maestro_state;
mod order;
mod reach;
mod registry;
mod row_cache;
mod rows;
mod settings;
mod status;
mod targets;
mod usage;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;

pub use crate::watch::{WatchMode, WatchTarget};
pub use apply::Applied;
use maestro_state::read_locations_parallel;
pub use order::{focus_order, sort_by_last_focus, sort_for_triage, triage_order};
pub use settings::Settings;
pub use status::StatusUpdate;

use crate::health::TmuxFacts;
use crate::model::{Orchestration, Problem};
use crate::sources::ao::{self, AoSession};
use crate::sources::maestro::{self, StateLocation};
use crate::sources::sidecar::{Sidecar, SidecarStore};
use crate::tmux::ServerState;

pub const ACTIVE_SESSION_FILE: &str = "active-session.md";

/// What the catalog knows, file by file.
#[derive(Debug)]
pub struct Catalog {
    config: Settings,
    include_archive: bool,
    /// Archived sidecars are read and followed (with `include_archive`, or
    /// after [`Catalog::follow_sidecar_archive`]).
    sidecar_archive: bool,
    store: SidecarStore,
    sidecars: BTreeMap<PathBuf, Sidecar>,
    archived_sidecars: BTreeMap<PathBuf, Sidecar>,
    /// Workspace (a session's cwd or a --state-dir) -> its active state file.
    workspaces: HashMap<PathBuf, PathBuf>,
    /// State folder -> its location; the keys are what the watcher watches.
    locations: BTreeMap<PathBuf, StateLocation>,
    /// Hashed, not ordered: rows look these up for every session, often.
    maestro: HashMap<PathBuf, Arc<Orchestration>>,
    /// State folder -> its newest archived state file: the orchestration its
    /// session finished, shown until a new one starts.
    finished: HashMap<PathBuf, PathBuf>,
    /// Workspaces the operator named (--state-dir): their orchestrations are
    /// rows of their own when no session claims them. A workspace known
    /// only as a session's folder goes with that session (dismissed, say).
    named_workspaces: HashSet<PathBuf>,
    ao: BTreeMap<PathBuf, AoSession>,
    /// Agent session id -> the agent Maestro's hooks say is working.
    active_agents: BTreeMap<String, String>,
    problems: HashMap<PathBuf, String>,
    tmux: Option<ServerState>,
    /// State folder -> the state files and problems last read from it.
    folder_paths: HashMap<PathBuf, Vec<PathBuf>>,
    transcripts: usage::Transcripts,
    /// Sidecar id -> its main transcript, found when the sidecar was read.
    transcript_paths: HashMap<uuid::Uuid, PathBuf>,
    /// Whether token usage is followed (see [`Catalog::load_usage`]).
    usage_on: bool,
    /// The git work trees sessions are in, and what git last said of them.
    git: changes::GitTrees,
    /// Snoozes of the rows greenroom does not own (Maestro, AO), by row id.
    snoozes: BTreeMap<String, crate::sources::snooze::Snooze>,
    /// `<sidecar dir>/adopted/`: records of agents greenroom did not start.
    adopted_dir: PathBuf,
    adopted: BTreeMap<PathBuf, Sidecar>,
    /// Claude Code's own session records, by path (`sessions/<pid>.json`).
    registry: BTreeMap<PathBuf, crate::sources::claude_registry::RegistryEntry>,
    /// The transcript each registry record's session id names.
    registry_transcripts: HashMap<PathBuf, PathBuf>,
    /// What each pane outside greenroom's sessions was found to run.
    probes: HashMap<crate::tmux::PaneId, adopted::Probe>,
    /// The programs discovery recognises as agents.
    known_programs: Vec<String>,
    /// Greenroom's own rows as last built, and how many the last build made anew.
    row_cache: row_cache::RowCache,
    rows_built: std::sync::atomic::AtomicUsize,
    /// Whether the last build's ids were all unique (none renamed).
    ids_were_unique: std::sync::atomic::AtomicBool,
    /// When the last build read the clock, and whether it holds rows the
    /// clock may change at any time (see [`Catalog::clock_moves_rows`]).
    last_build: std::sync::Mutex<Option<(chrono::DateTime<chrono::Utc>, bool)>>,
}

impl Catalog {
    /// Reads every source once. Never fails: unreadable files become problems.
    /// `settings` is what `config` builds (`&Config` will do).
    pub fn load(settings: impl Into<Settings>, include_archive: bool) -> Self {
        let config = &settings.into();
        let mut c = Self::empty(config, include_archive);
        c.read_snoozes();
        c.load_adopted();
        c.load_registry();
        let (live, problems) = c.store.load_all();
        c.add_problems(problems);
        for s in live {
            c.sidecars.insert(c.store.path_for(s.id), s);
        }
        if include_archive {
            c.follow_sidecar_archive();
        }
        // Register every state folder first, then read them all at once,
        // spread over the cores: parsing frontmatter is most of start-up.
        let pending = c.maestro_locations();
        for (loc, read) in read_locations_parallel(&pending, include_archive) {
            c.install_location(&loc, read);
        }
        if let Some(root) = &config.ao_dir {
            let (sessions, problems) = ao::read_root(root, include_archive);
            c.add_problems(problems);
            for s in sessions {
                c.ao.insert(s.path.clone(), s);
            }
        }
        let ids: Vec<String> = c
            .sidecars
            .values()
            .filter_map(|s| s.agent_session_id.clone())
            .collect();
        for id in ids {
            c.refresh_active_agent(&id);
        }
        c
    }

    /// A catalog that has read nothing yet.
    fn empty(config: &Settings, include_archive: bool) -> Self {
        Catalog {
            config: config.clone(),
            include_archive,
            sidecar_archive: false,
            store: SidecarStore::new(&config.sidecar_dir),
            sidecars: BTreeMap::new(),
            archived_sidecars: BTreeMap::new(),
            workspaces: HashMap::new(),
            locations: BTreeMap::new(),
            maestro: HashMap::new(),
            finished: HashMap::new(),
            named_workspaces: HashSet::new(),
            ao: BTreeMap::new(),
            active_agents: BTreeMap::new(),
            problems: HashMap::new(),
            tmux: None,
            folder_paths: HashMap::new(),
            transcripts: usage::Transcripts::default(),
            transcript_paths: HashMap::new(),
            usage_on: false,
            git: Default::default(),
            snoozes: BTreeMap::new(),
            adopted_dir: crate::sources::adopted::adopted_dir(&config.sidecar_dir),
            adopted: BTreeMap::new(),
            registry: BTreeMap::new(),
            registry_transcripts: HashMap::new(),
            probes: HashMap::new(),
            known_programs: adopted::known_programs(config),
            row_cache: Default::default(),
            rows_built: Default::default(),
            ids_were_unique: Default::default(),
            last_build: Default::default(),
        }
    }

    /// Registers the Maestro state folders to read: the configured ones
    /// (`--state-dir`), then each session's folder; returns those new.
    fn maestro_locations(&mut self) -> Vec<maestro::StateLocation> {
        let mut pending = Vec::new();
        let state_file = |loc: &maestro::StateLocation| loc.state_folder.join(ACTIVE_SESSION_FILE);
        for dir in &self.config.state_dirs {
            let loc = maestro::resolve_state_dir(dir, &self.config.maestro_state_dir);
            self.named_workspaces.insert(loc.workspace.clone());
            self.workspaces
                .insert(loc.workspace.clone(), state_file(&loc));
            if self
                .locations
                .insert(loc.state_folder.clone(), loc.clone())
                .is_none()
            {
                pending.push(loc);
            }
        }
        let cwds: Vec<PathBuf> = self
            .all_sidecars()
            .flat_map(sidecar_cwds)
            .map(ToOwned::to_owned)
            .collect();
        for cwd in cwds {
            if self.workspaces.contains_key(&cwd) {
                continue;
            }
            let loc = maestro::location_for_workspace(&cwd, &self.config.maestro_state_dir);
            self.workspaces.insert(cwd, state_file(&loc));
            if self
                .locations
                .insert(loc.state_folder.clone(), loc.clone())
                .is_none()
            {
                pending.push(loc);
            }
        }
        pending
    }

    /// Reads greenroom's own archived records and follows them from now on,
    /// without the other sources' archives: the dashboard shows them on
    /// request (`A`). Returns whether any were read.
    pub fn follow_sidecar_archive(&mut self) -> bool {
        if self.sidecar_archive {
            return false;
        }
        self.sidecar_archive = true;
        // Keyed by their real file, so a change to it (a restore moving
        // it back) reaches the right entry.
        let (archived, problems) = self.store.load_archived_files();
        let any = !archived.is_empty() || !problems.is_empty();
        self.add_problems(problems);
        self.archived_sidecars.extend(archived);
        any
    }

    /// Where sessions were looked for, for the empty state.
    pub fn looked_in(&self) -> Vec<PathBuf> {
        let mut out = vec![self.store.dir().to_path_buf()];
        out.extend(self.config.state_dirs.iter().cloned());
        out.extend(self.config.ao_dir.clone());
        out
    }

    /// Starts following token usage: reads every session's transcript.
    /// Separate from [`Catalog::load`] because long transcripts take time to
    /// read the first time: the dashboard does it after its first frame, and
    /// commands that show no usage skip it.
    pub fn load_usage(&mut self) -> bool {
        self.usage_on = true;
        let live: Vec<Sidecar> = self
            .sidecars
            .values()
            .chain(self.adopted_records())
            .cloned()
            .collect();
        let mut changed = false;
        for s in &live {
            changed |= self.track_transcript(s);
        }
        changed |= self.load_registry_usage();
        changed
    }

    pub fn settings(&self) -> &Settings {
        &self.config
    }

    fn all_sidecars(&self) -> impl Iterator<Item = &Sidecar> {
        self.sidecars
            .values()
            .chain(self.archived_sidecars.values())
    }

    /// Every file a row was read from: what start-up re-checks once the
    /// watches are armed, in case one was deleted in between.
    pub fn known_files(&self) -> Vec<PathBuf> {
        self.sidecars
            .keys()
            .chain(self.maestro.keys())
            .chain(self.ao.keys())
            .cloned()
            .collect()
    }

    /// Records a problem found outside the readers (a folder that cannot be watched).
    pub fn note_problem(&mut self, path: PathBuf, reason: String) {
        self.problems.insert(path, reason);
    }

    fn add_problems(&mut self, problems: Vec<Problem>) {
        for p in problems {
            self.problems.insert(p.path, p.error);
        }
    }

    /// Replaces what tmux says. Returns whether it differs from the last poll.
    pub fn set_tmux(&mut self, state: ServerState) -> bool {
        // A failed poll says nothing about the sessions: keep what we knew,
        // rather than calling every session dormant.
        if matches!(state, ServerState::Error(_)) {
            return false;
        }
        let changed = self.tmux.as_ref() != Some(&state);
        if changed {
            self.probe_panes(&state);
        }
        self.tmux = Some(state);
        changed
    }

    pub fn tmux_state(&self) -> Option<&ServerState> {
        self.tmux.as_ref()
    }

    /// Borrowed, not copied: rows look up every session's facts, each build.
    fn tmux_facts(&self) -> Option<&BTreeMap<String, TmuxFacts>> {
        static NO_SESSIONS: BTreeMap<String, TmuxFacts> = BTreeMap::new();
        match &self.tmux {
            Some(ServerState::Running(server)) => Some(server.sessions()),
            Some(ServerState::NoServer) => Some(&NO_SESSIONS),
            Some(ServerState::NotInstalled | ServerState::Error(_)) | None => None,
        }
    }

    /// Every problem, ordered by path.
    pub fn problems(&self) -> Vec<Problem> {
        let mut out: Vec<Problem> = self
            .problems
            .iter()
            .map(|(path, error)| Problem::new(path, error.clone()))
            .collect();
        out.extend(self.git_problems());
        out.sort_by(|a, b| a.path.cmp(&b.path));
        out
    }

    pub fn sidecars(&self) -> impl Iterator<Item = &Sidecar> {
        self.sidecars.values()
    }

    /// Changes whenever the set of watched folders may have grown.
    pub fn watch_targets_len_hint(&self) -> usize {
        self.locations.len() + self.transcripts.tracked() + self.git.len()
    }

    pub fn len(&self) -> usize {
        self.sidecars.len() + self.maestro.len() + self.ao.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The folders a session's Maestro state may live in: where it started,
/// where it is now, and the workspace its environment gives Maestro
/// (`MAESTRO_WORKSPACE_PATH`, which Maestro's server prefers to its cwd).
/// Borrowed: rows ask for every session's, each build.
fn sidecar_cwds(s: &Sidecar) -> impl Iterator<Item = &std::path::Path> + '_ {
    let named = s
        .env
        .get("MAESTRO_WORKSPACE_PATH")
        // Maestro ignores a value whose `${...}` template was not expanded.
        .filter(|p| !p.contains("${"))
        .map(std::path::Path::new)
        .filter(|p| p.is_absolute());
    std::iter::once(s.cwd.as_path())
        .chain(s.current_cwd.as_deref())
        .chain(named)
}
