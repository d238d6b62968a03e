//! OpenCode's sessions, for greenroom's own OpenCode sessions: which of
//! OpenCode's sessions is theirs, its id (what `opencode --session`
//! resumes) and its running totals, from OpenCode's database
//! (`sources::opencode_db`). The database is read when a session starts
//! being followed and when it or its WAL changes, never while rows are
//! built.
//!
//! Which is whose, without a plugin naming it: an OpenCode session in a
//! greenroom session's folder belongs to the latest greenroom session
//! started there before it (a restore resumes the same OpenCode session,
//! so a greenroom session's first start counts); of those it owns, the
//! most recently updated is its conversation (`/new` in OpenCode starts
//! another). An id a report named wins. A sub-agent's session (its
//! `parent_id`) counts toward its parent's. A session an OpenCode started
//! by hand in a pane has as its conversation is that one's, not greenroom's
//! (`by_hand`: the rule for those).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use uuid::Uuid;

use crate::model::{ModelUsage, Usage};
use crate::sources::opencode_db::{self, OpencodeSession};
use crate::sources::prices::Prices;
use crate::sources::sidecar::Sidecar;
use crate::tmux::PaneId;

mod by_hand;

/// Whether a session runs OpenCode: its preset is `opencode`, or its
/// command's program is.
pub(in crate::catalog) fn is_opencode(s: &Sidecar) -> bool {
    let program = crate::model::program_of(&s.command)
        .map(|p| Path::new(p).file_name().is_some_and(|n| n == "opencode"));
    s.agent.as_deref() == Some("opencode") || program == Some(true)
}

/// What OpenCode's database last said, for the sessions followed.
#[derive(Debug, Default)]
pub(super) struct OpencodeStore {
    db: Option<PathBuf>,
    /// greenroom's OpenCode sessions, by id.
    followed: HashMap<Uuid, Sidecar>,
    /// The database's sessions updated since the first followed began.
    sessions: Vec<OpencodeSession>,
    /// Why the database could not be read last time.
    problem: Option<String>,
    /// OpenCodes started by hand, found in panes (see `by_hand`).
    by_hand: HashMap<PaneId, by_hand::ByHand>,
}

/// When a session began, in OpenCode's milliseconds.
fn started_ms(s: &Sidecar) -> Option<i64> {
    s.created_at.or(s.restored_at).map(|t| t.timestamp_millis())
}

impl OpencodeStore {
    pub(super) fn new(db: Option<PathBuf>) -> Self {
        OpencodeStore {
            db,
            ..Default::default()
        }
    }

    /// Follows an OpenCode session (or stops, when it is not one); reads
    /// the database when one is new. Returns whether its rows may change.
    pub(super) fn follow(&mut self, s: &Sidecar) -> bool {
        if !is_opencode(s) {
            return self.forget(s.id);
        }
        // OpenCode records the folder it runs in as the system names it.
        let mut kept = s.clone();
        if let Ok(real) = std::fs::canonicalize(&s.cwd) {
            kept.cwd = real;
        }
        let new = self.followed.insert(s.id, kept).is_none();
        new && self.refresh()
    }

    pub(super) fn forget(&mut self, id: Uuid) -> bool {
        self.followed.remove(&id).is_some()
    }

    /// Whether any session, or any OpenCode found in a pane, is followed.
    fn follows_any(&self) -> bool {
        !self.followed.is_empty() || self.follows_panes()
    }

    /// The database's folder, while any session is followed.
    pub(super) fn folder(&self) -> Option<PathBuf> {
        let db = self.db.as_ref().filter(|_| self.follows_any())?;
        db.parent().map(Path::to_path_buf)
    }

    /// A changed file: the database or its WAL is read again, and so is it
    /// when its folder is (newly armed: what changed before is read).
    /// `None` when the path is none of those, or nothing is followed.
    pub(super) fn apply(&mut self, path: &Path) -> Option<bool> {
        let db = self.db.as_deref().filter(|_| self.follows_any())?;
        let ours = opencode_db::is_store_file(db, path) || db.parent() == Some(path);
        ours.then(|| self.refresh())
    }

    /// Reads the database again. Returns whether what it says changed.
    fn refresh(&mut self) -> bool {
        let (by_hand, named) = self.pane_reads();
        let own = self.followed.values().filter_map(started_ms).min();
        let since = own.into_iter().chain(by_hand).min();
        let (Some(db), Some(since)) = (&self.db, since) else {
            return false;
        };
        let (sessions, problem) = match opencode_db::read_sessions_and(db, since, &named) {
            Ok(sessions) => (sessions, None),
            // Busy: what was read last stands until the next change.
            Err(opencode_db::StoreError::Busy) => return false,
            Err(e) => (Vec::new(), Some(e.to_string())),
        };
        let changed = sessions != self.sessions || problem != self.problem;
        self.sessions = sessions;
        self.problem = problem;
        changed
    }

    /// The database's problem, if the last read failed.
    pub(super) fn problem(&self) -> Option<(PathBuf, String)> {
        Some((self.db.clone()?, self.problem.clone()?))
    }

    /// The OpenCode session that is `s`'s conversation. No IO.
    pub(super) fn session_of(&self, s: &Sidecar) -> Option<&OpencodeSession> {
        let roots = self.sessions.iter().filter(|o| o.parent_id.is_none());
        if let Some(id) = s.agent_session_id.as_deref() {
            return roots.clone().find(|o| o.id == id);
        }
        let cwd = self.followed.get(&s.id).map_or(&s.cwd, |f| &f.cwd);
        // `sessions` is most recently updated first.
        roots
            .filter(|o| o.directory == *cwd)
            .find(|o| self.owner_of(o) == Some(s.id) && !self.taken_by_hand(o))
    }

    /// The followed session started latest in `o`'s folder, before `o`.
    fn owner_of(&self, o: &OpencodeSession) -> Option<Uuid> {
        self.followed
            .values()
            .filter(|s| s.cwd == o.directory && s.agent_session_id.is_none())
            .filter_map(|s| Some((started_ms(s)?, s.id)))
            .filter(|(start, _)| *start <= o.created_ms)
            .max()
            .map(|(_, id)| id)
    }

    /// `s`'s usage: its conversation's running totals and its sub-agents'.
    /// OpenCode's own cost when it priced the model, else greenroom's
    /// prices. No IO.
    pub(super) fn usage(&self, s: &Sidecar, prices: &Prices) -> Option<Usage> {
        Some(self.totals(self.session_of(s)?, prices))
    }

    /// The running totals of the conversation `main` and its sub-agents'.
    /// OpenCode's own cost when it priced the model, else greenroom's
    /// prices. No IO.
    fn totals(&self, main: &OpencodeSession, prices: &Prices) -> Usage {
        let parts = std::iter::once(main).chain(
            self.sessions
                .iter()
                .filter(|o| o.parent_id.as_deref() == Some(main.id.as_str())),
        );
        let mut by_model: std::collections::BTreeMap<String, ModelUsage> = Default::default();
        let (mut reasoning, mut own_cost) = (0u64, 0.0f64);
        for o in parts {
            let t = &o.tokens;
            let model = o.model.clone().unwrap_or_else(|| "unknown".into());
            let m = by_model.entry(model).or_default();
            m.input = m.input.saturating_add(t.input);
            // greenroom's output holds the reasoning; OpenCode's does not.
            m.output = m
                .output
                .saturating_add(t.output.saturating_add(t.reasoning));
            m.cache_read = m.cache_read.saturating_add(t.cache_read);
            m.cache_write = m.cache_write.saturating_add(t.cache_write);
            reasoning = reasoning.saturating_add(t.reasoning);
            own_cost += o.cost.unwrap_or(0.0);
        }
        let mut usage = prices.usage(by_model);
        usage.reasoning = reasoning;
        if own_cost > 0.0 {
            usage.cost_usd = Some(own_cost);
            usage.cost_source = Some("opencode".into());
            usage.unpriced_models.clear();
        }
        usage
    }
}

/// What the catalog asks of OpenCode's store.
impl super::UsageFiles {
    /// A changed file: OpenCode's database or its WAL is read again.
    /// `None` when the path is neither.
    pub(in crate::catalog) fn apply_opencode(&mut self, path: &Path) -> Option<bool> {
        self.opencode.apply(path)
    }

    /// OpenCode's database and why it could not be read, if it could not.
    pub(in crate::catalog) fn opencode_problem(&self) -> Option<(PathBuf, String)> {
        self.opencode.problem()
    }

    /// Whether OpenCode's database folder is watched.
    pub(in crate::catalog) fn opencode_watched(&self) -> bool {
        self.opencode.folder().is_some()
    }
}

#[cfg(test)]
mod tests;
