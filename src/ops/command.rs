//! The command line tmux runs for a session: a preset's template with its
//! placeholders filled by quoted values. The template itself is the
//! operator's own (config or `-- COMMAND`) and is run through the shell on
//! purpose; what greenroom puts into it (a prompt, an agent's session id)
//! is always single-quoted, so it stays one literal argument.

use std::path::Path;

use crate::environ::expand_home;
use crate::model::{AgentPreset, valid_agent_session_id};
use crate::tmux::shell_quote;

/// Replaces every `{key}` in `template` with `value` quoted; a template
/// without the placeholder gets the quoted value appended.
fn fill(template: &str, key: &str, value: &str) -> String {
    fill_raw(template, key, &shell_quote(value))
}

/// [`fill`] with a shell word greenroom built itself.
fn fill_raw(template: &str, key: &str, word: &str) -> String {
    let placeholder = format!("{{{key}}}");
    if template.contains(&placeholder) {
        template.replace(&placeholder, word)
    } else {
        format!("{} {word}", template.trim_end())
    }
}

/// How a first prompt reaches a preset's command line.
#[derive(Debug, Clone, Copy)]
pub enum PromptArg<'a> {
    /// Quoted into the command itself.
    Text(&'a str),
    /// Too long for a tmux command (~16 KB): read from this private file
    /// by the shell that runs the command, as one argument
    /// (`"$(cat FILE; rm -f FILE)"`; a substitution's output is never
    /// parsed again), and the file removed.
    File(&'a std::path::Path),
}

/// The command for a new session of `preset`, and whether the prompt was
/// put into it (else the caller types it in once the session runs).
pub fn launch(preset: &AgentPreset, prompt: Option<PromptArg<'_>>) -> (String, bool) {
    match (prompt, &preset.launch_with_prompt) {
        (Some(PromptArg::Text(p)), Some(template)) => (fill(template, "prompt", p), true),
        (Some(PromptArg::File(f)), Some(template)) => {
            let file = shell_quote(&f.to_string_lossy());
            let word = format!("\"$(cat {file}; rm -f {file})\"");
            (fill_raw(template, "prompt", &word), true)
        }
        _ => (preset.launch.clone(), false),
    }
}

/// Whether `program` (as [`crate::model::program_of`] found it) can be
/// run: an executable file at that path when it names one (holds a `/`;
/// `~/` is `home`), else in a folder of `path` (`$PATH`).
pub fn installed(program: &str, path: Option<&std::ffi::OsStr>, home: Option<&Path>) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let runnable = |p: &Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        return runnable(&expand_home(program, home));
    }
    path.is_some_and(|path| std::env::split_paths(path).any(|dir| runnable(&dir.join(program))))
}

/// The command that resumes the agent's own conversation, when the preset
/// knows how and the recorded id is valid.
pub fn resume(preset: Option<&AgentPreset>, agent_session_id: Option<&str>) -> Option<String> {
    let id = agent_session_id.filter(|id| valid_agent_session_id(id))?;
    let template = preset?.resume.as_deref()?;
    Some(fill(template, "agent_session_id", id))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claude() -> AgentPreset {
        AgentPreset {
            launch: "claude".into(),
            resume: Some("claude --resume {agent_session_id}".into()),
            launch_with_prompt: Some("claude {prompt}".into()),
        }
    }

    #[test]
    fn agent_session_ids_are_checked() {
        assert!(valid_agent_session_id(
            "0b1c2d3e-aaaa-bbbb-cccc-123456789abc"
        ));
        assert!(valid_agent_session_id("conv:abc_1.2"));
        assert!(!valid_agent_session_id(""));
        assert!(!valid_agent_session_id("a b"));
        assert!(!valid_agent_session_id("x;rm -rf ~"));
        assert!(!valid_agent_session_id("$(id)"));
        assert!(!valid_agent_session_id("é"));
        assert!(!valid_agent_session_id(&"a".repeat(129)));
        assert!(valid_agent_session_id(&"a".repeat(128)));
    }

    #[test]
    fn programs_are_found_on_path_or_by_path() {
        let path = std::ffi::OsStr::new("/usr/bin:/bin");
        assert!(installed("sh", Some(path), None));
        assert!(!installed("greenroom-no-such-program", Some(path), None));
        assert!(!installed("sh", None, None));
        assert!(installed("/bin/sh", None, None));
        assert!(!installed("/etc/passwd", None, None));
        assert!(installed("~/sh", None, Some(Path::new("/bin"))));
        assert!(!installed("~/sh", None, None));
    }

    #[test]
    fn templates_are_filled_with_quoted_values() {
        let p = claude();
        assert_eq!(
            launch(&p, Some(PromptArg::Text("fix it's bug"))),
            (r"claude 'fix it'\''s bug'".into(), true)
        );
        assert_eq!(launch(&p, None), ("claude".into(), false));
        let plain = AgentPreset {
            launch: "aider".into(),
            resume: None,
            launch_with_prompt: None,
        };
        assert_eq!(
            launch(&plain, Some(PromptArg::Text("hi"))),
            ("aider".into(), false)
        );
        assert_eq!(
            launch(&p, Some(PromptArg::File("/s/.p-1".as_ref()))),
            (r#"claude "$(cat '/s/.p-1'; rm -f '/s/.p-1')""#.into(), true)
        );
        assert_eq!(
            resume(Some(&p), Some("abc-123")),
            Some("claude --resume 'abc-123'".into())
        );
        assert_eq!(resume(Some(&p), Some("abc 123")), None);
        assert_eq!(resume(Some(&p), None), None);
        assert_eq!(resume(None, Some("abc")), None);
        assert_eq!(resume(Some(&plain), Some("abc")), None);
        assert_eq!(fill("run", "prompt", "x"), "run 'x'");
    }
}
