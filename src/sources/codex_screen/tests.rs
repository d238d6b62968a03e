use super::*;

/// The real Codex CLI 0.169.0 asking, as tmux captured its pane.
const REAL: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/real/codex-screen/codex-0.169.0__approval-screen.txt"
));

#[test]
fn the_real_question_with_its_command_and_choices() {
    let a = approval(REAL).expect("the question");
    assert_eq!(a.question, "Would you like to run the following command?");
    assert_eq!(a.command.as_deref(), Some("touch greenroom-approved"));
    assert_eq!(a.tool(), Some("shell"));
    let keys: Vec<(u8, Option<&str>)> = a
        .options
        .iter()
        .map(|o| (o.number, o.key.as_deref()))
        .collect();
    assert_eq!(
        keys,
        [(1, Some("y")), (2, Some("p")), (3, Some("esc"))],
        "{a:?}"
    );
    assert_eq!(a.options[0].words, "Yes, proceed");
    assert!(
        a.options[1].words.ends_with("greenroom- approved`"),
        "{a:?}"
    );
    assert_eq!(
        a.options[2].words,
        "No, and tell Codex what to do differently"
    );
}

#[test]
fn trailing_blank_lines_and_controls_change_nothing() {
    let padded = format!("{}\n\n   \n\n", REAL.replace("$ touch", "$ \x1b\x07touch"));
    assert_eq!(approval(&padded), approval(REAL));
}

#[test]
fn an_answered_question_in_scrollback_is_no_question() {
    // Codex ran the command and went on: the dialog's words stay above.
    let after = format!("{REAL}\n\n• Ran touch greenroom-approved\n\n› Ask Codex to do anything\n");
    assert_eq!(approval(&after), None);
    // A new dialog of another kind below an answered one.
    let other = format!("{REAL}\n\n  Pick a model\n  1. gpt-5.4\n\n  {CONFIRM}\n");
    assert_eq!(approval(&other), None);
    // The words alone, quoted by the agent: no dialog.
    assert_eq!(
        approval(&format!("  {QUESTION} run the following command?\n")),
        None
    );
    assert_eq!(approval(""), None);
}

#[test]
fn a_question_further_up_than_a_dialog_is_drawn_is_not_read() {
    // The screen's bounds are screen_text's, tested there.
    assert!(approval(REAL).is_some());
    let far = REAL.replace("  Environment: local", &"\n".repeat(MAX_LINES));
    assert_eq!(approval(&far), None);
}
