//! The dashboard. Data flows one way: catalog rows -> [`state::AppState`]
//! (changed only by [`update::update`]) -> the views; the driver (`run`)
//! feeds the reducer and its `Runner` carries out the effects.

mod act;
pub mod action;
pub mod changes;
mod commands;
pub mod dialog;
pub mod effects;
pub mod hosts;
pub mod input;
pub mod keymap;
mod navigate;
pub mod op;
mod polling;
mod remote;
mod review;
mod rows;
pub mod run;
mod runner;
pub mod state;
mod terminal;
mod triage;
pub mod update;
pub mod view;

/// Opens the dashboard and returns when the operator quits.
pub fn launch(config: crate::config::Config) -> color_eyre::eyre::Result<()> {
    run::run(config)
}
