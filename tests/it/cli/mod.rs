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
