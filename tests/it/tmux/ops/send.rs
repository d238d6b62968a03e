//! send through ops with real panes: long text, control sequences, shells.

use super::actions_support::{assert_contents, row, rows, server};
use super::support::{World, wait_for};
use super::{request, tmux_of, workdir};
use greenroom::ops::{self, Launch};

/// `cat` into a file with the terminal out of line mode, so a line is not
/// cut at the terminal's 4 KiB line limit; it says when it is ready, as an
/// agent draws its screen.
fn raw_cat_to(file: &std::path::Path) -> String {
    format!(
        "stty -icanon; echo ready; exec cat > {}",
        ops::shell_quote(&file.to_string_lossy())
    )
}

#[test]
fn long_one_line_messages_and_prompts_go_through_a_paste_buffer() {
    let world = World::new();
    let tmux = server();
    let config = world.config(Some(&tmux), &[]);
    let t = tmux_of(&config);
    let out = world.path("long.txt");
    let prompt: String = (0..100 * 1024)
        .map(|i| (b'a' + (i % 26) as u8) as char)
        .collect();
    let mut req = request(
        Some("long"),
        &workdir(&world),
        Launch::Command(raw_cat_to(&out)),
    );
    req.prompt = Some(prompt.clone());
    let spawned = ops::spawn(&t, &config, &req).unwrap();
    assert_eq!(
        spawned.warning, None,
        "the 100 KB first prompt was typed in"
    );
    let mut expected = format!("{prompt}\n");
    assert_contents(&out, &expected);

    let message = "x".repeat(20 * 1024);
    ops::send(&t, row(&rows(&config), "long"), &message).unwrap();
    expected.push_str(&message);
    expected.push('\n');
    assert_contents(&out, &expected);
}

#[test]
fn a_long_first_prompt_reaches_a_preset_through_a_private_file() {
    let world = World::new();
    let tmux = server();
    let (out, typed) = (world.path("argv.txt"), world.path("typed.txt"));
    let q = |p: &std::path::Path| ops::shell_quote(&p.to_string_lossy());
    let preset = format!(
        "[agents.arg]\nlaunch = \"sleep 600\"\nlaunch_with_prompt = {:?}\n\
         [agents.typed]\nlaunch = {:?}\n",
        format!("printf '%s|' {{prompt}} > {}; exec sleep 600", q(&out)),
        raw_cat_to(&typed),
    );
    std::fs::write(world.path("config.toml"), preset).unwrap();
    let config = world.config(Some(&tmux), &[]);
    let t = tmux_of(&config);
    let prompt = format!("it's $(not run) `either` {}", "p".repeat(40 * 1024));
    let mut req = request(Some("arg"), &workdir(&world), Launch::Preset("arg".into()));
    req.prompt = Some(prompt.clone());
    let spawned = ops::spawn(&t, &config, &req).unwrap();
    assert_eq!(spawned.warning, None);
    assert_contents(&out, &format!("{prompt}|"));
    let leftovers: Vec<_> = std::fs::read_dir(world.path("sessions"))
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(".prompt-"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "the prompt file is removed: {leftovers:?}"
    );

    // A preset that takes no prompt in its command gets it typed in.
    let mut req = request(
        Some("typed"),
        &workdir(&world),
        Launch::Preset("typed".into()),
    );
    req.prompt = Some(prompt.clone());
    assert_eq!(ops::spawn(&t, &config, &req).unwrap().warning, None);
    assert_contents(&typed, &format!("{prompt}\n"));
}

#[test]
fn control_sequences_in_a_message_never_reach_the_pane() {
    let world = World::new();
    let tmux = server();
    let config = world.config(Some(&tmux), &[]);
    let t = tmux_of(&config);
    let out = world.path("clean.txt");
    let cmd = Launch::Command(raw_cat_to(&out));
    ops::spawn(&t, &config, &request(Some("esc"), &workdir(&world), cmd)).unwrap();
    let session = row(&rows(&config), "esc").clone();
    ops::send(&t, &session, "one\x1b[201~two\x1b]0;title\x07 three\x03").unwrap();
    ops::send(&t, &session, "four\x1b[201~\rfive\n\x1b[200~six").unwrap();
    assert_contents(&out, "onetwo three\nfour\nfive\nsix\n");
}

#[test]
fn a_multi_line_message_runs_in_bash_as_one_paste() {
    let world = World::new();
    let tmux = server();
    let config = world.config(Some(&tmux), &[]);
    let t = tmux_of(&config);
    let (one, two) = (world.path("one"), world.path("two"));
    let cmd = Launch::Command("exec bash --norc --noprofile".into());
    ops::spawn(&t, &config, &request(Some("sh"), &workdir(&world), cmd)).unwrap();
    let session = row(&rows(&config), "sh").clone();
    let q = |p: &std::path::Path| ops::shell_quote(&p.to_string_lossy());
    let text = format!("echo first > {}\necho second > {}", q(&one), q(&two));
    ops::send(&t, &session, &text).unwrap();
    assert_contents(&one, "first\n");
    assert_contents(&two, "second\n");
    ops::send(&t, &session, &format!("echo typed >> {}", q(&one))).unwrap();
    assert_contents(&one, "first\ntyped\n");
    wait_for(5, "bash at its prompt again", || {
        let pane = tmux.run(&["capture-pane", "-p", "-t", "=gr-sh:"]);
        let last = pane.lines().rev().find(|l| !l.trim().is_empty());
        last.is_some_and(|l| l.trim_end().ends_with(['$', '#']))
            .then_some(())
    });
}

#[test]
fn a_comment_on_diff_lines_reaches_the_agents_pane() {
    let world = World::new();
    let tmux = server();
    let config = world.config(Some(&tmux), &[]);
    let t = tmux_of(&config);
    let out = world.path("comment.txt");
    let req = request(
        Some("rev"),
        &workdir(&world),
        Launch::Command(raw_cat_to(&out)),
    );
    ops::spawn(&t, &config, &req).unwrap();
    let session = row(&rows(&config), "rev").clone();
    wait_for(10, "the pane to be ready", || {
        t.capture_text(session.tmux_session.as_deref().unwrap())
            .ok()
            .filter(|s| s.contains("ready"))
    });
    ops::send_comment(
        &t,
        &session,
        std::path::Path::new("src/x.rs"),
        (40, 52),
        "this loop never ends",
    )
    .unwrap();
    assert_contents(
        &out,
        "In src/x.rs lines 40\u{2013}52: this loop never ends\n",
    );
    let pane = t
        .capture_text(session.tmux_session.as_deref().unwrap())
        .unwrap();
    assert!(pane.contains("In src/x.rs lines 40"), "{pane}");
}
