//! Interop with the real Gemini CLI 0.61.0 (`npm("gemini-cli-0.61.0")`),
//! run offline through greenroom against the stand-in Gemini API in
//! `gemini/standin.rs`, with a private home (`GEMINI_CLI_HOME`).

#[path = "gemini/answer.rs"]
mod answer;
#[path = "gemini/cli.rs"]
pub mod cli;
#[path = "gemini/sessions.rs"]
mod sessions;
#[path = "gemini/standin.rs"]
pub mod standin;

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

/// `spawn --prompt` on a Gemini preset: the first prompt reaches Gemini's
/// `--prompt-interactive` whole, a short one quoted into the command, a
/// long one (over 8 KiB, which tmux would refuse in a command line) read
/// from a private file that is then removed. Checked in Gemini's own argv:
/// Gemini CLI 0.61.0 itself does not always submit `--prompt-interactive`
/// (its start-up effect tests `geminiClient.isInitialized()` outside its
/// dependencies; seen running it directly, without greenroom).
#[test]
fn first_prompts_short_and_long_reach_gemini() {
    let setup = Setup::new();
    setup.gemini_preset();
    let gr = setup.greenroom();
    let cwd = setup.project();
    let cwd = cwd.to_str().unwrap();
    let long = format!("a long first prompt {}", "x".repeat(20 * 1024));
    for (name, prompt) in [
        ("short", "a first prompt, it's $(not run)"),
        ("long", &long),
    ] {
        let out = gr.ok(&[
            "spawn", "-n", name, "--agent", "gem", "--cwd", cwd, "--prompt", prompt,
        ]);
        assert!(!out.contains("could not be typed"), "{out}");
        let argv = argv_of(&setup, name);
        let at = argv.iter().position(|a| a == "--prompt-interactive");
        assert_eq!(
            at.map(|i| argv[i + 1].as_str()),
            Some(prompt),
            "one argument, whole"
        );
    }
    let left = std::fs::read_dir(setup.world.path("sessions")).unwrap();
    let left: Vec<_> = left
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(".prompt-"))
        .collect();
    assert!(left.is_empty(), "the prompt file is gone: {left:?}");
}

/// The argv of the program in a session's pane, once it is node.
fn argv_of(setup: &Setup, name: &str) -> Vec<String> {
    let target = format!("=gr-{name}:");
    crate::it_support::wait_for(20, "node in the pane", || {
        let pid = setup
            .tmux
            .run(&["display-message", "-p", "-t", &target, "#{pane_pid}"]);
        let argv = std::fs::read(format!("/proc/{}/cmdline", pid.trim())).ok()?;
        let argv: Vec<String> = argv
            .split(|&b| b == 0)
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        argv.iter()
            .any(|a| a == "--prompt-interactive")
            .then_some(argv)
    })
}
