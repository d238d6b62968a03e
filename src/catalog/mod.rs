//! Every source merged into one list of session rows.
//!
//! The catalog holds what each file last said, keyed by path. It is built
//! once at start-up, then follows the world one file change at a time
//! ([`Catalog::apply`]): only the file that changed is read again. Building
//! rows ([`Catalog::rows`]) does no IO.

mod adopted;
mod ao_sessions;
mod apply;
mod changes;
mod maestro_rows;
mod maestro_state;
mod order;
mod own;
mod pane_row;
mod probe;
mod reach;
mod registry;
mod row_cache;
mod rows;
mod screens;
mod settings;
mod status;
mod usage;
mod word;

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

pub use crate::watch::{WatchMode, WatchTarget};
pub use apply::Applied;
use maestro_state::read_locations_parallel;
pub use order::{focus_order, sort_by_last_focus, sort_for_triage, spend_order, triage_order};
pub use screens::{Asked, ScreenPane};
pub use settings::Settings;
pub use status::StatusUpdate;

use crate::health::TmuxFacts;
use crate::model::Problem;
use crate::sources::maestro;
use crate::sources::sidecar::{Sidecar, SidecarStore};
use crate::tmux::ServerState;

pub const ACTIVE_SESSION_FILE: &str = "active-session.md";

/// Every source's unreadable files, by path, with why.
type Problems = HashMap<PathBuf, String>;

fn add_problems(to: &mut Problems, problems: Vec<Problem>) {
    for p in problems {
        to.insert(p.path, p.error);
    }
}

/// What the catalog knows, source by source, file by file.
#[derive(Debug)]
pub struct Catalog {
    config: Settings,
    problems: Problems,
    tmux: Option<ServerState>,
    own: own::Own,
    maestro: maestro_state::MaestroState,
    ao: ao_sessions::AoSessions,
    adopted: adopted::AdoptedPanes,
    registry: registry::Registry,
    usage: usage::UsageFiles,
    /// The git work trees sessions are in, and what git last said of them.
    git: changes::GitTrees,
    cache: row_cache::BuildCache,
    /// What Codex's panes last showed (see `screens.rs`).
    screens: screens::Screens,
}

impl Catalog {
    /// Reads every source once. Never fails: unreadable files become problems.
    /// `settings` is what `config` builds (`&Config` will do).
    pub fn load(settings: impl Into<Settings>, include_archive: bool) -> Self {
        let config = &settings.into();
        let mut c = Self::empty(config, include_archive);
        c.read_snoozes();
        c.read_looks();
        c.adopted.load(&mut c.problems);
        c.registry.load(&mut c.problems, &mut c.usage);
        let (live, problems) = c.own.store.load_all();
        c.add_problems(problems);
        for s in live {
            c.own.sidecars.insert(c.own.store.path_for(s.id), s);
        }
        if include_archive {
            c.follow_sidecar_archive();
        }
        // Register every state folder first, then read them all at once,
        // spread over the cores: parsing frontmatter is most of start-up.
        let pending = c.maestro_locations();
        for (loc, read) in read_locations_parallel(&pending, include_archive) {
            c.maestro.install_location(&loc, read, &mut c.problems);
        }
        c.ao.load(&mut c.problems);
        let ids: Vec<String> = c
            .own
            .sidecars
            .values()
            .filter_map(|s| s.agent_session_id.clone())
            .collect();
        for id in ids {
            c.maestro.refresh_active_agent(&id);
        }
        c
    }

    /// A catalog that has read nothing yet.
    fn empty(config: &Settings, include_archive: bool) -> Self {
        Catalog {
            config: config.clone(),
            problems: HashMap::new(),
            tmux: None,
            own: own::Own::new(SidecarStore::new(&config.sidecar_dir)),
            maestro: maestro_state::MaestroState::new(config, include_archive),
            ao: ao_sessions::AoSessions::new(config.ao_dir.clone(), include_archive),
            adopted: adopted::AdoptedPanes::new(config),
            registry: registry::Registry::new(config.claude_dir.as_deref()),
            usage: usage::UsageFiles::new(config),
            git: Default::default(),
            cache: Default::default(),
            screens: Default::default(),
        }
    }

    /// Registers the Maestro state folders to read: the configured ones
    /// (`--state-dir`), then each session's folder; returns those new.
    fn maestro_locations(&mut self) -> Vec<maestro::StateLocation> {
        let mut pending = Vec::new();
        let state_file = |loc: &maestro::StateLocation| loc.state_folder.join(ACTIVE_SESSION_FILE);
        for dir in &self.config.state_dirs {
            let loc = maestro::resolve_state_dir(dir, &self.config.maestro_state_dir);
            self.maestro.named.insert(loc.workspace.clone());
            self.maestro
                .workspaces
                .insert(loc.workspace.clone(), state_file(&loc));
            if self
                .maestro
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
            if self.maestro.workspaces.contains_key(&cwd) {
                continue;
            }
            let loc = maestro::location_for_workspace(&cwd, &self.config.maestro_state_dir);
            self.maestro.workspaces.insert(cwd, state_file(&loc));
            if self
                .maestro
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
        if self.own.follow_archive {
            return false;
        }
        self.own.follow_archive = true;
        // Keyed by their real file, so a change to it (a restore moving
        // it back) reaches the right entry.
        let (archived, problems) = self.own.store.load_archived_files();
        let any = !archived.is_empty() || !problems.is_empty();
        self.add_problems(problems);
        self.own.archived.extend(archived);
        any
    }

    /// Where sessions were looked for, for the empty state.
    pub fn looked_in(&self) -> Vec<PathBuf> {
        let mut out = vec![self.own.store.dir().to_path_buf()];
        out.extend(self.config.state_dirs.iter().cloned());
        out.extend(self.config.ao_dir.clone());
        out
    }

    /// Starts following token usage: reads every session's transcript.
    /// Separate from [`Catalog::load`] because long transcripts take time to
    /// read the first time: the dashboard does it after its first frame, and
    /// commands that show no usage skip it.
    pub fn load_usage(&mut self) -> bool {
        self.usage.on = true;
        let live: Vec<Sidecar> = self
            .own
            .sidecars
            .values()
            .chain(self.own.archived.values())
            .chain(self.adopted.records.values())
            .cloned()
            .collect();
        let mut changed = false;
        for s in &live {
            changed |= self.usage.track(s);
        }
        changed |= self.registry.load_usage(&mut self.usage);
        changed |= self.usage.load_panes(&self.adopted.probes);
        changed
    }

    pub fn settings(&self) -> &Settings {
        &self.config
    }

    fn all_sidecars(&self) -> impl Iterator<Item = &Sidecar> {
        self.own.sidecars.values().chain(self.own.archived.values())
    }

    /// Every file a row was read from: what start-up re-checks once the
    /// watches are armed, in case one was deleted in between.
    pub fn known_files(&self) -> Vec<PathBuf> {
        self.own
            .sidecars
            .keys()
            .chain(self.maestro.states.keys())
            .chain(self.ao.sessions.keys())
            .cloned()
            .collect()
    }

    /// Records a problem found outside the readers (a folder that cannot be watched).
    pub fn note_problem(&mut self, path: PathBuf, reason: String) {
        self.problems.insert(path, reason);
    }

    fn add_problems(&mut self, problems: Vec<Problem>) {
        add_problems(&mut self.problems, problems);
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
            let claimed = adopted::claimed_sessions(&self.own, &self.ao);
            self.adopted.probe_panes(&state, &claimed);
            // When a pane was first seen: its Codex's rollout folders are
            // watched from that day on. (The rows are built again anyway.)
            self.usage
                .follow_panes(&self.adopted.probes, chrono::Utc::now());
        }
        self.tmux = Some(state);
        if changed {
            self.forget_screens();
        }
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
        out.extend(self.git.problems());
        let opencode = self.usage.opencode_problem();
        out.extend(opencode.map(|(path, error)| Problem::new(path, error)));
        out.sort_by(|a, b| a.path.cmp(&b.path));
        out
    }

    /// Looks for the work tree of every row's folder not looked at yet.
    /// Returns the work trees found for the first time, to be read.
    pub fn discover_work_trees(&mut self, rows: &[crate::model::Session]) -> Vec<crate::git::Repo> {
        self.git.discover(rows)
    }

    /// The work tree a changed path belongs to: an entry of its git
    /// folder, or a file in its top folders.
    pub fn work_tree_of(&self, path: &std::path::Path) -> Option<&std::path::Path> {
        self.git.tree_of(path)
    }

    /// The work tree of a session's folder, if it is in one.
    pub fn work_tree_for(&self, cwd: &std::path::Path) -> Option<&std::path::Path> {
        self.git.tree_for(cwd)
    }

    /// Records a read of a work tree. Returns whether what the rows show changed.
    pub fn set_changes(&mut self, root: &std::path::Path, changes: crate::model::Changes) -> bool {
        self.git.set_changes(root, changes)
    }

    /// Sidecars whose recorded status tmux contradicts (see
    /// [`own::Own::status_updates`]). Empty until tmux has answered.
    pub fn status_updates(&self) -> Vec<StatusUpdate> {
        self.tmux_facts()
            .map(|facts| self.own.status_updates(facts))
            .unwrap_or_default()
    }

    /// Records of this server's panes that are gone (start-up removes them:
    /// a pane's record is worth nothing once its pane has closed).
    pub fn stale_adopted(&self) -> Vec<PathBuf> {
        self.adopted.stale(self.tmux.as_ref())
    }

    /// Every folder the catalog's files live in, whether or not it exists
    /// yet (the watcher waits for missing ones to appear).
    pub fn watch_targets(&self) -> Vec<WatchTarget> {
        let mut out = self.own.targets();
        out.extend(self.adopted.targets());
        out.extend(self.registry.targets());
        out.extend(self.maestro.targets());
        out.extend(self.usage.targets());
        out.extend(self.ao.targets());
        out.extend(self.git.targets());
        out.sort();
        out.dedup();
        out
    }

    pub fn sidecars(&self) -> impl Iterator<Item = &Sidecar> {
        self.own.sidecars.values()
    }

    /// Changes whenever the set of watched folders may have grown.
    pub fn watch_targets_len_hint(&self) -> usize {
        self.maestro.locations.len()
            + self.usage.transcripts.tracked()
            + self.usage.codex_waiting()
            + self.usage.hand_count()
            + usize::from(self.usage.opencode_watched())
            + self.git.len()
    }

    pub fn len(&self) -> usize {
        self.own.sidecars.len() + self.maestro.states.len() + self.ao.sessions.len()
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
