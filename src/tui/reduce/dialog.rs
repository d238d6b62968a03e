//! The dashboard's dialogs: confirming a kill or dismiss, typing a message,
//! and the new-session form. Plain data and pure key handling; what a
//! dialog decides comes back as an [`Effect`].

use crate::model::RowKey;
use crate::tui::action::{Command, Completion, Effect, NewSession, SpawnDefaults};
use crate::tui::reduce::op::Verb;

/// Actions that apply to one or several sessions after a confirmation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bulk {
    Kill,
    Dismiss,
}

impl Bulk {
    pub fn verb(self) -> &'static str {
        match self {
            Bulk::Kill => "Kill",
            Bulk::Dismiss => "Dismiss",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpawnField {
    Name,
    Cwd,
    Agent,
    Worktree,
    Prompt,
}

impl SpawnField {
    pub const ALL: [SpawnField; 5] = [
        SpawnField::Name,
        SpawnField::Cwd,
        SpawnField::Agent,
        SpawnField::Worktree,
        SpawnField::Prompt,
    ];

    pub fn label(self) -> &'static str {
        match self {
            SpawnField::Name => "name",
            SpawnField::Cwd => "folder",
            SpawnField::Agent => "agent",
            SpawnField::Worktree => "worktree",
            SpawnField::Prompt => "prompt",
        }
    }

    fn step(self, by: isize) -> Self {
        let i = Self::ALL.iter().position(|f| *f == self).unwrap_or(0) as isize;
        let n = Self::ALL.len() as isize;
        Self::ALL[((i + by).rem_euclid(n)) as usize]
    }
}

/// The new-session form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpawnForm {
    pub name: String,
    pub cwd: String,
    /// Preset names; `agent` indexes it.
    pub agents: Vec<String>,
    pub agent: usize,
    /// Presets whose program is not on PATH (looked up by the driver).
    pub missing: Vec<String>,
    /// Folders that still match after an ambiguous Tab, shown under the field.
    pub candidates: Vec<String>,
    /// A branch for a new git worktree; empty for none.
    pub worktree: String,
    pub prompt: String,
    pub focus: SpawnField,
    /// Why the last attempt failed, shown in the form.
    pub error: Option<String>,
    /// Waiting for the spawn to finish.
    pub busy: bool,
}

impl SpawnForm {
    pub fn new(name: String, cwd: String, agents: Vec<String>) -> Self {
        let agent = agents.iter().position(|a| a == "claude").unwrap_or(0);
        Self {
            name,
            cwd,
            agents,
            agent,
            missing: Vec::new(),
            candidates: Vec::new(),
            worktree: String::new(),
            prompt: String::new(),
            focus: SpawnField::Name,
            error: None,
            busy: false,
        }
    }

    /// The form as the driver filled it in.
    pub fn from_defaults(d: SpawnDefaults) -> Self {
        let mut form = Self::new(d.name, d.cwd, d.agents);
        form.missing = d.missing;
        form
    }

    fn field_mut(&mut self) -> Option<&mut String> {
        match self.focus {
            SpawnField::Name => Some(&mut self.name),
            SpawnField::Cwd => Some(&mut self.cwd),
            SpawnField::Agent => None,
            SpawnField::Worktree => Some(&mut self.worktree),
            SpawnField::Prompt => Some(&mut self.prompt),
        }
    }

    pub fn agent_name(&self) -> Option<&str> {
        self.agents.get(self.agent).map(String::as_str)
    }

    /// Is the chosen preset's program missing from PATH?
    pub fn agent_missing(&self) -> bool {
        self.agent_name()
            .is_some_and(|a| self.missing.iter().any(|m| m == a))
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dialog {
    Confirm {
        action: Bulk,
        ids: Vec<RowKey>,
        names: Vec<String>,
        /// Every target is an agent greenroom did not start: a kill closes
        /// only its pane, and there is no record to restore it from.
        panes_only: bool,
    },
    Send {
        id: RowKey,
        name: String,
        text: String,
    },
    Spawn(SpawnForm),
    /// Dismissing one session whose worktree greenroom made: keep it (y)
    /// or remove it (w). The first `w` asks for the removal; when the
    /// worktree holds work (ignored files too, which the Changes tab does
    /// not count), the removal is refused and the dialog comes back at its
    /// second `w`, naming that work.
    DismissWorktree {
        id: RowKey,
        name: String,
        path: std::path::PathBuf,
        /// The Changes tab's last read saw changes (or none was made).
        dirty: bool,
        /// The removal was refused; the next `w` removes the work too.
        second: bool,
        /// What the refusal named (changed, untracked and ignored files).
        work: Vec<String>,
    },
}

/// What a key did to the open dialog.
pub enum Outcome {
    Keep,
    Close,
    Effects(Vec<Effect>),
    /// Close and run these effects.
    Done(Vec<Effect>),
    /// Close and do this to these rows (`op::decide` says where).
    Do(Verb, Vec<RowKey>),
}

/// What a command of the dialog's keymap layer does to it.
pub fn command(dialog: &mut Dialog, command: Command) -> Outcome {
    match dialog {
        Dialog::Confirm { action, ids, .. } => match command {
            Command::Yes => Outcome::Do(
                match action {
                    Bulk::Kill => Verb::Kill,
                    Bulk::Dismiss => Verb::Dismiss,
                },
                ids.clone(),
            ),
            Command::Cancel => Outcome::Close,
            _ => Outcome::Keep,
        },
        Dialog::Send { id, text, .. } => match command {
            Command::Submit if text.trim().is_empty() => Outcome::Keep,
            // `<Esc>`, `<Enter>`, `<C-c>`, `<Tab>`, `<1>`: one key, not text.
            Command::Submit => match key_in(text) {
                Some(key) => Outcome::Do(Verb::Key(key), vec![id.clone()]),
                // A pasted block's last line break is not a line of its
                // own: the Enter that sends it follows.
                None => Outcome::Do(
                    Verb::Send(text.trim_end_matches('\n').to_owned()),
                    vec![id.clone()],
                ),
            },
            Command::Cancel => Outcome::Close,
            _ => Outcome::Keep,
        },
        Dialog::Spawn(form) => spawn_command(form, command),
        Dialog::DismissWorktree { id, second, .. } => match command {
            Command::Yes => Outcome::Do(Verb::Dismiss, vec![id.clone()]),
            // Only git's answer, which counts ignored files, decides
            // whether work would go: the first `w` asks, the second (after
            // a refusal that named the work) discards it.
            Command::RemoveWorktree => Outcome::Do(
                Verb::DismissWorktree {
                    discard_changes: *second,
                },
                vec![id.clone()],
            ),
            Command::Cancel => Outcome::Close,
            _ => Outcome::Keep,
        },
    }
}

/// A message that is one key name in angle brackets (`<Esc>`) is that key.
pub fn key_in(text: &str) -> Option<crate::ops::AnswerKey> {
    let name = text.trim().strip_prefix('<')?.strip_suffix('>')?;
    crate::ops::AnswerKey::parse(name).ok()
}

/// Backspace in the open dialog's focused input.
pub fn erase(dialog: &mut Dialog) {
    match dialog {
        Dialog::Confirm { .. } | Dialog::DismissWorktree { .. } => {}
        Dialog::Send { text, .. } => drop(text.pop()),
        Dialog::Spawn(form) if form.busy => {}
        Dialog::Spawn(form) => {
            form.candidates.clear();
            if let Some(field) = form.field_mut() {
                field.pop();
            }
        }
    }
}

/// A character typed into the open dialog's focused input.
pub fn typed(dialog: &mut Dialog, c: char) {
    match dialog {
        Dialog::Confirm { .. } | Dialog::DismissWorktree { .. } => {}
        Dialog::Send { text, .. } => text.push(c),
        Dialog::Spawn(form) if form.busy => {}
        Dialog::Spawn(form) => {
            form.candidates.clear();
            if let Some(field) = form.field_mut() {
                field.push(c);
            } else if c == ' ' {
                form.agent = (form.agent + 1) % form.agents.len().max(1);
            }
        }
    }
}

/// Pasted text into the open dialog's focused input: several lines where
/// the input takes them (a message, a first prompt), one line elsewhere; a
/// confirmation takes nothing from a paste.
pub fn paste(dialog: &mut Dialog, pasted: &str) {
    match dialog {
        Dialog::Confirm { .. } | Dialog::DismissWorktree { .. } => {}
        Dialog::Send { text, .. } => text.push_str(&lines(pasted)),
        Dialog::Spawn(form) if form.busy => {}
        Dialog::Spawn(form) => {
            form.candidates.clear();
            match form.focus {
                SpawnField::Prompt => form.prompt.push_str(&lines(pasted)),
                SpawnField::Agent => {}
                SpawnField::Name | SpawnField::Cwd | SpawnField::Worktree => {
                    if let Some(field) = form.field_mut() {
                        field.push_str(&one_line(pasted));
                    }
                }
            }
        }
    }
}

/// Pasted text as lines: `\r\n` and `\r` (what terminals send for Enter)
/// become `\n`, a tab a space, and other control characters (escape
/// sequences' introducers) are dropped.
pub fn lines(pasted: &str) -> String {
    pasted
        .replace("\r\n", "\n")
        .replace('\r', "\n")
        .chars()
        .filter_map(|c| match c {
            '\n' => Some('\n'),
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect()
}

/// Pasted text for a one-line input: its lines joined by spaces.
pub fn one_line(pasted: &str) -> String {
    lines(pasted).trim_matches('\n').replace('\n', " ")
}

/// What a folder completion does to the form: the text grows as far as the
/// matches agree; several matches are listed and the focus stays; with
/// nothing left to complete, Tab moves on as in the other fields.
pub fn completed(form: &mut SpawnForm, done: Completion) {
    if form.focus != SpawnField::Cwd {
        return;
    }
    let ambiguous = done.candidates.len() > 1;
    form.candidates = if ambiguous {
        done.candidates
    } else {
        Vec::new()
    };
    match done.text {
        Some(text) if text != form.cwd => form.cwd = text,
        _ if ambiguous => {}
        _ => form.focus = SpawnField::Agent,
    }
}

fn spawn_command(form: &mut SpawnForm, command: Command) -> Outcome {
    if command != Command::Complete {
        form.candidates.clear();
    }
    if form.busy {
        return if command == Command::Cancel {
            Outcome::Close
        } else {
            Outcome::Keep
        };
    }
    match command {
        Command::Cancel => return Outcome::Close,
        Command::Submit => {
            form.busy = true;
            form.error = None;
            return Outcome::Effects(vec![Effect::Spawn(NewSession {
                name: form.name.trim().to_owned(),
                cwd: form.cwd.trim().to_owned(),
                agent: form.agent_name().map(str::to_owned),
                worktree: Some(form.worktree.trim().to_owned()).filter(|w| !w.is_empty()),
                prompt: Some(form.prompt.clone()).filter(|p| !p.trim().is_empty()),
            })]);
        }
        // In the folder field the driver completes the path; elsewhere
        // completing is moving on.
        Command::Complete if form.focus == SpawnField::Cwd => {
            return Outcome::Effects(vec![Effect::CompletePath {
                text: form.cwd.clone(),
            }]);
        }
        Command::NextField | Command::Complete => form.focus = form.focus.step(1),
        Command::PrevField => form.focus = form.focus.step(-1),
        Command::NextChoice | Command::PrevChoice if form.focus == SpawnField::Agent => {
            let n = form.agents.len().max(1);
            form.agent = if command == Command::PrevChoice {
                (form.agent + n - 1) % n
            } else {
                (form.agent + 1) % n
            };
        }
        _ => {}
    }
    Outcome::Keep
}
