//! The dashboard. Data flows one way: catalog rows -> [`state::AppState`]
//! (changed only by [`update::update`]) -> the views; effects run in `run`.

pub mod action;
pub mod keymap;
pub mod state;
pub mod update;

/// Opens the dashboard and returns when the operator quits.
pub fn launch(config: crate::config::Config) -> color_eyre::eyre::Result<()> {
    // The views are being written; until then the bare command lists.
    let _ = config;
    Err(color_eyre::eyre::eyre!(
        "the dashboard is not built yet; use `greenroom ls`"
    ))
}
pub mod view;
