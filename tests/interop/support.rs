//! What every interop test needs: the shared folder beside the clone, the
//! npm packages (installed once per run), node.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// `../shared` beside the clone; the suite cannot run without it.
pub fn shared() -> PathBuf {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared"));
    assert!(
        dir.join("vendor").is_dir(),
        "{}: the shared folder with vendor/ must be beside the clone",
        dir.display()
    );
    dir
}

/// The npm cache the packages live in, installed on first use.
fn cache() -> &'static PathBuf {
    static CACHE: OnceLock<PathBuf> = OnceLock::new();
    CACHE.get_or_init(|| {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/.ci/interop-deps");
        let out = Command::new("bash")
            .arg(script)
            .output()
            .unwrap_or_else(|e| panic!("{script}: {e}"));
        assert!(
            out.status.success(),
            "{script} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let last = String::from_utf8_lossy(&out.stdout)
            .lines()
            .last()
            .unwrap_or_default()
            .to_string();
        PathBuf::from(last)
    })
}

/// `node_modules` of one installed package set, e.g. `claude-code-2.1.328`.
pub fn npm(set: &str) -> PathBuf {
    let dir = cache().join(set).join("node_modules");
    assert!(dir.is_dir(), "{}: not installed", dir.display());
    dir
}

/// `node`, which every real tool here needs.
pub fn node() -> &'static str {
    static NODE: OnceLock<()> = OnceLock::new();
    NODE.get_or_init(|| {
        let ok = Command::new("node").arg("--version").output();
        assert!(
            ok.is_ok_and(|o| o.status.success()),
            "node is not installed (the interop suite needs node and npm)"
        );
    });
    "node"
}
