//! The operator's comment on lines of a session's diff, sent to its agent
//! through the same path as `s` (`send.rs`): "In src/x.rs lines 40–52: …".

use std::path::Path;

use super::OpsError;
use crate::model::Session;
use crate::tmux::Tmux;

/// The words the agent reads. Lines are 1-based and inclusive; one line is
/// "line 40". The path is shown safely (a name with control characters
/// cannot reach the agent's terminal as such).
pub fn comment_text(path: &Path, first: u32, last: u32, comment: &str) -> String {
    let path = crate::display::safe_path(path);
    let (first, last) = (first.min(last), first.max(last));
    let lines = if first == last {
        format!("line {first}")
    } else {
        format!("lines {first}\u{2013}{last}")
    };
    format!("In {path} {lines}: {}", comment.trim())
}

/// Sends [`comment_text`] to the session's agent, as `s` sends a message.
pub fn send_comment(
    tmux: &Tmux,
    session: &Session,
    path: &Path,
    lines: (u32, u32),
    comment: &str,
) -> Result<(), OpsError> {
    super::send(
        tmux,
        session,
        &comment_text(path, lines.0, lines.1, comment),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_file_and_lines() {
        let p = Path::new("src/x.rs");
        assert_eq!(
            comment_text(p, 40, 52, " use a match "),
            "In src/x.rs lines 40–52: use a match"
        );
        assert_eq!(comment_text(p, 52, 40, "x"), "In src/x.rs lines 40–52: x");
        assert_eq!(comment_text(p, 7, 7, "typo"), "In src/x.rs line 7: typo");
        assert_eq!(
            comment_text(Path::new("a\x1b[2Jb.rs"), 1, 1, "x"),
            "In a\\x1b[2Jb.rs line 1: x"
        );
    }
}
