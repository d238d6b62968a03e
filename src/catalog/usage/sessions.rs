//! Which files are a session's: its main transcript (the hook's, Codex's
//! rollout, or Claude Code's file for its id), following and forgetting
//! them, its agent's session id, and the usage one transcript holds.

use std::path::{Path, PathBuf};

use super::{UsageFiles, codex, is_opencode};
use crate::model::Usage;
use crate::sources::sidecar::Sidecar;
use crate::sources::transcript;

impl UsageFiles {
    /// A session's main transcript: the hook's `transcript_path`, else
    /// Codex's rollout for a Codex session, else the Claude folder's file
    /// for its agent session id.
    pub(in crate::catalog) fn transcript_of(&self, s: &Sidecar) -> Option<PathBuf> {
        if let Some(p) = &s.transcript_path {
            return Some(p.clone());
        }
        if codex::is_codex(s) {
            // A rollout a hand-started Codex holds open is that one's.
            let taken = |p: &Path| {
                self.paths.iter().any(|(id, q)| *id != s.id && q == p) || self.held_by_hand(p)
            };
            return codex::rollout_of(self.codex_dir.as_deref(), s, &taken);
        }
        let id = s.agent_session_id.as_deref()?;
        let claude = self.claude_dir.as_deref()?;
        std::iter::once(&s.cwd)
            .chain(s.current_cwd.as_ref())
            .filter_map(|cwd| transcript::locate(claude, cwd, id))
            .find(|p| p.exists())
            .or_else(|| transcript::locate(claude, &s.cwd, id))
    }

    /// Finds (once per change of the sidecar) and follows its transcript,
    /// and those of its earlier conversations.
    pub(in crate::catalog) fn track(&mut self, s: &Sidecar) -> bool {
        let mut changed = false;
        for earlier in &s.earlier_transcripts {
            changed |= self.transcripts.track(earlier.clone());
        }
        if s.earlier_transcripts.is_empty() {
            changed |= self.earlier.remove(&s.id).is_some();
        } else {
            self.earlier.insert(s.id, s.earlier_transcripts.clone());
        }
        changed | self.opencode.follow(s) | self.track_main(s)
    }

    pub(super) fn track_main(&mut self, s: &Sidecar) -> bool {
        let main = self.transcript_of(s);
        self.note_codex(s, main.is_some());
        match main {
            Some(main) => {
                self.paths.insert(s.id, main.clone());
                self.transcripts.track(main)
            }
            None => self.paths.remove(&s.id).is_some(),
        }
    }

    /// Stops following a session's transcripts (dismissed or deleted),
    /// those another session also names excepted (it resumed the same
    /// conversation).
    pub(in crate::catalog) fn forget(&mut self, id: uuid::Uuid) {
        self.codex_waiting.remove(&id);
        self.opencode.forget(id);
        let files: Vec<PathBuf> = self
            .paths
            .remove(&id)
            .into_iter()
            .chain(self.earlier.remove(&id).unwrap_or_default())
            .collect();
        for file in files {
            let named = self.paths.values().chain(self.earlier.values().flatten());
            if !named.clone().any(|m| *m == file) {
                self.transcripts.untrack(&file);
            }
        }
    }

    /// The agent's own session id from the session's transcript, for a
    /// session no hook told it (Codex's rollout names it, OpenCode's
    /// database holds it). No IO.
    pub(in crate::catalog) fn agent_session_id(&self, s: &Sidecar) -> Option<&str> {
        if is_opencode(s) {
            return self.opencode.session_of(s).map(|o| o.id.as_str());
        }
        self.transcripts.session_id(self.paths.get(&s.id)?)
    }

    /// The usage one main transcript holds, priced. No IO.
    pub(in crate::catalog) fn at(
        &self,
        main: &std::path::Path,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Option<Usage> {
        let by_model = self.transcripts.by_model(main)?;
        // Claude Code's own totals cover its subagents up to the record;
        // after it, only the main transcript's new messages are added.
        let mut usage = match self.transcripts.agent_total(main) {
            Some((total, since)) => self.prices.usage_after(Some(total), since.clone()),
            None => self.prices.usage(by_model),
        };
        usage.tokens_per_minute = self.transcripts.rate(main, now);
        usage.reasoning = self.transcripts.reasoning(main);
        usage.today = self.today(main, now);
        Some(usage)
    }
}
