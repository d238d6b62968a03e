//! What a numbered answer picks: a permission dialog's digits mean what
//! its lines say, and which digit refuses depends on the call (Claude Code
//! 2.1.328 shows "3. No" or, with its auto mode offered, "4. No"; Gemini
//! CLI 0.61.0 "3. No, suggest changes (esc)"). So the digit's choice is
//! read from the screen before it is pressed.

use super::send::AnswerKey;
use crate::model::{Activity, Health, Session};
use crate::tmux::{Tmux, TmuxTarget};

/// The state a waiting session is in once answered with `key`: a digit
/// whose choice on the screen refuses ends the turn like Escape; a
/// question's choices (AskUserQuestion) are all answers, and the turn goes
/// on. `None`: the session was not waiting, or the key leads nowhere yet.
pub(super) fn state_after(
    tmux: &Tmux,
    target: &TmuxTarget,
    session: &Session,
    key: AnswerKey,
) -> Option<Activity> {
    if session.health != Health::Waiting {
        return None;
    }
    let AnswerKey::Digit(digit) = key else {
        return key.state_after();
    };
    let question = session
        .waiting_for
        .as_ref()
        .is_some_and(|w| !w.options.is_empty());
    // A screen that cannot be read leaves the key's own meaning.
    let screen = (!question)
        .then(|| tmux.capture_text(target.clone()).ok())
        .flatten();
    match screen.as_deref().and_then(|s| choice_on_screen(s, digit)) {
        Some(words) if refuses(words) => Some(Activity::Idle),
        _ => key.state_after(),
    }
}

/// The words of choice `digit` on `screen`: the lowest line that reads
/// `N. words` (after a highlight mark such as `❯` or `●`), the dialog
/// being drawn below what the agent printed before it.
pub fn choice_on_screen(screen: &str, digit: u8) -> Option<&str> {
    let number = format!("{digit}. ");
    screen.lines().rev().find_map(|line| {
        line.trim_start_matches(|c: char| !c.is_ascii_alphanumeric())
            .strip_prefix(&number)
            .map(str::trim)
    })
}

/// Whether a choice's words refuse: "No", "No, and tell Claude what to do
/// differently (esc)", "No, suggest changes (esc)".
pub fn refuses(words: &str) -> bool {
    words
        .strip_prefix("No")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with([',', ' ', '.']))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Claude Code 2.1.328's dialog for a Bash call, as tmux captured it.
    const CLAUDE: &str = " Bash command
 touch by-n
 Do you want to proceed?
 ❯ 1. Yes
   2. Yes, and always allow access to /tmp/work from this project
   3. Yes, and switch to auto mode · auto mode handles these prompts for you
   4. No

 Esc to cancel · Tab to amend";

    #[test]
    fn a_digit_means_what_its_line_says() {
        assert_eq!(choice_on_screen(CLAUDE, 1), Some("Yes"));
        assert_eq!(choice_on_screen(CLAUDE, 4), Some("No"));
        assert!(refuses(choice_on_screen(CLAUDE, 4).unwrap()));
        assert!(!refuses(choice_on_screen(CLAUDE, 3).unwrap()));
        assert_eq!(choice_on_screen(CLAUDE, 5), None);
    }

    #[test]
    fn the_dialog_below_wins_over_a_list_printed_before_it() {
        let screen = format!("● Steps:\n  2. No tests yet\n{CLAUDE}");
        assert_eq!(choice_on_screen(&screen, 2).map(refuses), Some(false));
        let gemini = "  1. Allow once\n  2. Allow for this session\n● 3. No, suggest changes (esc)";
        assert_eq!(choice_on_screen(gemini, 3).map(refuses), Some(true));
    }

    #[test]
    fn only_no_as_a_word_refuses() {
        for yes in ["Yes", "Not now, later", "Nothing", "None of these", ""] {
            assert!(!refuses(yes), "{yes}");
        }
        for no in [
            "No",
            "No, and tell Claude what to do differently (esc)",
            "No.",
        ] {
            assert!(refuses(no), "{no}");
        }
    }
}
