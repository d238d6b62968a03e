//! The readers of other programs' files and greenroom's own records: real
//! files, bad input.

mod ao;
mod gemini;
mod maestro;
mod maestro_bad_input;
mod sidecar;
mod transcript;
