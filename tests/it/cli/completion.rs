//! The generated completion scripts complete session names: bash's run for
//! real (the script sourced, a command line completed), asking the built
//! binary `ls --names` with the flags on the line being completed.

use std::path::Path;
use std::process::Command;

use greenroom::sources::sidecar::{Sidecar, SidecarStore};

const BIN: &str = env!("CARGO_BIN_EXE_greenroom");

/// What bash's completion offers for `words`, the last being the word
/// under the cursor.
fn complete(script: &Path, words: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let line = format!(
        "source '{}'; COMP_WORDS=({}); COMP_CWORD={}; \
         _greenroom_sessions \"${{COMP_WORDS[0]}}\" \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        quoted.join(" "),
        words.len() - 1
    );
    let out = Command::new("bash")
        .args(["--norc", "-c", &line])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut offered: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    offered.sort();
    offered
}

#[test]
fn bash_completes_session_names_for_the_commands_that_take_one() {
    let dir = tempfile::tempdir().unwrap();
    let store = SidecarStore::new(dir.path().join("sessions"));
    for name in ["api-1", "api-10", "web-2"] {
        store
            .create(&Sidecar::new(
                name,
                Path::new("/"),
                "sh",
                chrono::Utc::now(),
            ))
            .unwrap();
    }
    std::fs::write(dir.path().join("config.toml"), "").unwrap();
    let out = Command::new(BIN)
        .args(["completions", "bash"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let script = dir.path().join("greenroom.bash");
    std::fs::write(&script, &out.stdout).unwrap();

    let config = dir.path().join("config.toml").display().to_string();
    let sidecars = dir.path().join("sessions").display().to_string();
    let socket = format!("greenroom-test-none-{}", std::process::id());
    let flags = [
        "--config",
        &config,
        "--sidecar-dir",
        &sidecars,
        "--tmux-socket",
        &socket,
    ];
    for command in ["attach", "kill", "restore", "dismiss", "send"] {
        let words = [&[BIN][..], &flags, &[command, "api"]].concat();
        assert_eq!(complete(&script, &words), ["api-1", "api-10"], "{command}");
        let words = [&[BIN][..], &flags, &[command, ""]].concat();
        assert_eq!(complete(&script, &words).len(), 3, "{command}");
    }
    // The message after `send NAME` is not a session; options stay clap's.
    let words = [&[BIN][..], &flags, &["send", "api-1", "a"]].concat();
    assert!(!complete(&script, &words).contains(&"api-1".to_owned()));
    let words = [&[BIN][..], &flags, &["kill", "--y"]].concat();
    assert_eq!(complete(&script, &words), ["--yes"]);
}
