//! An agent preset (`[agents.NAME]`), and the one rule for which program a
//! launch line runs: the spawn check, the new-session form's "not
//! installed" mark and the adoption of panes all ask [`program_of`].

use serde::Deserialize;

/// How to start, and resume, one kind of agent.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentPreset {
    /// The command tmux runs for a new session (run by tmux through your shell).
    pub launch: String,
    /// The command that resumes the agent's own conversation;
    /// `{agent_session_id}` is replaced by the (validated, quoted) id.
    #[serde(default)]
    pub resume: Option<String>,
    /// The command for a new session with a first prompt; `{prompt}` is
    /// replaced by the quoted prompt. Without it the prompt is typed in.
    #[serde(default)]
    pub launch_with_prompt: Option<String>,
}

impl AgentPreset {
    /// The program this preset's launch line starts (see [`program_of`]).
    pub fn program(&self) -> Option<&str> {
        program_of(&self.launch)
    }
}

/// Whether an agent's own session id is safe and plausible:
/// `[A-Za-z0-9._:-]{1,128}`. Anything else is ignored, never run.
pub fn valid_agent_session_id(id: &str) -> bool {
    (1..=128).contains(&id.len())
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | ':' | '-'))
}

/// The program a command line starts, when it can be told without a
/// shell: the first word after `env`, `exec`, `command` and `NAME=value`
/// assignments (`~/` at its start stands for the home folder). `None` for
/// a word with quoting, expansions or operators, or an option (`env -u CI
/// ...` hides which word is the program): the shell decides those, and no
/// check is better than a wrong refusal.
pub fn program_of(line: &str) -> Option<&str> {
    const SHELL: &[char] = &[
        '$', '`', '\'', '"', '\\', '(', ')', ';', '|', '&', '<', '>', '*', '?', '[', '~', '{',
    ];
    line.split_whitespace()
        .find(|w| !matches!(*w, "env" | "exec" | "command") && !is_assignment(w))
        .filter(|w| !w.strip_prefix("~/").unwrap_or(w).contains(SHELL) && !w.starts_with('-'))
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// The agents `greenroom hooks install --agent NAME` installs hooks for
/// (the hook module's `HookAgent`, whose test keeps the two the same).
pub const AGENTS_WITH_HOOKS: &[&str] = &["claude", "gemini", "codex", "opencode"];

/// What a row of an agent with no hooks reporting says about itself: the
/// command that installs them, where greenroom has hooks for that agent.
pub fn without_hooks(agent: &str) -> String {
    match AGENTS_WITH_HOOKS.contains(&agent) {
        true => format!("no hooks: install them with `greenroom hooks install --agent {agent}`"),
        false => "no hooks: its state is read from tmux".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_are_found_without_a_shell() {
        assert_eq!(program_of("claude"), Some("claude"));
        assert_eq!(program_of("  aider --model x"), Some("aider"));
        assert_eq!(program_of("env FOO=1 BAR_2=x exec codex"), Some("codex"));
        assert_eq!(program_of("exec env FOO=1 codex --x"), Some("codex"));
        assert_eq!(program_of("command gemini"), Some("gemini"));
        assert_eq!(program_of("/opt/bin/gemini -y"), Some("/opt/bin/gemini"));
        assert_eq!(program_of("~/bin/agent"), Some("~/bin/agent"));
        assert_eq!(program_of("$SHELL"), None);
        assert_eq!(program_of("exec ${SHELL:-/bin/sh}"), None);
        assert_eq!(program_of("env -u CI node gemini.js"), None);
        assert_eq!(program_of("\"my agent\""), None);
        assert_eq!(program_of("~user/bin/agent"), None);
        assert_eq!(program_of("~/a$b"), None);
        assert_eq!(program_of(""), None);
        let preset = AgentPreset {
            launch: "exec claude".into(),
            resume: None,
            launch_with_prompt: None,
        };
        assert_eq!(preset.program(), Some("claude"));
    }
}
