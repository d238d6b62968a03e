//! OpenCode's command line (1.18): the session a process was told to
//! continue. `opencode --session <id>` (or `-s <id>`, `--session=<id>`)
//! resumes that session, in the TUI and in `opencode run`; with `--fork`
//! it starts a copy instead, a new session the argv does not name.
//!
//! The argv is a process's (`/proc`): nothing in it is trusted. An id is
//! taken only as OpenCode makes them (letters, digits, `_`, `-`), short.

/// The longest id taken; OpenCode's are 30 characters (`ses_…`).
const MAX_ID_CHARS: usize = 128;

/// The session `argv` tells OpenCode to continue, if it names one and
/// does not fork it. Options end at `--`.
pub fn session_named(argv: &[String]) -> Option<String> {
    let words: Vec<&str> = argv
        .iter()
        .skip(1)
        .map(String::as_str)
        .take_while(|w| *w != "--")
        .collect();
    if words.contains(&"--fork") {
        return None;
    }
    let mut named = None;
    let mut at = words.iter();
    while let Some(w) = at.next() {
        let value = match *w {
            "--session" | "-s" => at.next().copied(),
            _ => w
                .strip_prefix("--session=")
                .or_else(|| w.strip_prefix("-s=")),
        };
        if let Some(v) = value {
            // The last one given is the one taken, as OpenCode's parser does.
            named = Some(v);
        }
    }
    named.filter(|id| is_id(id)).map(str::to_owned)
}

fn is_id(id: &str) -> bool {
    !id.is_empty()
        && id.chars().count() <= MAX_ID_CHARS
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !id.starts_with('-')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(words: &[&str]) -> Option<String> {
        let argv: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
        session_named(&argv)
    }

    #[test]
    fn the_session_given_is_read_in_each_spelling() {
        let id = Some("ses_dc8f99543ffep8txQIgnjsDIg0".to_owned());
        let s = "ses_dc8f99543ffep8txQIgnjsDIg0";
        assert_eq!(named(&["opencode", "--session", s]), id);
        assert_eq!(named(&["opencode", "-s", s, "--model", "a/b"]), id);
        assert_eq!(named(&["/x/opencode", &format!("--session={s}")]), id);
        assert_eq!(named(&["opencode", "run", "-s", s, "hello"]), id);
        assert_eq!(named(&["opencode", "-s", "ses_old", "-s", s]), id);
    }

    #[test]
    fn no_session_a_fork_or_an_odd_id_names_none() {
        assert_eq!(named(&["opencode"]), None);
        assert_eq!(named(&["opencode", "--continue"]), None);
        assert_eq!(named(&["opencode", "-s"]), None);
        assert_eq!(named(&["opencode", "-s", "--model"]), None);
        assert_eq!(named(&["opencode", "-s", "ses_a", "--fork"]), None);
        assert_eq!(named(&["opencode", "-s", "ses a;rm"]), None);
        assert_eq!(named(&["opencode", "--", "-s", "ses_a"]), None);
        assert_eq!(named(&["-s", "ses_a"]), None);
        let long = "s".repeat(MAX_ID_CHARS + 1);
        assert_eq!(named(&["opencode", "-s", &long]), None);
    }
}
