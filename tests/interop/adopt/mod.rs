//! Agents greenroom did not start: the real Claude Code 2.1.328 and Gemini
//! CLI 0.61.0 started by hand in a plain window of a private tmux server
//! (never through greenroom), offline against the stand-ins, with
//! user-level hooks from `greenroom hooks install` in a sandboxed HOME;
//! and without hooks, found from the poll alone.

// The stand-ins and Claude Code's prepared home.
use crate::claude::{harness, standin};
use crate::gemini::standin as gemini_standin;

mod answers;
mod ask;
mod claude;
mod ends;
mod gemini;
mod popup;
mod registry;
pub mod user;
