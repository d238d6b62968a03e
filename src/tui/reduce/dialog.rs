//! What keys, typing and pastes do to the open dialog. Pure; what a
//! dialog decides comes back as an [`Outcome`].

use crate::model::RowKey;
use crate::tui::action::UiEffect;
use crate::tui::action::{Command, Effect, Erase};
pub use crate::tui::model::dialog::{
    Bulk, Completion, Dialog, NewSession, SpawnDefaults, SpawnField, SpawnForm,
};
use crate::tui::reduce::op::Verb;

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

/// An editing key in the open dialog's focused input.
pub fn erase(dialog: &mut Dialog, how: Erase) {
    match dialog {
        Dialog::Confirm { .. } | Dialog::DismissWorktree { .. } => {}
        Dialog::Send { text, .. } => how.apply(text),
        Dialog::Spawn(form) if form.busy => {}
        Dialog::Spawn(form) => {
            form.candidates.clear();
            if let Some(field) = form.field_mut() {
                how.apply(field);
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
            return Outcome::Effects(vec![Effect::Ui(UiEffect::CompletePath {
                text: form.cwd.clone(),
            })]);
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
