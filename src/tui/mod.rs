//! The dashboard. Data flows one way: catalog rows -> [`state::AppState`]
//! (changed only by [`update::update`]) -> the views; effects run in `run`.

pub mod action;
pub mod keymap;
pub mod state;
pub mod update;
