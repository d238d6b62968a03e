//! spawn: a new session in tmux, with greenroom's record of it.
//!
//! Order matters so that a failure leaves nothing half-made: everything is
//! checked first (name, folder, command), then the worktree is made, the
//! sidecar written, and tmux started; when tmux fails the sidecar and the
//! fresh worktree are removed again and tmux's error is returned.

use std::path::PathBuf;

use chrono::Utc;

use super::{Launching, OpsError, command, send, start_session, tmux_name, worktree};
use crate::model::validate_name;
use crate::sources::sidecar::{Sidecar, SidecarStore};
use crate::tmux::Tmux;

/// What the new session runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Launch {
    /// An agent preset from the settings (`claude`, `codex`, ...).
    Preset(String),
    /// The operator's own command line, run by tmux through the shell.
    Command(String),
    /// The `shell` preset.
    Default,
}

/// Everything the spawn form or `greenroom spawn` collects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpawnRequest {
    /// `None`: the first free `<name_prefix>-<n>`.
    pub name: Option<String>,
    /// Made absolute against the current folder; must exist.
    pub cwd: PathBuf,
    pub launch: Launch,
    /// Run in a new git worktree on this new branch (see [`super::worktree_path`]).
    pub worktree: Option<String>,
    /// A first prompt: in the preset's `launch_with_prompt`, else typed in.
    pub prompt: Option<String>,
}

/// A session that was started.
#[derive(Debug, Clone)]
pub struct Spawned {
    /// The record as written (`id`, `name`, `tmux_session`, `cwd`, ...).
    pub sidecar: Sidecar,
    /// Something the operator should know although the session runs
    /// (the first prompt could not be typed in).
    pub warning: Option<String>,
}

/// The first `<prefix>-<n>` (n = 1, 2, ...) that no sidecar, live or
/// dismissed, is named, and no tmux session is named (bare or `gr-`).
pub fn default_name(tmux: &Tmux, store: &SidecarStore, prefix: &str) -> Result<String, OpsError> {
    let mut taken: std::collections::HashSet<String> = store
        .load_all()
        .0
        .into_iter()
        .chain(store.load_archived().0)
        .map(|s| s.name)
        .collect();
    taken.extend(tmux.session_names()?);
    let name = (1u64..)
        .map(|n| format!("{prefix}-{n}"))
        .find(|n| !taken.contains(n) && !taken.contains(&tmux_name(n)))
        .unwrap_or_else(|| format!("{prefix}-{}", uuid::Uuid::new_v4().simple()));
    validate_name(&name).map_err(OpsError::InvalidName)?;
    Ok(name)
}

/// Starts a session: its record first, then its tmux session (the server
/// is started if none runs). `settings` is what `config` builds (`&Config`
/// will do).
pub fn spawn(
    tmux: &Tmux,
    settings: impl Into<Launching>,
    req: &SpawnRequest,
) -> Result<Spawned, OpsError> {
    let config = &settings.into();
    let store = SidecarStore::new(&config.sidecar_dir);
    let (name, tmux_session) = free_name(tmux, &store, config, req)?;
    let cwd = std::path::absolute(&req.cwd).unwrap_or_else(|_| req.cwd.clone());
    if let Some(e) = super::folder_problem(&cwd) {
        return Err(e);
    }
    let prompt = req.prompt.as_deref().filter(|p| !p.is_empty());
    let launch = launch_line(&store, config, &req.launch, prompt)?;
    let worktree = match req.worktree.as_ref().map(|b| worktree::create(&cwd, b)) {
        Some(Err(e)) => {
            launch.undo();
            return Err(e);
        }
        made => made.transpose()?,
    };
    let undo_worktree = || {
        if let Some(w) = &worktree {
            worktree::undo_create(w);
        }
    };
    let run_in = worktree.as_ref().map_or(cwd.clone(), |w| w.path.clone());
    let mut sidecar = Sidecar::new(&name, &run_in, &launch.command, Utc::now());
    sidecar.agent = launch.agent.clone();
    sidecar.tmux_session = Some(tmux_session.clone());
    sidecar.worktree = worktree.clone();
    if let Err(e) = store.create(&sidecar) {
        launch.undo();
        undo_worktree();
        return Err(e.into());
    }
    let started = start_session(
        tmux,
        &store,
        sidecar.id,
        &tmux_session,
        &run_in,
        &launch.command,
    );
    if let Err(e) = started {
        remove_sidecar(&store, sidecar.id);
        launch.undo();
        undo_worktree();
        return Err(e);
    }
    let warning = match prompt {
        Some(p) if !launch.prompt_in_command => send::type_first_prompt(tmux, &tmux_session, p)
            .err()
            .map(|e| format!("{name} started, but its first prompt could not be typed in: {e}")),
        _ => None,
    };
    Ok(Spawned { sidecar, warning })
}

/// The session's name (asked for, else the first free default) and its
/// tmux session's, when neither is taken.
fn free_name(
    tmux: &Tmux,
    store: &SidecarStore,
    config: &Launching,
    req: &SpawnRequest,
) -> Result<(String, String), OpsError> {
    let name = match &req.name {
        Some(name) => {
            validate_name(name).map_err(OpsError::InvalidName)?;
            name.clone()
        }
        None => default_name(tmux, store, &config.name_prefix)?,
    };
    if store.load_all().0.iter().any(|s| s.name == name) {
        return Err(OpsError::NameTaken(name));
    }
    let tmux_session = tmux_name(&name);
    if tmux.has_session(&tmux_session)? && !clear_dismissed(tmux, store, &tmux_session)? {
        return Err(OpsError::TmuxSessionTaken(tmux_session));
    }
    Ok((name, tmux_session))
}

/// The command line a new session runs, and the private file its first
/// prompt went into, if one did.
struct LaunchLine {
    agent: Option<String>,
    command: String,
    prompt_in_command: bool,
    prompt_file: Option<PathBuf>,
}

impl LaunchLine {
    /// Removes the prompt's file when the session is not started after all.
    fn undo(&self) {
        if let Some(file) = &self.prompt_file {
            let _ = std::fs::remove_file(file);
        }
    }
}

/// The command for `launch` with the first prompt in it where the preset
/// takes one. tmux refuses a command over about 16 KB: a long prompt goes
/// through a private file the command reads, or is typed in.
fn launch_line(
    store: &SidecarStore,
    config: &Launching,
    launch: &Launch,
    prompt: Option<&str>,
) -> Result<LaunchLine, OpsError> {
    let long = prompt.is_some_and(|p| p.len() > send::PROMPT_IN_COMMAND_MAX);
    let prompt_file = long.then(|| {
        store
            .dir()
            .join(format!(".prompt-{}", uuid::Uuid::new_v4()))
    });
    let arg = match (&prompt_file, prompt) {
        (Some(file), _) => Some(command::PromptArg::File(file)),
        (None, Some(p)) => Some(command::PromptArg::Text(p)),
        (None, None) => None,
    };
    let (agent, command, prompt_in_command) = command_for(config, launch, arg)?;
    let prompt_file = prompt_file.filter(|_| prompt_in_command);
    if let (Some(file), Some(p)) = (&prompt_file, prompt) {
        store.ensure_dir()?;
        write_private(file, p)?;
    }
    Ok(LaunchLine {
        agent,
        command,
        prompt_in_command,
        prompt_file,
    })
}

/// Clears a tmux session of only dead panes that a dismissed record of
/// greenroom's own names: dismiss leaves none behind now, but older
/// versions did. True when the name is free.
fn clear_dismissed(
    tmux: &Tmux,
    store: &SidecarStore,
    tmux_session: &str,
) -> Result<bool, OpsError> {
    let ours = store
        .load_archived()
        .0
        .iter()
        .any(|s| s.tmux_session.as_deref() == Some(tmux_session));
    Ok(ours && tmux.clear_dead_session(tmux_session)?)
}

/// The preset (if any), the command line, and whether the prompt is in it.
fn command_for(
    config: &Launching,
    launch: &Launch,
    prompt: Option<command::PromptArg<'_>>,
) -> Result<(Option<String>, String, bool), OpsError> {
    let preset_name = match launch {
        Launch::Command(c) if c.trim().is_empty() => return Err(OpsError::NoCommand),
        Launch::Command(c) => return Ok((None, c.clone(), false)),
        Launch::Preset(p) => p.as_str(),
        Launch::Default => "shell",
    };
    let Some(preset) = config.agents.get(preset_name) else {
        if *launch == Launch::Default {
            return Err(OpsError::NoCommand);
        }
        let known = config.agents.keys().cloned().collect::<Vec<_>>();
        return Err(OpsError::UnknownPreset {
            name: preset_name.to_owned(),
            known: if known.is_empty() {
                "none (add [agents.NAME] to config.toml)".into()
            } else {
                known.join(", ")
            },
        });
    };
    let (command, in_command) = command::launch(preset, prompt);
    // A missing agent would die at once and look like a calm dormant row.
    if let Some(program) = crate::model::program_of(&command)
        && !command::installed(program, config.path.as_deref(), config.home.as_deref())
    {
        return Err(OpsError::ProgramMissing {
            preset: preset_name.to_owned(),
            program: program.to_owned(),
        });
    }
    Ok((Some(preset_name.to_owned()), command, in_command))
}

/// Writes a first prompt for the command to read: 0600, new, no link followed.
fn write_private(path: &std::path::Path, text: &str) -> Result<(), OpsError> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| {
            OpsError::Prompt(format!(
                "cannot write the first prompt to {}: {e}",
                path.display()
            ))
        })
}

/// Removes a sidecar whose session never started (and its lock file):
/// there is nothing to keep.
fn remove_sidecar(store: &SidecarStore, id: uuid::Uuid) {
    let path = store.path_for(id);
    if let Err(e) = std::fs::remove_file(&path) {
        tracing::warn!(path = %path.display(), error = %e, "cannot remove the unused sidecar");
    }
    let _ = std::fs::remove_file(store.dir().join(format!(".{id}.lock")));
}
