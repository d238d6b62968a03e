use super::*;
use crate::sources::screen_text::MAX_LINE_CHARS;

/// The real OpenCode 1.18.33 asking, as tmux captured its pane. See
/// tests/fixtures/opencode/README.md.
const REAL: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/opencode/opencode-1.18.33__permission-screen.txt"
));

#[test]
fn the_real_prompt_with_its_command() {
    let p = permission(REAL).expect("the prompt");
    assert_eq!(p.question, "Permission required");
    assert_eq!(p.title.as_deref(), Some("Shell command"));
    assert_eq!(p.command.as_deref(), Some("touch greenroom-was-here"));
    assert_eq!(p.tool(), Some("bash"));
    assert_eq!(p.choices, ["Allow once", "Allow always", "Reject"]);
}

#[test]
fn trailing_blank_lines_and_controls_change_nothing() {
    let padded = format!(
        "{}\n  ┃\n\n   \n",
        REAL.replace("$ touch", "$ \x1b\x07touch")
    );
    assert_eq!(permission(&padded), permission(REAL));
}

#[test]
fn a_command_that_wraps_is_read_whole() {
    let wrapped = REAL.replace(
        "  ┃  $ touch greenroom-was-here\n",
        "  ┃  $ touch one two\n  ┃  three four\n",
    );
    let p = permission(&wrapped).expect("the prompt");
    assert_eq!(p.command.as_deref(), Some("touch one two three four"));
}

#[test]
fn an_answered_prompt_or_quoted_words_are_no_prompt() {
    // OpenCode ran the command and answered: the input box is back.
    let after = format!(
        "{REAL}\n  ┃  $ touch greenroom-was-here\n  ┃  (no output)\n\n     Done.\n  ┃\n  ┃  Build · Stand-in model\n"
    );
    assert_eq!(permission(&after), None);
    // The words alone, quoted in a transcript, with no choices below.
    assert_eq!(permission("  △ Permission required\n  $ rm -rf /\n"), None);
    // Choices without a heading above.
    assert_eq!(permission("   Allow once   Allow always   Reject\n"), None);
    // Two dialogs: the heading found belongs to the older one.
    let cut = REAL.replace("△ Permission required", "△ Something else");
    let two = format!("{REAL}{cut}");
    assert_eq!(permission(&two), None);
    assert_eq!(permission(""), None);
}

#[test]
fn a_long_line_is_cut_with_its_border_and_a_far_heading_is_not_read() {
    // The screen's bounds are screen_text's, tested there.
    let wide = REAL.replace(
        "$ touch greenroom-was-here",
        &format!("$ {}", "é".repeat(5000)),
    );
    let p = permission(&wide).expect("the prompt");
    // The line is cut ("  ┃  $ " included) before the border is taken off.
    assert_eq!(
        p.command.map(|c| c.chars().count()),
        Some(MAX_LINE_CHARS - 7)
    );
    // A heading further up than a dialog is drawn is not read.
    let far = REAL.replace("  ┃    # Shell command\n", &"\n".repeat(MAX_LINES));
    assert_eq!(permission(&far), None);
}

/// The same prompt on a 200-column screen, where OpenCode draws its
/// sidebar beside the dialog.
const WIDE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/opencode/opencode-1.18.33__permission-screen-200-wide.txt"
));

#[test]
fn the_real_prompt_beside_the_sidebar() {
    let p = permission(WIDE).expect("the prompt");
    assert_eq!(p.title.as_deref(), Some("Shell command"));
    assert_eq!(p.command.as_deref(), Some("touch greenroom-by-hand"));
    // The sidebar's own lines below the dialog are not words of the screen.
    let answered = WIDE.replace("Allow once   Allow always   Reject", "Allowed");
    assert_eq!(permission(&answered), None);
}
