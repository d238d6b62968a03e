//! The dashboard. Data flows one way: catalog rows -> [`state::AppState`]
//! (changed only by [`update::update`]) -> the views; effects run in `run`.

mod act;
pub mod action;
pub mod changes;
pub mod dialog;
pub mod effects;
pub mod input;
pub mod keymap;
mod rows;
pub mod run;
pub mod state;
mod terminal;
pub mod update;
pub mod view;

/// Opens the dashboard and returns when the operator quits.
pub fn launch(config: crate::config::Config) -> color_eyre::eyre::Result<()> {
    run::run(config)
}
