//! Interop with the real Gemini CLI 0.61.0 (`npm("gemini-cli-0.61.0")`),
//! run offline through greenroom against the stand-in Gemini API in
//! `gemini/standin.rs`, with a private home (`GEMINI_CLI_HOME`).

#[path = "gemini/cli.rs"]
mod cli;
#[path = "gemini/sessions.rs"]
mod sessions;
#[path = "gemini/standin.rs"]
mod standin;

use cli::Setup;

/// `greenroom send` submits: a typed line, a pasted multi-line message, a
/// long one-line message, each reaches the model (Gemini CLI reads an
/// Enter that follows text within 30-40 ms as a newline).
#[test]
fn send_submits_on_gemini() {
    let setup = Setup::new();
    setup.spawn("gem");
    let gr = setup.greenroom();
    let messages = [
        "say hello".to_owned(),
        "first line\nsecond line".to_owned(),
        format!("long {}", "word ".repeat(4000).trim_end()),
    ];
    for m in &messages {
        gr.ok(&["send", "gem", m]);
        setup.until_asked("gem", m);
        let n = setup.api.model_calls().len();
        setup.until_pane("gem", 20, "the reply", |p| {
            p.contains(&format!("stand-in reply {n}"))
        });
    }
}
