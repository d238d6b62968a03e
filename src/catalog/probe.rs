//! What a pane outside greenroom's sessions runs: an agent told by its
//! program name, or (behind a runner like `node`) by the argv of the
//! pane's first processes. Bounded IO (`/proc`), run only when the poll
//! says a pane changed.

use std::path::PathBuf;

use crate::sources::procs;
use crate::tmux::Pane;

/// Agents recognised by their program name without any configuration.
pub const KNOWN_AGENTS: &[&str] = &["claude", "gemini", "codex", "opencode", "aider"];
/// Programs that run an agent without being one: the agent is then told
/// by the argv of the pane's processes.
const RUNNERS: &[&str] = &[
    "node", "nodejs", "bun", "deno", "npx", "npm", "python", "python3", "uv", "uvx", "env",
];
/// Shells: a pane back at one has no agent in front any more.
const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "fish", "dash", "ksh", "tcsh", "csh", "nu",
];

/// Whether the pane's program is a shell: its agent has exited (or was
/// killed without its SessionEnd hook), so its reported row ends.
pub(super) fn at_a_shell(pane: &Pane) -> bool {
    SHELLS.contains(&program_name(pane.command.trim_start_matches('-')))
}

/// Whether the pane's first process is a shell given a command line
/// (`sh -c 'claude "…"; exec sh'`, as tmux runs a pane's own command):
/// not a prompt. It keeps the terminal while the agent it runs works, so
/// its pane names the shell all along. Bounded IO (`/proc`).
pub(super) fn runs_a_command(pane: &Pane) -> bool {
    at_a_shell(pane) && given_a_command(&procs::argv(pane.pid))
}

/// Whether a shell's argv gives it a command line: `-c` among the options
/// before its first word (`-c`, `-lc`, `-ec`).
fn given_a_command(argv: &[String]) -> bool {
    argv.iter()
        .skip(1)
        .take_while(|w| w.starts_with('-') && w.as_str() != "-" && w.as_str() != "--")
        .any(|w| !w.starts_with("--") && w.contains('c'))
}

/// What a pane was found to run, kept until its program or process changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Probe {
    pub(super) pid: u32,
    pub(super) command: String,
    pub(super) found: Option<Found>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Found {
    pub(super) agent: String,
    /// The process found running it (the pane's first, when told by the
    /// pane's program name alone).
    pub(super) pid: u32,
    pub(super) cwd: Option<PathBuf>,
}

/// A program's name as an agent would be known by: the file name without
/// a script extension (`gemini.js` -> `gemini`).
fn program_name(word: &str) -> &str {
    let base = word.rsplit('/').next().unwrap_or(word);
    [".js", ".mjs", ".cjs", ".py"]
        .iter()
        .find_map(|ext| base.strip_suffix(ext))
        .unwrap_or(base)
}

/// A version number as a file name: Claude Code's native installs run
/// `…/claude/versions/2.1.328`.
fn is_version(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// The agent an argv word names, if one of `known`: its file name, or the
/// program folder above a version-named file.
fn agent_in_word(word: &str, known: &[String]) -> Option<String> {
    let name = program_name(word);
    if known.iter().any(|k| k == name) {
        return Some(name.to_owned());
    }
    if is_version(name) {
        let mut parts = word.rsplit('/').skip(1);
        if parts.next() == Some("versions")
            && let Some(folder) = parts.next()
            && known.iter().any(|k| k == folder)
        {
            return Some(folder.to_owned());
        }
    }
    None
}

/// What a pane runs, from its program name and (for a runner, or to find
/// the agent's folder) the argv of its first processes. Bounded IO.
pub(super) fn probe(pane: &Pane, known: &[String]) -> Option<Found> {
    let direct = agent_in_word(&pane.command, known);
    let name = program_name(&pane.command);
    if direct.is_none() && !RUNNERS.contains(&name) && !is_version(name) {
        return None;
    }
    for pid in procs::family(pane.pid) {
        let argv = procs::argv(pid);
        // The program, or the script an interpreter or `env` was given.
        let agent = argv
            .iter()
            .take(4)
            .filter(|w| !w.starts_with('-') && !w.contains('='))
            .find_map(|w| agent_in_word(w, known));
        if let Some(agent) = agent {
            return Some(Found {
                agent,
                pid,
                cwd: procs::cwd(pid),
            });
        }
    }
    direct.map(|agent| Found {
        agent,
        pid: pane.pid,
        cwd: procs::cwd(pane.pid),
    })
}

/// The known agents plus the programs the `[agents.*]` presets run.
pub(super) fn known_programs(config: &super::Settings) -> Vec<String> {
    let mut out: Vec<String> = KNOWN_AGENTS.iter().map(|s| (*s).to_owned()).collect();
    for preset in config.agents.values() {
        if let Some(program) = preset.program() {
            let name = program_name(program);
            let shell = ["sh", "bash", "zsh", "fish", "dash"].contains(&name);
            if !name.is_empty() && !shell && !RUNNERS.contains(&name) {
                out.push(name.to_owned());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known() -> Vec<String> {
        KNOWN_AGENTS.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_shell_given_a_command_line_is_no_prompt() {
        let argv = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        for yes in [
            &["sh", "-c", "claude; exec sh"][..],
            &["bash", "-lc", "claude"],
            &["/bin/sh", "-e", "-c", "x"],
        ] {
            assert!(given_a_command(&argv(yes)), "{yes:?}");
        }
        for no in [
            &["-bash"][..],
            &["bash", "--login"],
            &["sh", "script-c.sh"],
            &["sh", "-", "-c"],
            &["zsh", "-i"],
        ] {
            assert!(!given_a_command(&argv(no)), "{no:?}");
        }
    }

    #[test]
    fn agents_are_told_by_their_program() {
        let k = known();
        assert_eq!(agent_in_word("claude", &k).as_deref(), Some("claude"));
        assert_eq!(
            agent_in_word("/x/@google/gemini-cli/bundle/gemini.js", &k).as_deref(),
            Some("gemini")
        );
        assert_eq!(
            agent_in_word("/home/u/.local/share/claude/versions/2.1.328", &k).as_deref(),
            Some("claude")
        );
        assert_eq!(agent_in_word("/usr/bin/node", &k), None);
        assert_eq!(agent_in_word("/home/u/claude/notes.py", &k), None);
        assert_eq!(agent_in_word("2.1.328", &k), None);
    }

    #[test]
    fn presets_add_their_programs() {
        let mut config = super::super::Settings::bare("/nowhere".into());
        let preset = |launch: &str| crate::model::AgentPreset {
            launch: launch.to_owned(),
            resume: None,
            launch_with_prompt: None,
        };
        config
            .agents
            .insert("mine".into(), preset("env FOO=1 my-agent --fast"));
        config
            .agents
            .insert("viaNode".into(), preset("node agent.js"));
        let k = known_programs(&config);
        for p in ["aider", "claude", "codex", "gemini", "my-agent"] {
            assert!(k.contains(&p.to_owned()), "{p} in {k:?}");
        }
        assert!(!k.iter().any(|p| p == "node" || p == "sh"), "{k:?}");
    }
}
