//! Other hosts, each a real sshd on loopback with its own tmux server and
//! sidecar folder.

mod dashboard;
mod hostile;
mod ls;
