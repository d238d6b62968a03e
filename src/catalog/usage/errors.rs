//! Why a session errored, in its agent's own words from its transcript.

use super::UsageFiles;
use crate::sources::sidecar::Sidecar;

impl UsageFiles {
    /// Why a session errored, when its report does not say: the hook's
    /// payload may carry only "unknown"; the transcript has the agent's
    /// own words. No IO.
    pub(in crate::catalog) fn error_words(&self, s: &Sidecar) -> Option<&str> {
        let vague = s
            .activity_detail
            .as_deref()
            .is_none_or(|d| matches!(d.trim(), "" | "unknown" | "stop failure"));
        if s.activity != Some(crate::model::Activity::Error) || !vague {
            return None;
        }
        let main = self.paths.get(&s.id)?;
        self.transcripts.last_api_error(main)
    }
}
