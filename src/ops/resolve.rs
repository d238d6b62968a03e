//! Finding the session an operator means by an ID typed on the command
//! line, and the sessions a bulk dismiss would take.

use super::OpsError;
use crate::model::{Session, Source};

/// The shortest uuid prefix accepted, so a stray character never picks a
/// session.
pub const MIN_PREFIX: usize = 4;

/// The one row `id` names. Tried in order, the first kind that matches
/// wins: the exact name, the exact id, the exact tmux session name, then
/// (for greenroom's own sessions, at least [`MIN_PREFIX`] characters) a
/// uuid prefix. Exact matches come first, so `api-1` never picks `api-10`.
/// Several matches of one kind are an error that lists them.
pub fn resolve<'a>(rows: &'a [Session], id: &str) -> Result<&'a Session, OpsError> {
    let id = id.trim();
    if id.is_empty() {
        return Err(OpsError::UnknownId(id.to_owned()));
    }
    let lower = id.to_ascii_lowercase();
    let is_prefix = id.len() >= MIN_PREFIX && id.chars().all(|c| c.is_ascii_hexdigit() || c == '-');
    let kinds: [&dyn Fn(&Session) -> bool; 4] = [
        &|s| s.name == id,
        &|s| s.id == id,
        &|s| s.tmux_session.as_deref() == Some(id),
        &|s| is_prefix && s.source == Source::Greenroom && s.id.starts_with(&lower),
    ];
    for matches in kinds {
        let found: Vec<&Session> = rows.iter().filter(|s| matches(s)).collect();
        match found.as_slice() {
            [] => continue,
            [one] => return Ok(one),
            many => {
                let mut candidates: Vec<String> = many.iter().map(|s| describe(s)).collect();
                candidates.sort();
                return Err(OpsError::Ambiguous {
                    id: id.to_owned(),
                    candidates: candidates.join(", "),
                });
            }
        }
    }
    Err(OpsError::UnknownId(id.to_owned()))
}

/// `name (id)`, the id cut to 8 characters when it is a uuid.
fn describe(s: &Session) -> String {
    let short = match s.source {
        Source::Greenroom => s.id.get(..8).unwrap_or(&s.id),
        _ => &s.id,
    };
    format!("{} ({short})", s.name)
}

/// What `dismiss --all-dormant` takes: every session greenroom keeps a
/// record of that is not live (its own dormant, killed or exited ones, and
/// ended agents it did not start), not yet dismissed.
pub fn dismissable(rows: &[Session]) -> Vec<&Session> {
    rows.iter().filter(|s| s.can_dismiss()).collect()
}
