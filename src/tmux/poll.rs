//! Asking tmux for its sessions: the full poll (`list-panes -a`), by a tmux
//! process or through the control client, and the refresh of a few
//! sessions by id that keeps working agents' activity current between
//! full polls.

use super::{Control, SEP, Server, ServerState, Tmux, TmuxError, parse_server};

/// What the poll asks of each pane. The fixed-form fields come first; of
/// the free-form ones the session name is last (see [`parse_server`]).
fn format() -> String {
    [
        "#{pane_dead}",
        "#{pane_dead_status}",
        "#{window_activity}",
        "#{session_last_attached}",
        "#{pane_id}",
        "#{pane_pid}",
        "#{session_id}",
        "#{window_id}",
        // Whether a client looks at this pane: its session attached, its
        // window and pane the active ones (`1:11`); notifications skip it.
        "#{session_attached}:#{window_active}#{pane_active}",
        "#{pane_current_command}",
        "#{session_name}",
    ]
    .join(&SEP.to_string())
}

/// A control-mode command line for `list-panes` over `scope`: the format
/// in single quotes, where tmux's parser expands nothing (it holds no
/// quote; the format is expanded by `list-panes` itself).
fn list_panes(scope: &str) -> String {
    format!("list-panes {scope} -F '{}'", format())
}

/// A poll's answer as greenroom reads it.
fn server_state(answer: Result<String, TmuxError>) -> ServerState {
    match answer {
        Ok(text) => ServerState::Running(parse_server(&text)),
        Err(TmuxError::NotInstalled) => ServerState::NotInstalled,
        Err(TmuxError::NoServer) => ServerState::NoServer,
        // A server kept up with no sessions answers this to `-a`.
        Err(TmuxError::NoSession(_)) => ServerState::Running(Server::default()),
        Err(e) => {
            tracing::warn!(error = %e, "tmux poll failed");
            ServerState::Error(e.to_string())
        }
    }
}

impl Tmux {
    /// Every pane of every session in ONE call, folded into per-session facts.
    pub fn poll(&self) -> ServerState {
        server_state(self.run(["list-panes", "-a", "-F", &format()]))
    }
}

/// What a refresh of some sessions found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refresh {
    /// The facts and panes of the sessions that answered.
    pub part: Server,
    /// False when a target was not found (a session gone, a pane closed):
    /// what else changed needs the full poll.
    pub complete: bool,
}

impl Control {
    /// The full poll, through the control client: no tmux process.
    pub fn poll(&self) -> ServerState {
        server_state(self.run(list_panes("-a")))
    }

    /// The sessions of `targets` (ids from [`Server::refresh_target`]),
    /// each asked on its own line, all written at once.
    pub fn refresh(&self, targets: &[String]) -> Refresh {
        let lines: Vec<String> = targets
            .iter()
            .filter(|t| is_id(t))
            .map(|t| list_panes(&format!("-s -t '{t}'")))
            .collect();
        let mut text = String::new();
        let mut complete = lines.len() == targets.len();
        for answer in self.run_all(&lines) {
            match answer {
                Ok(t) => text.push_str(&t),
                Err(_) => complete = false,
            }
        }
        Refresh {
            part: parse_server(&text),
            complete,
        }
    }
}

/// A session (`$3`), window (`@4`) or pane id (`%12`): all a refresh may
/// put in a command line.
pub(super) fn is_id(text: &str) -> bool {
    let digits = text.strip_prefix(['$', '%', '@']).unwrap_or("");
    !digits.is_empty() && digits.len() <= 10 && digits.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_ids_reach_a_command_line() {
        for ok in ["$0", "$12", "%7", "@1"] {
            assert!(is_id(ok), "{ok}");
        }
        for bad in ["", "$", "%", "api", "$1'", "$1 ; kill-server", "@", "$#{x}"] {
            assert!(!is_id(bad), "{bad:?}");
        }
        assert!(!list_panes("-a").contains('\n'));
    }
}
