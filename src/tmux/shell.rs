//! Shell words for the commands tmux runs through `sh -c` (a session's
//! command, the pane beside's client): POSIX single quoting, so a path or
//! prompt stays one literal argument whatever it holds.

/// Quotes `text` for a POSIX shell: one argument, taken literally.
pub fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_keeps_one_literal_argument() {
        assert_eq!(shell_quote("plain"), "'plain'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote("$(rm -rf /); `x`"), "'$(rm -rf /); `x`'");
        assert_eq!(shell_quote(""), "''");
    }
}
