//! What a user sees when they got something wrong, or stopped reading: the
//! real binary, its stderr and exit code. A settings mistake is one plain
//! line naming the file, the key and what to do (never a crash report,
//! whatever RUST_BACKTRACE or the terminal says), checked whole by every
//! command; a reader that closes the pipe early ends the command quietly.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn new(config: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("config.toml"), config).unwrap();
        Home { dir }
    }

    fn config(&self) -> PathBuf {
        self.dir.path().join("config.toml")
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_greenroom"));
        c.args(args)
            .arg("--config")
            .arg(self.config())
            .arg("--sidecar-dir")
            .arg(self.dir.path().join("sessions"))
            .arg("--ao-dir")
            .arg(self.dir.path().join("ao"))
            .arg("--tmux-socket")
            .arg(format!("greenroom-test-none-{}", std::process::id()))
            .env("HOME", self.dir.path())
            .env("XDG_STATE_HOME", self.dir.path().join("state"))
            .env_remove("GREENROOM_STATE_DIRS")
            .env_remove("TMUX")
            .env_remove("TMUX_PANE")
            // What made it a 31-line report with a backtrace before.
            .env("RUST_BACKTRACE", "1")
            .env_remove("NO_COLOR");
        c
    }

    fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }
}

/// The one line the user reads; fails on anything more.
fn one_line_error(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "not one line:\n{err}");
    assert!(!err.contains('\x1b'), "colour codes:\n{err}");
    assert!(!err.to_lowercase().contains("backtrace"), "{err}");
    assert!(err.starts_with("greenroom: "), "{err}");
    err
}

fn names_file(err: &str, path: &Path) {
    assert!(err.contains(&path.display().to_string()), "{err}");
}

#[test]
fn a_misspelled_key_is_one_line_naming_the_file_the_key_and_the_fix() {
    let home = Home::new("alerts = false\nstuk_after_seconds = 60\n");
    for args in [&["ls"][..], &["status"], &["next"], &["attach", "x"], &[]] {
        let err = one_line_error(&home.run(args));
        names_file(&err, &home.config());
        assert!(err.contains("line 2"), "{args:?}: {err}");
        assert!(err.contains("`stuk_after_seconds`"), "{args:?}: {err}");
        assert!(err.contains("did you mean `stuck_after_seconds`?"), "{err}");
        assert!(err.contains("fix or remove it"), "{err}");
    }
    let home = Home::new("alerts = \"yes\"\n");
    let err = one_line_error(&home.run(&["ls"]));
    assert!(
        err.contains("key `alerts`") && err.contains("boolean"),
        "{err}"
    );
}

#[test]
fn keys_are_checked_by_every_command_not_only_the_dashboard() {
    let home = Home::new("[keys]\nattach = [\"enter\", \"hyper-a\"]\n");
    for args in [&["ls"][..], &["status"]] {
        let err = one_line_error(&home.run(args));
        names_file(&err, &home.config());
        assert!(
            err.contains("attach") && err.contains("\"hyper-a\""),
            "{err}"
        );
    }
    let home = Home::new("[keys]\natach = [\"a\"]\n");
    let err = one_line_error(&home.run(&["ls"]));
    assert!(err.contains("\"atach\"") && err.contains("attach"), "{err}");
}

#[test]
fn a_binding_that_takes_another_command_s_key_names_both() {
    let home = Home::new("[keys]\nquit = [\"j\"]\n");
    let err = one_line_error(&home.run(&["ls"]));
    names_file(&err, &home.config());
    assert!(err.contains("j is bound to both `down`"), "{err}");
    assert!(err.contains("`quit` (quit = [\"j\"])"), "{err}");
    // Two rebound commands on one key: both named as the user wrote them.
    let home = Home::new("[keys]\nkill = [\"z\"]\nsend = [\"z\", \"s\"]\n");
    let err = one_line_error(&home.run(&["status"]));
    assert!(err.contains("`kill` (kill = [\"z\"])"), "{err}");
    assert!(err.contains("`send` (send = [\"z\", \"s\"])"), "{err}");
    // Moving a key away from its command and giving it to another is fine.
    let home = Home::new("[keys]\ndown = [\"down\"]\nquit = [\"j\", \"q\"]\n");
    let out = home.run(&["ls"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs with stdout on a pipe whose reader is already gone, as after
/// `| head` has read what it wanted.
fn into_closed_pipe(home: &Home, args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    home.command(args)
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

#[test]
fn closing_the_pipe_ends_every_printing_command_quietly() {
    let home = Home::new("");
    let store = greenroom::sources::sidecar::SidecarStore::new(home.dir.path().join("sessions"));
    for i in 0..3 {
        let s = greenroom::sources::sidecar::Sidecar::new(
            &format!("s{i}"),
            Path::new("/"),
            "sh",
            chrono::Utc::now(),
        );
        store.create(&s).unwrap();
    }
    for args in [
        &["completions", "bash"][..],
        &["completions", "zsh"],
        &["ls"],
        &["ls", "--json"],
        &["ls", "--names"],
        &["status"],
        &["next"],
        &["--help"],
    ] {
        let out = into_closed_pipe(&home, args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.is_empty(), "{args:?} wrote to stderr:\n{err}");
        assert_eq!(out.status.code(), Some(0), "{args:?}");
    }
}

#[test]
fn the_dashboard_without_a_terminal_says_so_in_one_line() {
    let home = Home::new("");
    for args in [&[][..], &["demo"]] {
        let out = home.command(args).stdin(Stdio::null()).output().unwrap();
        let err = one_line_error(&out);
        assert!(err.contains("needs a terminal"), "{args:?}: {err}");
    }
}
