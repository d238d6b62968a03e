//! `ls --json` at scale: N sidecars, each with a Maestro workspace, read and
//! merged by the catalog and printed as the JSON document. Also runs the
//! release binary end to end, as an operator's script would.
//!
//! Run: `cargo bench --bench ls_scale` (or `benches/run` for every budget).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a bench that cannot run should stop loudly

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use chrono::Utc;
use greenroom::catalog::Catalog;
use greenroom::cli::ls::to_json;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() -> std::io::Result<()> {
    let bin = env!("CARGO_BIN_EXE_greenroom");
    println!("| measure | measured | budget |");
    println!("|---|---|---|");
    for n in [1_000usize, 10_000] {
        let dir = tempfile::tempdir()?;
        common::populate(dir.path(), n);
        let config = common::config(dir.path(), "greenroom-bench-none");
        let runs = if n > 1_000 { 5 } else { 15 };
        let mut in_process = Vec::new();
        for _ in 0..runs {
            let start = Instant::now();
            let catalog = Catalog::load(&config, false);
            let rows = catalog.rows(Utc::now());
            let json = to_json(&rows, &catalog.problems()).map_err(std::io::Error::other)?;
            in_process.push(start.elapsed());
            assert_eq!(rows.len(), n);
            assert!(json.len() > n * 100);
        }
        let mut process = Vec::new();
        for _ in 0..runs {
            let start = Instant::now();
            let out = Command::new(bin)
                .args(["ls", "--json", "--config"])
                .arg(dir.path().join("config.toml"))
                .arg("--sidecar-dir")
                .arg(dir.path().join("sessions"))
                .arg("--ao-dir")
                .arg(dir.path().join("ao"))
                .args(["--tmux-socket", "greenroom-bench-none"])
                .output()?;
            process.push(start.elapsed());
            assert!(out.status.success());
        }
        println!(
            "| ls --json, {n} sidecars with Maestro workspaces, in process (load + merge + JSON) | {:.1} ms (median of {runs}) | — |",
            median(in_process).as_secs_f64() * 1e3
        );
        println!(
            "| greenroom ls --json, {n} sidecars with Maestro workspaces, whole process | {:.1} ms (median of {runs}) | — |",
            median(process).as_secs_f64() * 1e3
        );
    }
    Ok(())
}
