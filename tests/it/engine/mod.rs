//! The engine with the real watcher and real tmux: a change on disk or in
//! tmux reaches the rows.

mod full_disk;
mod new_folders;
mod tmux;
mod watch;
mod watch_cap;
