//! Which row a session's files make and the rules that judge it.

mod answers;
mod ao_lifecycle;
mod codex;
mod codex_hand;
mod health;
mod maestro;
mod opencode;
mod opencode_by_hand;
mod ready;
mod spend;
mod stuck;
