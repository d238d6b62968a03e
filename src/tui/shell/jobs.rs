//! The work behind the reducer's effects that act on sessions: each runs
//! off the event loop (tmux and git can be slow) and reports back as an
//! [`Action`], with a typed [`Finished`] the reducer words. Attaching
//! outside tmux needs the terminal and lives in the runner.

use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::model::Session;
use crate::ops::{self, Launch, SpawnRequest};
use crate::sources::sidecar::SidecarStore;
use crate::tui::action::{Action, Completion, Finished, NewSession, SpawnDefaults};

use crate::tmux::{Beside, Tmux, host_from_env};

/// What effects need: the settings and handles on the world.
#[derive(Clone)]
pub struct Context {
    pub config: Config,
    pub tmux: Tmux,
    pub store: SidecarStore,
}

impl Context {
    pub fn new(config: &Config, tmux: Tmux) -> Self {
        Self {
            config: config.clone(),
            tmux,
            store: SidecarStore::new(&config.sidecar_dir),
        }
    }

    /// Defaults for the new-session form: the first free name, the selected
    /// session's folder (else the current one), the configured presets and
    /// which of them are not installed (their program is not on PATH).
    pub fn spawn_form(&self, selected_cwd: Option<PathBuf>) -> Action {
        let name = ops::default_name(&self.tmux, &self.store, &self.config.name_prefix)
            .unwrap_or_default();
        let cwd = selected_cwd
            .filter(|p| p.is_dir())
            .or_else(|| self.config.environ.current_dir().map(ToOwned::to_owned))
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let mut agents: Vec<String> = self.config.agents.keys().cloned().collect();
        if agents.is_empty() {
            agents.push("shell".into());
        }
        let (path, home) = (self.config.environ.path(), self.config.environ.home());
        let missing = self
            .config
            .agents
            .iter()
            .filter(|(_, preset)| {
                preset
                    .program()
                    .is_some_and(|p| !installed(p, path, home.as_deref()))
            })
            .map(|(name, _)| name.clone())
            .collect();
        Action::OpenSpawnForm(SpawnDefaults {
            name,
            cwd,
            agents,
            missing,
        })
    }

    pub fn spawn(&self, form: &NewSession) -> Action {
        let cwd = expand_home(&form.cwd, self.config.environ.home().as_deref());
        let request = SpawnRequest {
            name: Some(form.name.clone()).filter(|n| !n.is_empty()),
            cwd,
            launch: form.agent.clone().map_or(Launch::Default, Launch::Preset),
            worktree: form.worktree.clone(),
            prompt: form.prompt.clone(),
        };
        Action::Spawned(
            ops::spawn(&self.tmux, &self.config, &request)
                .map(|s| s.sidecar.id.to_string())
                .map_err(|e| e.to_string()),
        )
    }

    pub fn kill(&self, sessions: &[Session]) -> Action {
        let (ok, failed) = each(sessions, |s| ops::kill(&self.tmux, &self.store, s));
        Action::Finished(Finished::Killed { ok, failed })
    }

    pub fn dismiss(&self, sessions: &[Session]) -> Action {
        let (ok, failed) = each(sessions, |s| {
            ops::dismiss(&self.tmux, &self.store, s).map(drop)
        });
        Action::Finished(Finished::Dismissed { ok, failed })
    }

    /// Dismisses `s` and removes the worktree greenroom made for it, and
    /// its branch once merged.
    pub fn dismiss_worktree(&self, s: &Session, discard_changes: bool) -> Action {
        let end = ops::WorktreeEnd {
            discard_changes,
            delete_merged_branch: true,
        };
        let (ok, failed) = match ops::dismiss_with_worktree(&self.tmux, &self.store, s, end) {
            Ok(e) => {
                let branch = match (e.branch_deleted, e.branch_kept) {
                    (Some(b), _) => format!(" and its merged branch {b}"),
                    (None, Some(why)) => format!(" ({why})"),
                    (None, None) => String::new(),
                };
                (
                    vec![format!("{} with its worktree{branch}", s.name)],
                    Vec::new(),
                )
            }
            Err(ops::OpsError::WorktreeHasChanges { path, work }) => {
                let mut listed = work.listed.clone();
                let more = work.total.saturating_sub(listed.len());
                if more > 0 {
                    listed.push(format!("and {more} more"));
                }
                return Action::Finished(Finished::WorktreeHasWork {
                    id: s.key(),
                    name: s.name.clone(),
                    path,
                    work: listed,
                });
            }
            Err(e) => (Vec::new(), vec![e.to_string()]),
        };
        Action::Finished(Finished::Dismissed { ok, failed })
    }

    pub fn restore(&self, s: &Session) -> Action {
        Action::Finished(match ops::restore(&self.tmux, &self.config, s) {
            Ok(r) => Finished::Restored {
                name: s.name.clone(),
                resumed: r.resumed,
            },
            Err(e) => Finished::Failed(e.to_string()),
        })
    }

    pub fn send(&self, s: &Session, text: &str) -> Action {
        Action::Finished(match ops::send(&self.tmux, s, text) {
            Ok(()) => Finished::Sent {
                name: s.name.clone(),
            },
            Err(e) => Finished::Failed(e.to_string()),
        })
    }

    /// One key into a session's pane; the state it leads to is recorded
    /// when the session was waiting (see `ops::send_key`).
    pub fn send_key(&self, s: &Session, key: ops::AnswerKey) -> Action {
        Action::Finished(match ops::send_key(&self.tmux, &self.store, s, key) {
            Ok(after) => Finished::Answered {
                name: s.name.clone(),
                key,
                after,
            },
            Err(e) => Finished::Failed(e.to_string()),
        })
    }

    pub fn snooze(&self, s: &Session, length: std::time::Duration) -> Action {
        Action::Finished(
            match ops::snooze(&self.store, s, length, chrono::Utc::now()) {
                Ok(until) => Finished::Snoozed {
                    name: s.name.clone(),
                    until,
                },
                Err(e) => Finished::Failed(e.to_string()),
            },
        )
    }

    pub fn wake(&self, s: &Session) -> Action {
        Action::Finished(match ops::wake(&self.store, s, chrono::Utc::now()) {
            Ok(()) => Finished::Woke {
                name: s.name.clone(),
            },
            Err(e) => Finished::Failed(e.to_string()),
        })
    }

    /// `switch-client` when greenroom runs inside the same tmux server.
    /// `switch-client` when greenroom runs inside the same tmux server;
    /// in a popup, of the client that opened it.
    pub fn switch_to(&self, s: &Session) -> Action {
        let tmux_env = self.config.environ.tmux().map(str::to_owned);
        let attached = match &self.config.popup_client {
            Some(client) => ops::attach_in_popup(&self.tmux, &self.store, s, client),
            None => ops::attach(&self.tmux, &self.store, s, tmux_env.as_deref()),
        };
        Action::Finished(match attached {
            Ok(_) => Finished::Switched {
                name: s.name.clone(),
            },
            Err(e) => Finished::Failed(e.to_string()),
        })
    }

    /// Opens the session in a pane beside the dashboard.
    pub fn open_beside(&self, s: &Session) -> Action {
        Action::BesideOpened(self.split_beside(s))
    }

    fn split_beside(&self, s: &Session) -> Result<Beside, String> {
        let tmux_env = self.config.environ.tmux().map(str::to_owned);
        let (Some(host), Some(pane)) = (
            host_from_env(tmux_env.as_deref()),
            self.config.environ.tmux_pane(),
        ) else {
            return Err("open beside works when greenroom runs inside tmux".into());
        };
        let Some(name) = s.tmux_target() else {
            return Err(format!("{} has no tmux session", s.name));
        };
        let beside = self
            .tmux
            .attach_command_line(&name)
            .and_then(|line| host.split_beside(pane, &line))
            .map_err(|e| format!("cannot open a pane beside: {e}"))?;
        ops::record_focus(&self.store, s);
        Ok(beside)
    }

    /// Records that the operator looked at the session (see `Verb::Look`).
    pub fn look(&self, s: &Session) -> Action {
        ops::record_focus(&self.store, s);
        Action::Nothing
    }

    /// Closes the pane beside (it lives in greenroom's own server).
    pub fn close_beside(&self, beside: &Beside) {
        let tmux_env = self.config.environ.tmux().map(str::to_owned);
        if let Some(host) = host_from_env(tmux_env.as_deref())
            && let Err(e) = host.close_beside(beside)
        {
            // Already gone (the operator closed it): nothing is left to do.
            tracing::debug!(%e, "closing the pane beside");
        }
    }

    /// Moves the pane beside to `s`; `None` unless that pane is gone.
    /// Browsing is not focusing: no focus is recorded here, or the row
    /// would jump to the top of the list under the cursor.
    pub fn follow(&self, beside: &Beside, s: &Session) -> Option<Action> {
        let name = s.tmux_target()?;
        match self.tmux.switch_client_on(&beside.tty, &name) {
            Ok(()) => None,
            Err(_) => Some(Action::BesideClosed),
        }
    }
}

/// Runs `act` on every session: the names it succeeded for, and why it
/// failed for the others.
fn each(
    sessions: &[Session],
    act: impl Fn(&Session) -> Result<(), ops::OpsError>,
) -> (Vec<String>, Vec<String>) {
    let mut ok = Vec::new();
    let mut failed = Vec::new();
    for s in sessions {
        match act(s) {
            Ok(()) => ok.push(s.name.clone()),
            Err(e) => failed.push(e.to_string()),
        }
    }
    (ok, failed)
}

// The one rule for a launch line's program and whether it is installed;
// named here for the form's callers.
pub use crate::environ::expand_home;
pub use crate::model::program_of as program;
pub use crate::ops::installed;

/// Completes a folder path: the longest common continuation of the
/// folders that start with what was typed, and those folders when there
/// are several.
/// `home` is `$HOME`, for `~/`.
pub fn complete_path(text: &str, home: Option<&Path>) -> Completion {
    let mut names = Vec::new();
    let completed = complete_into(text, home, &mut names);
    Completion {
        text: completed,
        candidates: if names.len() > 1 { names } else { Vec::new() },
    }
}

fn complete_into(text: &str, home: Option<&Path>, names: &mut Vec<String>) -> Option<String> {
    let expanded = expand_home(text, home);
    let typed = expanded.to_string_lossy().into_owned();
    let (dir, prefix) = if typed.ends_with('/') {
        (PathBuf::from(&typed), String::new())
    } else {
        let p = Path::new(&typed);
        (
            p.parent().map(Path::to_path_buf).unwrap_or_default(),
            p.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        )
    };
    *names = std::fs::read_dir(if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        &dir
    })
    .ok()?
    .filter_map(Result::ok)
    .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
    .map(|e| e.file_name().to_string_lossy().into_owned())
    .filter(|n| n.starts_with(&prefix) && (!n.starts_with('.') || prefix.starts_with('.')))
    .collect();
    names.sort();
    let first = names.first()?;
    let common = names.iter().fold(first.clone(), |acc, n| {
        acc.chars()
            .zip(n.chars())
            .take_while(|(a, b)| a == b)
            .map(|(a, _)| a)
            .collect()
    });
    let mut completed = dir.join(&common).to_string_lossy().into_owned();
    if names.len() == 1 {
        completed.push('/');
    }
    // Keep `~/` as typed.
    if let (Some(home), true) = (home, text.starts_with("~/")) {
        let home = home.to_string_lossy().into_owned();
        if let Some(rest) = completed.strip_prefix(&home) {
            completed = format!("~{rest}");
        }
    }
    Some(completed)
}

/// The pane's visible text with its colours.
pub fn capture(tmux: &Tmux, name: &crate::tmux::TmuxTarget) -> String {
    match tmux.capture_pane(name) {
        Ok(text) => text,
        Err(e) => format!("cannot capture the pane: {e}"),
    }
}
