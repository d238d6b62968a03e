//! What git says about a work tree, read from real repositories, and git
//! that must run nothing.

mod changes;
mod hostile;
