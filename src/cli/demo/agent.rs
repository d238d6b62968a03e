//! `greenroom demo-agent <role>`: one simulated coding agent for
//! `greenroom demo`. No model, no network: it plays its role's steps
//! (`agent/roles.rs`, data), printing the kind of work an agent prints,
//! and writes what a real agent and Maestro write through greenroom's own
//! writers: hook reports through `greenroom report`'s code, Claude
//! transcript records through the transcript reader's types, Maestro state
//! files through the state writer the reader is tested against. A format
//! change therefore reaches the demo, or fails its tests.

mod maestro_state;
mod operator;
mod repo;
mod roles;
mod scenes;
mod steps;

use std::path::{Path, PathBuf};

use clap::Args;

pub use operator::{Operator, Terminal};
pub use repo::{identity, seed_files};
use roles::Role;
pub use steps::Stop;

use crate::environ::Env;

#[derive(Debug, Clone, Args)]
pub struct AgentArgs {
    /// The role to play: api, web, docs, infra, tests, data, mobile, ml or general
    pub role: String,
    /// The demo's folder: transcripts go in its `transcripts` folder
    #[arg(long, value_name = "DIR")]
    pub root: PathBuf,
    /// Maestro's hook state folder, where the agent working now is named
    #[arg(long, value_name = "DIR")]
    pub maestro_hooks: Option<PathBuf>,
}

/// One step of a role's script.
pub enum Step {
    /// The operator's prompt: shown, and reported (the agent turns active).
    Prompt(&'static str),
    /// The agent says something.
    Say(&'static str),
    /// A tool call: reported, tokens spent, shown, then a pause.
    Tool(&'static str, &'static str),
    /// The tool's first output line.
    Out(&'static str),
    /// A further output line.
    More(&'static str),
    /// A removed line in a diff: its number and text.
    Del(u32, &'static str),
    /// An added line in a diff.
    Add(u32, &'static str),
    /// A passing test.
    Pass(&'static str),
    /// A line as written (with colour marks).
    Print(&'static str),
    /// Text without a line end: the agent hangs mid-line.
    Write(&'static str),
    /// Milliseconds of nothing.
    Pause(u64),
    /// A note from the demo to the operator, dim.
    Hint(&'static [&'static str]),
    /// The tool finished (PostToolUse).
    DoneTurn(&'static str),
    /// The turn ended: `Stop`, and the prompt sign.
    Idle,
    /// This many scenes from the role's pool, then `DoneTurn("Bash")`.
    Scenes(usize),
    /// One scene of the pool, by its place.
    Scene(usize),
    /// Waits for a line from the operator; it is the next prompt.
    Reply,
    /// Asks to run a command and waits for the answer: allowed, `ran` is
    /// shown; denied, the refusal is reported and the agent goes on.
    Permission {
        command: &'static str,
        why: &'static str,
        ran: &'static [Step],
    },
    /// A change to the Maestro orchestration, written at once.
    M(Maestro),
    /// A hook event with extra string fields.
    Report(&'static str, &'static [(&'static str, &'static str)]),
    /// A training run printing every epoch, then a config change.
    Train,
    /// A whole orchestration: each phase begins, plays four scenes (the
    /// state written after each) and finishes; then it completes.
    Orchestrate(&'static Task),
    /// These steps, again and again.
    Forever(&'static [Step]),
    /// Commits everything in the agent's work tree with this message.
    Commit(&'static str),
}

/// What happens to the Maestro orchestration.
pub enum Maestro {
    /// A new orchestration, in progress, its phases pending.
    New(&'static Task),
    /// Phase n (from 1) starts; its agent is named in the hook state.
    Begin(usize),
    Finish(usize),
    /// Phase n failed with an unresolved error of this type and message.
    Fail(usize, &'static str, &'static str),
    /// The error is resolved and phase n runs again.
    Retry(usize),
    /// The orchestration completed.
    Complete,
    /// The completed state file moves into `archive/`, as Maestro does.
    Archive,
}

/// An orchestration's task and its phases (name, agent).
pub struct Task {
    pub slug: &'static str,
    pub task: &'static str,
    pub phases: &'static [(&'static str, &'static str)],
}

/// The role names `greenroom demo-agent` knows.
pub fn role_names() -> impl Iterator<Item = &'static str> {
    roles::ROLES.iter().map(|r| r.name)
}

/// Where an agent writes, and what it reports through.
pub struct Setup<'a> {
    /// The agent's working folder: its Maestro state, if it has a state folder.
    pub cwd: PathBuf,
    pub transcripts: PathBuf,
    pub maestro_hooks: Option<PathBuf>,
    /// `greenroom report`'s environment (the session's id and records).
    pub env: &'a dyn Env,
    /// Real pauses, or none (tests).
    pub paced: bool,
}

/// Plays a role until the operator goes away (or, in tests, the steps run out).
pub fn play(
    role: &str,
    setup: Setup<'_>,
    out: &mut dyn std::io::Write,
    operator: &mut dyn Operator,
    budget: Option<usize>,
) -> Stop {
    let role: &'static Role = roles::role(role);
    let mut player = steps::Player::new(role, setup, out, operator, budget);
    player.start()
}

/// `greenroom demo-agent`: plays in this terminal, for ever.
pub fn run(args: &AgentArgs, env: &dyn Env) -> color_eyre::eyre::Result<()> {
    let cwd = env
        .snapshot()
        .and_then(|s| s.current_dir())
        .map_or_else(|| PathBuf::from("."), ToOwned::to_owned);
    let setup = Setup {
        cwd,
        transcripts: transcripts_dir(&args.root),
        maestro_hooks: args.maestro_hooks.clone(),
        env,
        paced: true,
    };
    let mut out = std::io::stdout();
    play(&args.role, setup, &mut out, &mut Terminal, None);
    Ok(())
}

/// The demo folder's transcripts.
pub fn transcripts_dir(root: &Path) -> PathBuf {
    root.join("transcripts")
}
