//! The dashboard, by kind, imports only leftward: [`model`] (plain data:
//! the state, modes, dialogs, hosts' links) ← [`action`] (what happens,
//! what is asked) ← [`keymap`] ← [`reduce`] (every decision, no IO) ←
//! [`shell`] (the only IO: the loop, the runner, the terminal). Views read
//! the model and the keymap. Data flows one way: catalog rows ->
//! `AppState` (changed only by `reduce::update::update`) -> the views.

pub mod action;
pub mod keymap;
pub mod model;
pub mod reduce;
pub mod shell;
pub mod view;

/// Opens the dashboard and returns when the operator quits.
pub fn launch(config: crate::config::Config) -> color_eyre::eyre::Result<()> {
    shell::run::run(config)
}
