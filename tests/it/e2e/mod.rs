//! The built dashboard in a tmux pane, driven with `send-keys` and read
//! with `capture-pane`.

mod actions;
mod changes;
mod codex_screen;
mod dashboard;
mod demo;
mod demo_git;
mod events;
mod input;
mod notify;
mod readme_screen;
mod tmux_back;
mod tmux_keys;
mod triage;
