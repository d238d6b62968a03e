//! Maestro orchestration state files (being written).
