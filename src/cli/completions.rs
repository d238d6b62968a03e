//! `greenroom completions SHELL`: clap's script, plus session names for the
//! commands that take one (attach, kill, restore, dismiss, send, snooze). The names
//! come from `greenroom ls --names` at completion time, with the flags that
//! choose where greenroom looks copied from the line being completed (bash),
//! so they are the sessions that command would see.

use clap_complete::Shell;

/// The commands whose first argument is a session.
const TAKE_A_SESSION: [&str; 6] = ["attach", "kill", "restore", "dismiss", "send", "snooze"];

/// The script for `shell`, written by clap_complete into memory.
pub fn script(shell: Shell, mut command: clap::Command) -> Vec<u8> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, "greenroom", &mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    match shell {
        Shell::Bash => format!("{text}{BASH}"),
        Shell::Zsh => zsh(&text),
        Shell::Fish => format!(
            "{text}\n# Session names (greenroom ls --names).\n\
             complete -c greenroom -n \"__fish_greenroom_using_subcommand {}\" -f \
             -a \"(greenroom ls --names 2>/dev/null)\"\n",
            TAKE_A_SESSION.join(" ")
        ),
        _ => text,
    }
    .into_bytes()
}

/// Completes the first word after attach/kill/restore/dismiss/send/snooze with
/// session names, and hands everything else to clap's `_greenroom`.
const BASH: &str = r#"
# Session names for attach, kill, restore, dismiss, send and snooze, from
# `greenroom ls --names` with the same --config/--sidecar-dir/... flags.
_greenroom_sessions() {
    local i cur="${COMP_WORDS[COMP_CWORD]}" cmd="" positional=0
    local -a flags=()
    for (( i=1; i<COMP_CWORD; i++ )); do
        case "${COMP_WORDS[i]}" in
            --sidecar-dir|--state-dir|--ao-dir|--claude-dir|--tmux-socket|--config)
                flags+=("${COMP_WORDS[i]}" "${COMP_WORDS[i+1]}")
                (( i++ ))
                ;;
            -*) ;;
            *)
                if [[ -z "$cmd" ]]; then
                    case "${COMP_WORDS[i]}" in
                        attach|kill|restore|dismiss|send|snooze) cmd="${COMP_WORDS[i]}" ;;
                        *) break ;;
                    esac
                else
                    (( positional++ ))
                fi
                ;;
        esac
    done
    if [[ -n "$cmd" && $positional -eq 0 && "$cur" != -* ]]; then
        local IFS=$'\n'
        COMPREPLY=( $(compgen -W "$("${COMP_WORDS[0]}" "${flags[@]}" ls --names 2>/dev/null)" -- "$cur") )
        return 0
    fi
    _greenroom "$@"
}
if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _greenroom_sessions -o nosort -o bashdefault -o default greenroom
else
    complete -F _greenroom_sessions -o bashdefault -o default greenroom
fi
"#;

/// clap's zsh script completes a session argument with `_default`
/// (files): point those at `_greenroom_sessions` instead.
fn zsh(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 512);
    for line in text.lines() {
        let session_arg = line.starts_with("':id -- ") || line.starts_with("'::id -- ");
        if session_arg && line.contains(":_default'") {
            out.push_str(&line.replace(":_default'", ":_greenroom_sessions'"));
        } else {
            if line.starts_with("if [ \"$funcstack[1]\" = \"_greenroom\" ]") {
                out.push_str(ZSH_SESSIONS);
            }
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

const ZSH_SESSIONS: &str = r#"(( $+functions[_greenroom_sessions] )) ||
_greenroom_sessions() {
    local -a names
    names=(${(f)"$(${words[1]:-greenroom} ls --names 2>/dev/null)"})
    compadd -a names
}

"#;

#[cfg(test)]
mod tests {
    use super::*;

    fn text(shell: Shell) -> String {
        let command = <crate::cli::Cli as clap::CommandFactory>::command();
        String::from_utf8(script(shell, command)).unwrap()
    }

    #[test]
    fn zsh_completes_every_session_argument_with_names() {
        let zsh = text(Shell::Zsh);
        assert_eq!(zsh.matches(":_greenroom_sessions'").count(), 6, "{zsh}");
        assert!(zsh.contains("_greenroom_sessions() {"));
        assert!(zsh.trim_end().ends_with("fi"));
    }

    #[test]
    fn fish_asks_ls_names_for_the_session_commands() {
        let fish = text(Shell::Fish);
        assert!(fish.contains(
            "__fish_greenroom_using_subcommand attach kill restore dismiss send snooze\" -f -a \"(greenroom ls --names"
        ));
    }
}
