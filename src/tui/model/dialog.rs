//! The dashboard's dialogs as data: confirming a kill or dismiss, typing a
//! message, dismissing with a worktree, and the new-session form with what
//! fills it and what it submits. What keys do to them is
//! `reduce::dialog`'s.

use crate::model::RowKey;

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

    pub fn step(self, by: isize) -> Self {
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

    pub fn field_mut(&mut self) -> Option<&mut String> {
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

/// What a folder completion found for the text typed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Completion {
    /// The text completed as far as every match agrees; `None` when
    /// nothing matches.
    pub text: Option<String>,
    /// The folder names that still match when there are several.
    pub candidates: Vec<String>,
}

/// The new-session form's defaults: the first free name, a folder, the
/// presets and which of them are not installed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpawnDefaults {
    pub name: String,
    pub cwd: String,
    pub agents: Vec<String>,
    pub missing: Vec<String>,
}

/// What the new-session form submits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSession {
    pub name: String,
    pub cwd: String,
    pub agent: Option<String>,
    pub worktree: Option<String>,
    pub prompt: Option<String>,
}
