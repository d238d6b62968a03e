//! greenroom sidecars (being written).
