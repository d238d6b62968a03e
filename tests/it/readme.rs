//! The README stays true: every key binding and every config key it must
//! document is there.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use greenroom::tui::keymap::{BINDINGS, Key};

const README: &str = include_str!("../../README.md");
const DEFAULTS: &str = include_str!("../../assets/default-config.toml");

#[test]
fn every_default_key_is_in_the_readme_table() {
    for b in BINDINGS {
        for k in b.defaults {
            let label = Key::parse(k).unwrap().label();
            let cell = format!("`{label}`");
            assert!(
                README.contains(&cell),
                "README has no {cell} for {}",
                b.command.name()
            );
        }
    }
}

#[test]
fn every_config_key_is_in_the_readme() {
    for line in DEFAULTS.lines() {
        let line = line.trim();
        if line.starts_with('#') || line.starts_with('[') || !line.contains('=') {
            continue;
        }
        let key = line.split('=').next().unwrap().trim();
        assert!(
            README.contains(&format!("`{key}`")),
            "README does not document `{key}`"
        );
    }
    for table in ["[keys]", "[agents.", "[prices.", "[budget]"] {
        assert!(README.contains(table), "README does not document {table}");
    }
}

#[test]
fn the_tmux_block_in_the_readme_is_the_one_greenroom_tmux_install_writes() {
    let block = greenroom::sources::tmux_conf::block("/path/to/greenroom", &[]).unwrap();
    let shown = README
        .split("```text\n# >>> greenroom")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .map(|rest| format!("# >>> greenroom{rest}"))
        .expect("README shows the tmux block");
    // The README leaves out the comment lines inside the block.
    let commands = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with("# ") || l.contains(">>>") || l.contains("<<<"))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(commands(&shown), commands(&block));
    for (key, _) in greenroom::sources::tmux_conf::KEYS {
        assert!(
            README.contains(&format!("| prefix `{key}` |")),
            "README lacks prefix {key}"
        );
    }
}
