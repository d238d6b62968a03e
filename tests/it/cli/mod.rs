//! The built binary's subcommands: their output, files and exit codes, on
//! private tmux servers and temp folders.

mod actions;
mod adopt;
mod adopt_answers;
mod adopt_asks;
mod adopt_command_line;
mod adopt_ends;
mod adopt_first_hook;
mod budget;
mod claude_registry;
mod codex_hooks;
mod codex_report;
mod codex_restore;
mod codex_screen;
mod completion;
mod config_layers;
mod crashes;
mod demo_agent;
mod dismiss;
mod hooks_install;
mod hosts_config;
mod ls;
mod opencode_hooks;
mod opencode_plugin;
mod opencode_report;
mod plain_errors;
mod ready;
mod report;
mod report_bounds;
mod spawn;
mod special_files;
mod tmux_install;
mod tmux_safety;
mod triage;
mod watch_json;

use std::path::Path;
use std::process::Output;

/// `greenroom hooks ARGS` as an operator runs it in `cwd`: `home` is HOME,
/// and the agent's own folder variable (`var`, e.g. CODEX_HOME) is `dir`,
/// or unset.
fn hooks(args: &[&str], home: &Path, (var, dir): (&str, Option<&Path>), cwd: &Path) -> Output {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_greenroom"));
    c.arg("hooks")
        .args(args)
        .env("HOME", home)
        .env_remove(var)
        .current_dir(cwd);
    if let Some(dir) = dir {
        c.env(var, dir);
    }
    c.output().unwrap()
}

/// The output of a command that succeeded (else its stderr, failing).
fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}
