//! A real tmux server on a private socket, through greenroom's library: its
//! control client and the ops.

mod events;
mod ops;
