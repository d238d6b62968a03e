//! greenroom's block in the user's tmux configuration: what `greenroom
//! tmux install` adds and `uninstall` takes out. The block is marked by a
//! first and a last line of its own, so uninstall removes exactly those
//! lines and nothing the user wrote; everything outside them is kept byte
//! for byte, and a line of the user's written inside them is kept too.

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
        "back to where you were before greenroom took you to an agent: the previous session, or the previous window and pane of the same session",
    ),
];

/// Where greenroom records, when it moves a client, the pane the client was
/// on (`crate::tmux::BackOptions`); prefix b goes back there.
pub const BACK_OPTION: &str = "@greenroom-back";
/// Where greenroom put that client: `CLIENT PANE`. prefix b goes back only
/// while the client is still there, else it is `switch-client -l`.
pub const BACK_AT_OPTION: &str = "@greenroom-back-at";

/// The status-right part the block appends; also how it tells it is there.
const STATUS_MARK: &str = "status --tmux)";
/// Where the block keeps the status line it found, so uninstall can put it back.
const SAVED_STATUS: &str = "@greenroom-status-right";

/// How the block records a binding it replaced in the running server, so
/// that `uninstall --apply` binds it back: this, then the tmux command that
/// binds it (as `list-keys` printed it). A comment: tmux reading the file
/// skips it.
const REPLACED: &str = "# greenroom replaced (uninstall --apply binds it back): ";

/// Stands for greenroom's quoted path in [`template`].
const RUN: &str = "\u{1}";

/// The block for the greenroom binary at `exe`, recording the `replaced`
/// bindings (see [`REPLACED`]). The dashboard opens in a
/// `display-popup` over the current window; `run-shell` expands the
/// client's name into it (display-popup itself expands no format), so an
/// attach from the popup switches this client, not another one, and the
/// dashboard then quits, which closes the popup. An error stays on screen
/// until Enter. tmux reads the block twice over (its own quoting, then a
/// shell for run-shell and `#()`), so a path with characters either would
/// take as syntax is refused rather than escaped; so is a recorded binding
/// that is not one plain line.
pub fn block(exe: &str, replaced: &[String]) -> Result<String, String> {
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+@,:=~ ".contains(c);
    if exe.is_empty() || !exe.chars().all(plain) {
        return Err(format!(
            "greenroom's path {exe:?} has characters a tmux config cannot hold safely; \
             install greenroom under a plain path (e.g. `cargo install --path . --locked`)"
        ));
    }
    if let Some(bad) = replaced.iter().find(|l| l.chars().any(char::is_control)) {
        return Err(format!(
            "a key binding of yours cannot be recorded: {bad:?}"
        ));
    }
    let recorded: String = replaced
        .iter()
        .map(|line| format!("{REPLACED}{line}\n"))
        .collect();
    let text = template().replace(RUN, &format!("'{exe}'"));
    Ok(text.replacen('\n', &format!("\n{recorded}"), 1))
}

/// The block with [`RUN`] where greenroom's quoted path goes.
fn template() -> String {
    format!(
        "{BEGIN}
# prefix g: {g}
bind-key g run-shell \"{RUN} next\"
# prefix G: {big_g}
bind-key G run-shell \"tmux display-popup -c '#{{client_name}}' -w 90% -h 90% -E \\\"{RUN} --popup '#{{client_name}}' || read -r line\\\"\"
# prefix b: {b}
{back}
# The counts of sessions that need you, at the end of the status line (once,
# however often this file is read again).
%if \"#{{==:#{{m:*{STATUS_MARK}*,#{{status-right}}}},0}}\"
set-option -gF {SAVED_STATUS} \"#{{status-right}}\"
set-option -ga status-right \" #({RUN} status --tmux)\"
set-option -g status-right-length 100
%endif
{END}
",
        g = KEYS[0].1,
        big_g = KEYS[1].1,
        b = KEYS[2].1,
        back = back_binding(),
    )
}

/// prefix b: while the client is where greenroom put it, back to the pane
/// it came from (another session's, or another window's of this one), the
/// two places swapped so b again returns, as `switch-client -l` toggles;
/// anywhere else, `switch-client -l`. `run-shell -C` expands the options
/// into the tmux commands (a target is no format); they hold only what
/// greenroom wrote there: a pane id and a client name.
fn back_binding() -> String {
    let (back, at) = (BACK_OPTION, BACK_AT_OPTION);
    format!(
        "bind-key b if-shell -F \"#{{==:#{{{at}}},#{{client_name}} #{{pane_id}}}}\" \
         \"run-shell -C \\\"set-option -g {at} '#{{client_name}} #{{{back}}}' ; \
         set-option -g {back} '#{{pane_id}}' ; switch-client -t '#{{{back}}}'\\\"\" \
         \"switch-client -l\""
    )
}

/// Whether a line found between the block's first and last lines is one
/// greenroom writes there (with any path to greenroom), or one an older
/// greenroom wrote (they differed in prefix G's lines and prefix b's). Anything else
/// is the user's own.
fn is_greenroom_line(line: &str) -> bool {
    let of_template = |t: &str| match t.split_once(RUN) {
        None => t == line,
        Some((before, after)) => line
            .strip_prefix(before)
            .and_then(|rest| rest.strip_suffix(after))
            .and_then(|quoted| quoted.strip_prefix('\'')?.strip_suffix('\''))
            .is_some_and(|path| !path.contains('\'')),
    };
    line.trim().is_empty()
        || line.starts_with(REPLACED)
        || line.starts_with("# prefix G: ")
        || line.starts_with("bind-key G ")
        || line == "bind-key b switch-client -l"
        || line.starts_with("# prefix b: ")
        || template().lines().any(of_template)
}

/// tmux commands that take the block back out of a running server: its
/// keys unbound, then the bindings it replaced bound again, the status
/// line as it was before.
pub fn undo_commands(replaced: &[String]) -> String {
    let mut out = String::new();
    for (key, _) in KEYS {
        out.push_str(&format!("unbind-key {key}\n"));
    }
    for line in replaced {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(&format!(
        "%if \"#{{m:*{STATUS_MARK}*,#{{status-right}}}}\"\n\
         set-option -gF status-right \"#{{{SAVED_STATUS}}}\"\n\
         set-option -gu {SAVED_STATUS}\n\
         %endif\n\
         set-option -gu {BACK_OPTION}\n\
         set-option -gu {BACK_AT_OPTION}\n"
    ));
    out
}

/// A config text with greenroom's block(s) taken out, and the lines taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Without {
    pub text: String,
    /// greenroom's lines, taken out.
    pub removed: Vec<String>,
    /// The user's own lines found inside a block: kept, where the block was.
    pub kept: Vec<String>,
    /// The bindings the block recorded as replaced ([`REPLACED`]).
    pub replaced: Vec<String>,
}

/// Removes every greenroom block from `text`, keeping any line of the
/// user's that was written inside one. A first line with no last line is
/// refused: where the block ends would be a guess, and a guess could
/// delete the user's own lines.
pub fn remove(text: &str) -> Result<Without, String> {
    let mut kept: Vec<&str> = Vec::new();
    let mut out = Without {
        text: String::new(),
        removed: Vec::new(),
        kept: Vec::new(),
        replaced: Vec::new(),
    };
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
        if !inside {
            kept.push(line);
        } else if bare == BEGIN || bare == END || is_greenroom_line(bare) {
            if let Some(binding) = bare.strip_prefix(REPLACED) {
                out.replaced.push(binding.to_owned());
            }
            out.removed.push(bare.to_owned());
            inside = bare != END;
        } else {
            out.kept.push(bare.to_owned());
            kept.push(line);
        }
    }
    if inside {
        return Err(format!(
            "it has greenroom's first line ({BEGIN:?}) but not its last ({END:?}); \
             remove greenroom's lines by hand"
        ));
    }
    out.text = kept.concat();
    Ok(out)
}

/// `text` with `block` at its end (after the user's own settings, so the
/// status line it extends is theirs), any older greenroom block removed
/// (the user's own lines inside it kept).
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

/// How the block records a key of greenroom's that was not bound in the
/// running server: uninstall leaves it unbound.
pub fn unbound_record(key: &str) -> String {
    format!("unbind-key -T prefix {key}")
}

/// What `uninstall --apply` binds back, key by key: what install recorded
/// from the running server, else the user's own binding in the file (what
/// tmux binds at its next start), when it is one plain line; a key with
/// neither is left unbound.
pub fn bindings_to_restore(found: &Without) -> Vec<String> {
    let plain = |line: &String| !line.trim_end().ends_with('\\') && !line.contains('{');
    KEYS.iter()
        .filter_map(|(key, _)| {
            let recorded = found
                .replaced
                .iter()
                .find(|l| binds_prefix_key(l, key) || **l == unbound_record(key));
            let from_file = || user_bindings(&found.text, key).pop().map(|(_, l)| l);
            recorded.cloned().or_else(|| from_file().filter(plain))
        })
        .collect()
}

/// The user's own lines, outside greenroom's block, that bind `key` in the
/// prefix table (`bind g ...`, `bind-key -r g ...`, `bind -T prefix g ...`),
/// with their line numbers: what the block, read after them, replaces.
pub fn user_bindings(text: &str, key: &str) -> Vec<(usize, String)> {
    let mut inside = false;
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let bare = line.trim_end_matches('\r');
        match bare {
            BEGIN => inside = true,
            END => inside = false,
            _ if !inside && binds_prefix_key(bare, key) => found.push((n + 1, bare.to_owned())),
            _ => {}
        }
    }
    found
}

/// Whether one config line binds `key` in the prefix table. Reads only the
/// plain form of bind-key's flags; a line it does not understand is no
/// binding (this only words a notice).
fn binds_prefix_key(line: &str, key: &str) -> bool {
    let mut words = line.split_whitespace();
    if !matches!(words.next(), Some("bind" | "bind-key")) {
        return false;
    }
    let mut table = "prefix";
    while let Some(word) = words.next() {
        match word {
            "-n" => table = "root",
            "-T" => table = words.next().unwrap_or_default(),
            "-N" => return false,
            "-r" => {}
            key_word => {
                let unquoted = key_word.trim_matches(['\'', '"']);
                return table == "prefix" && unquoted == key;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests;
