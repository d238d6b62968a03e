//! Placeholder until the dashboard's popup mode is wired (see popup tests
//! in `tests/it/tmux_keys.rs` for opening and closing).
