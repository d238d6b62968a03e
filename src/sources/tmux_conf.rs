//! greenroom's block in the user's tmux configuration: what `greenroom
//! tmux install` adds and `uninstall` takes out. The block is marked by a
//! first and a last line of its own, so uninstall removes exactly those
//! lines and nothing the user wrote; everything outside them is kept byte
//! for byte.

/// The block's first line; install and uninstall look for it exactly.
pub const BEGIN: &str = "# >>> greenroom: added by `greenroom tmux install`; `greenroom tmux uninstall` removes this block >>>";
/// The block's last line.
pub const END: &str = "# <<< greenroom <<<";

/// The prefix-table keys the block binds, and what each does.
pub const KEYS: [(&str, &str); 3] = [
    (
        "g",
        "jump to the session that needs you most (greenroom next)",
    ),
    (
        "G",
        "the dashboard, in a popup over the current window (q closes it; attaching switches this client and closes it)",
    ),
    (
        "b",
        "back to the previous session (the dashboard, after Enter took you to an agent)",
    ),
];

/// The status-right part the block appends; also how it tells it is there.
const STATUS_MARK: &str = "status --tmux)";
/// Where the block keeps the status line it found, so uninstall can put it back.
const SAVED_STATUS: &str = "@greenroom-status-right";

/// The block for the greenroom binary at `exe`. The dashboard opens in a
/// `display-popup` over the current window; `run-shell` expands the
/// client's name into it (display-popup itself expands no format), so an
/// attach from the popup switches this client, not another one, and the
/// dashboard then quits, which closes the popup. An error stays on screen
/// until Enter. tmux reads the block twice over (its own quoting, then a
/// shell for run-shell and `#()`), so a path with characters either would
/// take as syntax is refused rather than escaped.
pub fn block(exe: &str) -> Result<String, String> {
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+@,:=~ ".contains(c);
    if exe.is_empty() || !exe.chars().all(plain) {
        return Err(format!(
            "greenroom's path {exe:?} has characters a tmux config cannot hold safely; \
             install greenroom under a plain path (e.g. `cargo install --path . --locked`)"
        ));
    }
    let run = format!("'{exe}'");
    Ok(format!(
        "{BEGIN}
# prefix g: {g}
bind-key g run-shell \"{run} next\"
# prefix G: {big_g}
bind-key G run-shell \"tmux display-popup -c '#{{client_name}}' -w 90% -h 90% -E \\\"{run} --popup '#{{client_name}}' || read -r line\\\"\"
# prefix b: {b}
bind-key b switch-client -l
# The counts of sessions that need you, at the end of the status line (once,
# however often this file is read again).
%if \"#{{==:#{{m:*{STATUS_MARK}*,#{{status-right}}}},0}}\"
set-option -gF {SAVED_STATUS} \"#{{status-right}}\"
set-option -ga status-right \" #({run} status --tmux)\"
set-option -g status-right-length 100
%endif
{END}
",
        g = KEYS[0].1,
        big_g = KEYS[1].1,
        b = KEYS[2].1,
    ))
}

/// tmux commands that take the block back out of a running server: its
/// keys unbound, the status line as it was before.
pub fn undo_commands() -> String {
    let mut out = String::new();
    for (key, _) in KEYS {
        out.push_str(&format!("unbind-key {key}\n"));
    }
    out.push_str(&format!(
        "%if \"#{{m:*{STATUS_MARK}*,#{{status-right}}}}\"\n\
         set-option -gF status-right \"#{{{SAVED_STATUS}}}\"\n\
         set-option -gu {SAVED_STATUS}\n\
         %endif\n"
    ));
    out
}

/// A config text with greenroom's block(s) taken out, and the lines taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Without {
    pub text: String,
    pub removed: Vec<String>,
}

/// Removes every greenroom block from `text`. A first line with no last
/// line is refused: where the block ends would be a guess, and a guess
/// could delete the user's own lines.
pub fn remove(text: &str) -> Result<Without, String> {
    let mut kept: Vec<&str> = Vec::new();
    let mut removed = Vec::new();
    let mut inside = false;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        if !inside && bare == BEGIN {
            inside = true;
            // The blank line install put before the block goes with it.
            if kept.last().is_some_and(|l| l.trim().is_empty()) {
                kept.pop();
            }
        }
        if inside {
            removed.push(bare.to_owned());
            if bare == END {
                inside = false;
            }
        } else {
            kept.push(line);
        }
    }
    if inside {
        return Err(format!(
            "it has greenroom's first line ({BEGIN:?}) but not its last ({END:?}); \
             remove greenroom's lines by hand"
        ));
    }
    Ok(Without {
        text: kept.concat(),
        removed,
    })
}

/// `text` with `block` at its end (after the user's own settings, so the
/// status line it extends is theirs), any older greenroom block removed.
pub fn install(text: &str, block: &str) -> Result<String, String> {
    let mut out = remove(text)?.text;
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(block);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXE: &str = "/home/me/.cargo/bin/greenroom";

    #[test]
    fn install_appends_once_and_uninstall_restores_the_file_exactly() {
        let mine = "set -g mouse on\nbind r source-file ~/.tmux.conf";
        let block = block(EXE).unwrap();
        let once = install(mine, &block).unwrap();
        assert!(once.starts_with("set -g mouse on\nbind r source-file ~/.tmux.conf\n\n# >>>"));
        assert_eq!(install(&once, &block).unwrap(), once, "idempotent");
        let back = remove(&once).unwrap();
        assert_eq!(back.text, format!("{mine}\n"));
        assert_eq!(back.removed.first().map(String::as_str), Some(BEGIN));
        assert_eq!(back.removed.last().map(String::as_str), Some(END));
        assert_eq!(remove(mine).unwrap().removed, Vec::<String>::new());
        assert_eq!(install("", &block).unwrap(), block);
    }

    #[test]
    fn an_older_block_is_replaced_and_moved_to_the_end() {
        let old = block("/old/greenroom").unwrap();
        let text = format!("a\n\n{old}set -g status-right 'x'\n");
        let new = install(&text, &block(EXE).unwrap()).unwrap();
        assert!(!new.contains("/old/greenroom"));
        assert!(
            new.starts_with("a\nset -g status-right 'x'\n\n# >>>"),
            "{new}"
        );
    }

    #[test]
    fn a_block_with_no_end_is_refused() {
        let text = format!("a\n{BEGIN}\nbind-key g x\nmine\n");
        assert!(remove(&text).unwrap_err().contains("by hand"));
        assert!(install(&text, "x").is_err());
    }

    #[test]
    fn a_path_tmux_or_a_shell_would_read_as_syntax_is_refused() {
        for bad in [
            "/a'b/greenroom",
            "/a\"b",
            "/a#b",
            "/$HOME/g",
            "/a\\b",
            "/a;b",
            "",
        ] {
            assert!(block(bad).is_err(), "{bad}");
        }
        assert!(block("/opt/my tools/greenroom").is_ok());
    }
}
