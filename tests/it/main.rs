//! greenroom's integration tests, one test crate (one link step): real
//! files in temp folders, real tmux servers on private sockets, the built
//! binary driven in tmux. Each module is one concern; `support` holds the
//! shared fixtures.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

mod adopt_report;
mod ao_lifecycle;
mod ao_sessions;
mod claude_registry;
mod cli_actions;
mod cli_plain_errors;
mod config_layers;
mod crashes;
mod demo_agent;
mod dismiss_archive;
mod e2e_actions;
mod e2e_changes;
mod e2e_dashboard;
mod e2e_demo;
mod e2e_events;
mod e2e_hosts;
mod e2e_input;
mod e2e_triage;
mod full_disk;
mod gemini_usage;
mod git_changes;
mod git_hostile;
mod health_rules;
mod hook_report;
mod hooks_install;
mod hosts_config;
mod hosts_ls;
mod live_tmux;
mod live_watch;
mod ls_cli;
mod maestro_bad_input;
mod maestro_real;
mod maestro_sessions;
mod ops_actions;
mod readme;
mod report_bounds;
mod shell_completion;
mod sidecar_store;
mod special_files;
mod support;
mod tmux_events;
mod tmux_keys;
mod tmux_safety;
mod transcript_usage;
mod triage;
mod tui_changes;
mod tui_driver;
mod tui_form;
mod tui_hosts;
mod tui_layout;
mod tui_modes;
mod tui_reducer;
mod tui_snapshots;
mod tui_triage;
mod tui_triage_snapshots;
mod tui_usage;
mod watch_json;
mod watch_new_folders;
