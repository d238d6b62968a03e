//! The eight simulated agents, and the private tmux server they run in.

use std::path::Path;
use std::time::Duration;

use color_eyre::eyre::{Result, WrapErr, eyre};

use super::agent as demo_agent;
use super::{Place, WATCHDOG};
use crate::config::Config;
use crate::environ::Environ;
use crate::git::own_repo;
use crate::ops::{self, Launch, SpawnRequest};
use crate::sources::maestro;
use crate::sources::sidecar::{SidecarStore, Worktree};
use crate::tmux::{OwnServer, Tmux, shell_quote};

/// One simulated agent: its session name, its `demo-agent` role, and what it shows.
pub(super) struct Agent {
    pub(super) name: &'static str,
    pub(super) role: &'static str,
    pub(super) shows: &'static str,
    maestro: bool,
    /// Runs in a git worktree of its repository on this new branch, as
    /// `greenroom spawn --worktree BRANCH` makes one.
    worktree: Option<&'static str>,
}

pub(super) const AGENTS: [Agent; 8] = [
    Agent {
        name: "api-1",
        role: "api",
        shows: "active: a Maestro orchestration, phases advancing, tokens growing",
        maestro: true,
        worktree: None,
    },
    Agent {
        name: "web-2",
        role: "web",
        shows: "waiting: asks permission to run Bash and waits for your answer (in a git worktree)",
        maestro: false,
        worktree: Some("fix/safari-postcode"),
    },
    Agent {
        name: "docs-3",
        role: "docs",
        shows: "done: its Maestro orchestration completes",
        maestro: true,
        worktree: None,
    },
    Agent {
        name: "infra-4",
        role: "infra",
        shows: "errored: rate-limited, its Maestro phase failed",
        maestro: true,
        worktree: None,
    },
    Agent {
        name: "tests-5",
        role: "tests",
        shows: "stuck: starts a test run and goes silent",
        maestro: true,
        worktree: None,
    },
    Agent {
        name: "data-6",
        role: "data",
        shows: "active, then idle for a while, then active again",
        maestro: false,
        worktree: None,
    },
    Agent {
        name: "mobile-7",
        role: "mobile",
        shows: "idle by its own word: finished its task, its changes wait for review (c)",
        maestro: false,
        worktree: None,
    },
    Agent {
        name: "ml-8",
        role: "ml",
        shows: "active: a training run printing every epoch",
        maestro: false,
        worktree: None,
    },
];

/// Inside the operator's own tmux, attaching to a demo session nests a
/// client of the demo's server in greenroom's pane, and the prefix (C-b)
/// goes to the operator's tmux first: "C-b d" would detach the operator's
/// own client. F12, which tmux leaves unbound, reaches the nested client
/// whatever the outer prefix is; the demo's server detaches on it.
pub(super) const BACK_KEY: &str = "F12";

/// The demo status line's way back, true where greenroom runs: inside a
/// tmux client, attaches nest and only F12 reaches the demo's server.
fn back_hint(inside_tmux: bool) -> &'static str {
    if inside_tmux {
        " greenroom demo: F12 returns to the dashboard "
    } else {
        " greenroom demo: C-b d (or F12) returns to the dashboard "
    }
}

/// The demo's own tmux server (see [`OwnServer`]), with the environment
/// the agents need. The watchdog session keeps it alive.
pub(super) fn start_server(place: &Place, inside_tmux: bool) -> Result<()> {
    let root = &place.root;
    let environment = [
        ("GREENROOM_LOG", root.join("greenroom.log")),
        ("MAESTRO_HOOKS_DIR", root.join("maestro-hooks")),
    ];
    let watchdog = place.watchdog_script();
    place
        .tmux()
        .start_own_server(&OwnServer {
            keeper: WATCHDOG,
            keeper_script: &watchdog,
            // Taller than tmux's 80x24, so the preview shows more of each agent.
            size: "100x40",
            status_right: back_hint(inside_tmux),
            detach_key: BACK_KEY,
            environment: &environment,
        })
        .map_err(|e| eyre!("cannot start the demo's tmux server: {e}"))
}

/// The command that runs one simulated agent: this binary's hidden
/// `demo-agent` subcommand.
pub(super) fn agent_command(environ: &Environ, root: &Path, role: &str) -> Result<String> {
    let exe = environ
        .current_exe()
        .ok_or_else(|| eyre!("cannot find the greenroom binary"))?;
    let quote = |p: &Path| shell_quote(&p.to_string_lossy());
    Ok(format!(
        "{} demo-agent {role} --root {} --maestro-hooks {}",
        quote(exe),
        quote(root),
        quote(&root.join("maestro-hooks")),
    ))
}

/// One agent: its workspace (with a Maestro state folder when it
/// orchestrates), the session, and `demo` as its agent preset so restore
/// starts a simulated agent again.
pub(super) fn start_agent(tmux: &Tmux, config: &Config, root: &Path, agent: &Agent) -> Result<()> {
    let repo = root.join("work").join(agent.name);
    make_repo(&repo, agent)?;
    let worktree = match agent.worktree {
        Some(branch) => {
            let path = ops::worktree_path(&repo, branch);
            own_repo::add_worktree(&repo, branch, &path, &demo_agent::identity(0))
                .map_err(|e| eyre!("cannot make the worktree {}: {e}", path.display()))?;
            Some(Worktree {
                repo: repo.clone(),
                branch: branch.to_owned(),
                path,
            })
        }
        None => None,
    };
    let cwd = worktree.as_ref().map_or(repo, |w| w.path.clone());
    let state = if agent.maestro {
        cwd.join(maestro::DEFAULT_STATE_DIR).join("state")
    } else {
        cwd.clone()
    };
    std::fs::create_dir_all(&state)
        .wrap_err_with(|| format!("cannot create {}", state.display()))?;
    let spawned = ops::spawn(
        tmux,
        config,
        &SpawnRequest {
            name: Some(agent.name.to_owned()),
            cwd,
            launch: Launch::Command(agent_command(&config.environ, root, agent.role)?),
            worktree: None,
            prompt: None,
        },
    )?;
    let store = SidecarStore::new(&config.sidecar_dir);
    let _ = store.update(spawned.sidecar.id, Duration::from_secs(2), |s| {
        s.agent = Some("demo".into());
        // What spawn records for a worktree it made: dismiss offers to
        // remove it.
        s.worktree = worktree.clone();
        true
    });
    Ok(())
}

/// The agent's own small repository: its role's files, committed once
/// (Maestro's state folder ignored, as a project using Maestro would).
fn make_repo(repo: &Path, agent: &Agent) -> Result<()> {
    let who = demo_agent::identity(0);
    let cannot =
        |e: &dyn std::fmt::Display| eyre!("cannot make the git repository {}: {e}", repo.display());
    own_repo::init(repo, &who).map_err(|e| cannot(&e))?;
    let mut files = demo_agent::seed_files(agent.role);
    if agent.maestro {
        files.push((
            ".gitignore".into(),
            format!("/{}/\n", maestro::DEFAULT_STATE_DIR),
        ));
    }
    for (path, text) in files {
        let path = repo.join(path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| cannot(&e))?;
        }
        std::fs::write(&path, text).map_err(|e| cannot(&e))?;
    }
    own_repo::commit_all(repo, "Initial commit", &who).map_err(|e| cannot(&e))?;
    Ok(())
}
