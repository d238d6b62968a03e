//! The player: what each kind of step prints, reports and writes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::Utc;
use serde_json::{Value, json};

use super::maestro_state::MaestroState;
use super::roles::Role;
use super::{Maestro, Operator, Setup, Step, Task};
use crate::hook::report;
use crate::model::ModelUsage;
use crate::sources::transcript;

mod files;
mod moments;

pub use files::{ML_CONFIG, ml_config};

/// Why playing stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The operator is gone: no more input.
    Gone,
    /// The step budget a test gave ran out.
    Budget,
}

type Played = Result<(), Stop>;

/// The model the demo's transcripts name (it has a price, so costs show).
const MODEL: &str = "claude-sonnet-4-5";
/// Scenes a phase of `Step::Orchestrate` plays.
const SCENES_PER_PHASE: usize = 4;

const R: &str = "\x1b[0m";
const B: &str = "\x1b[1m";
const D: &str = "\x1b[2m";
const I: &str = "\x1b[3m";
const RED: &str = "\x1b[31m";
const GRN: &str = "\x1b[32m";
const YEL: &str = "\x1b[33m";
const BLU: &str = "\x1b[34m";
const MAG: &str = "\x1b[35m";
const CYN: &str = "\x1b[36m";

/// Turns a step text's colour marks into escape sequences.
pub fn paint(text: &str) -> String {
    [
        ("{R}", R),
        ("{B}", B),
        ("{red}", RED),
        ("{g}", GRN),
        ("{y}", YEL),
        ("{c}", CYN),
    ]
    .iter()
    .fold(text.to_owned(), |t, (mark, code)| t.replace(mark, code))
}

pub(super) struct Player<'a> {
    role: &'static Role,
    setup: Setup<'a>,
    out: &'a mut dyn Write,
    operator: &'a mut dyn Operator,
    budget: Option<usize>,
    /// The agent's own session id, as hooks and transcripts carry it.
    sid: String,
    transcript: PathBuf,
    maestro: MaestroState,
    seed: u64,
    messages: u32,
    /// The next scene of the pool.
    cursor: usize,
    /// The training run's number and learning rate (×1e-4).
    run: u32,
    lr: u32,
    /// The file the current tool changes, and whether it writes it anew.
    editing: Option<(PathBuf, bool)>,
    /// Commits made so far (each at its own fixed time).
    commits: u32,
}

impl<'a> Player<'a> {
    pub(super) fn new(
        role: &'static Role,
        setup: Setup<'a>,
        out: &'a mut dyn Write,
        operator: &'a mut dyn Operator,
        budget: Option<usize>,
    ) -> Self {
        let sid = uuid::Uuid::new_v4().to_string();
        let transcript = setup.transcripts.join(format!("{}-{sid}.jsonl", role.name));
        let maestro = MaestroState::new(&setup.cwd, setup.maestro_hooks.clone(), &sid);
        // From the role alone: every run spends and prints the same.
        let seed = 7919 + role.name.bytes().map(u64::from).sum::<u64>() * 104_729;
        Self {
            role,
            out,
            operator,
            budget,
            sid,
            transcript,
            maestro,
            seed,
            messages: 0,
            cursor: 0,
            run: 1,
            lr: 30,
            editing: None,
            commits: 0,
            setup,
        }
    }

    pub(super) fn start(&mut self) -> Stop {
        self.banner();
        match self.steps(self.role.script) {
            Err(stop) => stop,
            // Every script ends in `Forever`; one that did not simply ended.
            Ok(()) => Stop::Gone,
        }
    }

    fn steps(&mut self, steps: &'static [Step]) -> Played {
        steps.iter().try_for_each(|s| self.step(s))
    }

    fn step(&mut self, step: &'static Step) -> Played {
        if let Some(left) = &mut self.budget {
            *left = left.checked_sub(1).ok_or(Stop::Budget)?;
        }
        match step {
            Step::Prompt(text) => self.prompt(text),
            Step::Say(text) => self.line(&format!("{B}⏺{R} {}", paint(text))),
            Step::Tool(name, arg) => self.tool(name, arg),
            Step::Out(text) => self.line(&format!("  {D}⎿{R}  {}", paint(text))),
            Step::More(text) => {
                self.edit_written(text);
                self.more(&paint(text));
            }
            Step::Del(n, text) => {
                self.edit_del(text);
                self.line(&format!("     {RED}{n:4} -{text}{R}"));
            }
            Step::Add(n, text) => {
                self.edit_add(*n, text);
                self.line(&format!("     {GRN}{n:4} +{text}{R}"));
            }
            Step::Pass(test) => {
                self.line(&format!("     test {test} ... {GRN}ok{R}"));
                self.pause(150);
            }
            Step::Print(text) => self.line(&paint(text)),
            Step::Write(text) => self.write(&paint(text)),
            Step::Pause(ms) => self.pause(*ms),
            Step::Hint(lines) => self.hint(lines),
            Step::DoneTurn(tool) => self.hook("PostToolUse", &[("tool_name", tool)]),
            Step::Idle => {
                self.hook("Stop", &[]);
                self.write(&format!("\n{B}{BLU}>{R} "));
            }
            Step::Scenes(n) => {
                for _ in 0..*n {
                    self.next_scene()?;
                }
                self.hook("PostToolUse", &[("tool_name", "Bash")]);
            }
            Step::Scene(i) => {
                if let Some(scene) = self.role.pool.get(i % self.role.pool.len().max(1)) {
                    self.steps(scene)?;
                }
            }
            Step::Reply => self.reply()?,
            Step::Permission { command, why, ran } => self.permission(command, why, ran)?,
            Step::M(change) => self.maestro.change(change),
            Step::Report(event, fields) => self.hook(event, fields),
            Step::Train => self.train(),
            Step::Orchestrate(task) => self.orchestrate(task)?,
            Step::Forever(steps) => loop {
                self.steps(steps)?;
            },
            Step::Commit(message) => self.commit(message),
        }
        Ok(())
    }

    fn next_scene(&mut self) -> Played {
        let pool = self.role.pool;
        if pool.is_empty() {
            return Ok(());
        }
        let scene = pool[self.cursor % pool.len()];
        self.cursor += 1;
        self.steps(scene)
    }

    // ------------------------------------------------------------ printing

    /// Writes to the pane; a pane that is gone is not the agent's problem.
    fn write(&mut self, text: &str) {
        let _ = self.out.write_all(text.as_bytes());
        let _ = self.out.flush();
    }

    fn line(&mut self, text: &str) {
        self.write(&format!("{text}\n"));
    }

    fn more(&mut self, text: &str) {
        self.line(&format!("     {text}"));
        self.pause(100);
    }

    fn pause(&self, ms: u64) {
        if self.setup.paced {
            std::thread::sleep(Duration::from_millis(ms));
        }
    }

    /// A short pause, 0.4 to 1.6 s, like a model thinking between tool calls.
    fn nap(&mut self) {
        let tenths = self.between(4, 16);
        self.pause(tenths * 100);
    }

    fn banner(&mut self) {
        let role = format!("role: {}, no model, no network", self.role.name);
        self.line(&format!(
            "{D}╭──────────────────────────────────────────────────────────╮{R}"
        ));
        self.line(&format!(
            "{D}│{R} {B}{MAG}✻ demo agent{R} · a simulated coding agent (greenroom demo) {D}│{R}"
        ));
        self.line(&format!("{D}│{R}   {role:<55}{D}│{R}"));
        self.line(&format!(
            "{D}╰──────────────────────────────────────────────────────────╯{R}"
        ));
        self.hook("SessionStart", &[("source", "startup")]);
    }

    fn hint(&mut self, lines: &[&str]) {
        self.line(&format!("\n{D}{I}[greenroom demo]{R}"));
        for l in lines {
            self.line(&format!("{D}{I}{l}{R}"));
        }
    }

    fn prompt(&mut self, text: &str) {
        self.line(&format!("\n{B}{BLU}>{R} {text}\n"));
        self.hook("UserPromptSubmit", &[("prompt", text)]);
    }

    fn tool(&mut self, name: &str, arg: &str) {
        self.hook("PreToolUse", &[("tool_name", name)]);
        self.edit_begin(name, arg);
        self.think();
        self.line(&format!("{GRN}⏺{R} {B}{name}{R}({arg})"));
        self.nap();
    }

    // ----------------------------------------------------------- the operator

    fn reply(&mut self) -> Played {
        let line = self.operator.line().ok_or(Stop::Gone)?;
        let line = if line.trim().is_empty() {
            "go on".to_owned()
        } else {
            line
        };
        self.line("");
        self.hook("UserPromptSubmit", &[("prompt", &line)]);
        Ok(())
    }

    // ------------------------------------------------------------ reporting

    /// What an agent's hook sends, through `greenroom report`'s own code.
    fn hook(&mut self, event: &str, fields: &[(&str, &str)]) {
        report_hook(
            self.setup.env,
            &self.sid,
            &self.setup.cwd,
            &self.transcript,
            event,
            fields,
        );
    }

    /// One model call of a plausible size.
    fn think(&mut self) {
        let input = self.between(300, 1800);
        let output = self.between(60, 600);
        let cached = self.between(12_000, 40_000);
        self.spend(input, output, cached);
    }

    /// One model call's tokens: a transcript record, and the running
    /// Maestro phase's count.
    fn spend(&mut self, input: u64, output: u64, cached: u64) {
        self.messages += 1;
        let usage = ModelUsage {
            input,
            output,
            cache_read: cached,
            cache_write: input / 3,
        };
        let n = self.messages;
        let line = transcript::usage_line(
            &format!("req_{}_{n}", self.sid),
            &format!("msg_{}_{n}", self.sid),
            MODEL,
            &usage,
            Utc::now(),
        );
        let appended = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.transcript)
            .and_then(|mut f| f.write_all(line.as_bytes()));
        if let Err(e) = appended {
            tracing::debug!(error = %e, "demo transcript not written");
        }
        self.maestro.spend(input, output, cached);
    }

    fn orchestrate(&mut self, task: &'static Task) -> Played {
        self.maestro.change(&Maestro::New(task));
        let total = task.phases.len();
        for (n, (name, agent)) in task.phases.iter().enumerate().map(|(i, p)| (i + 1, p)) {
            self.maestro.change(&Maestro::Begin(n));
            self.line(&format!(
                "\n{CYN}▶ Maestro phase {n}/{total}: {B}{name}{R} {D}({agent}){R}"
            ));
            for _ in 0..SCENES_PER_PHASE {
                self.next_scene()?;
                self.maestro.write();
                // A phase lasts long enough to be read on the dashboard.
                self.pause(1500);
            }
            self.maestro.change(&Maestro::Finish(n));
        }
        self.maestro.change(&Maestro::Complete);
        Ok(())
    }

    // ----------------------------------------------------------- randomness

    /// A number in low..=high from a small linear congruential generator:
    /// varied enough for a demo, and no dependency.
    fn between(&mut self, low: u64, high: u64) -> u64 {
        self.seed = (self.seed.wrapping_mul(1_103_515_245).wrapping_add(12_345)) % 2_147_483_648;
        low + self.seed / 65_536 % (high - low + 1)
    }
}

/// A hook payload for this agent, handed to `greenroom report`'s code as a
/// hook would pipe it.
fn report_hook(
    env: &dyn crate::environ::Env,
    sid: &str,
    cwd: &Path,
    transcript: &Path,
    event: &str,
    fields: &[(&str, &str)],
) {
    let mut payload = json!({
        "hook_event_name": event,
        "session_id": sid,
        "cwd": cwd,
        "transcript_path": transcript,
    });
    if let Value::Object(map) = &mut payload {
        for (key, value) in fields {
            map.insert((*key).to_owned(), Value::from(*value));
        }
    }
    let bytes = payload.to_string().into_bytes();
    if let Err(e) = report::run(None, bytes.as_slice(), env, Utc::now()) {
        tracing::debug!(error = %e, "demo agent's report ignored");
    }
}
