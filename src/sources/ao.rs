//! Agent Orchestrator session files (being written).
