//! Agent Orchestrator's own metadata writer (`@composio/ao-core` 0.2.0,
//! `dist/metadata.js`), run with `node -e`: the files greenroom reads are
//! written by AO's code, in the folder AO's own `paths.js` computes.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::support::{node, npm};

fn dist() -> PathBuf {
    npm("ao-core-0.2.0").join("@composio/ao-core/dist")
}

/// `<root>/<hash>-<project>/sessions`, as `getSessionsDir` computes it
/// (with `root` for `~/.agent-orchestrator`).
const SCRIPT: &str = r#"
import { join } from "node:path";
const [dist, op, root, configPath, projectPath, id, json] = process.argv.slice(1);
const m = await import(join(dist, "metadata.js"));
const p = await import(join(dist, "paths.js"));
const dataDir = join(root, p.generateInstanceId(configPath, projectPath), "sessions");
const data = JSON.parse(json || "{}") ?? {};
if (op === "tmux") data.tmuxName = p.generateTmuxName(configPath, data.prefix, data.num);
if (op === "write") m.writeMetadata(dataDir, id, data);
if (op === "update") m.updateMetadata(dataDir, id, data);
if (op === "delete") m.deleteMetadata(dataDir, id, true);
console.log(JSON.stringify({ dataDir, tmuxName: data.tmuxName ?? null }));
"#;

/// One AO project: its config file and repository folder, under `root`.
pub struct AoProject {
    pub root: PathBuf,
    pub config: PathBuf,
    pub project: PathBuf,
}

impl AoProject {
    pub fn new(root: &Path, base: &Path) -> Self {
        let config = base.join("orch/agent-orchestrator.yaml");
        let project = base.join("repos/my-app");
        std::fs::create_dir_all(config.parent().unwrap()).unwrap();
        std::fs::create_dir_all(&project).unwrap();
        std::fs::write(&config, "projects: {}\n").unwrap();
        AoProject {
            root: root.to_path_buf(),
            config,
            project,
        }
    }

    fn run(&self, op: &str, id: &str, data: &Value) -> Value {
        let out = Command::new(node())
            .args(["--input-type=module", "-e", SCRIPT])
            .arg(dist())
            .arg(op)
            .arg(&self.root)
            .arg(&self.config)
            .arg(&self.project)
            .arg(id)
            .arg(data.to_string())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "ao-core {op}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }

    /// AO's tmux name for session `<prefix>-<num>` of this config.
    pub fn tmux_name(&self, prefix: &str, num: u32) -> String {
        let v = self.run(
            "tmux",
            "x",
            &serde_json::json!({"prefix": prefix, "num": num}),
        );
        v["tmuxName"].as_str().unwrap().to_owned()
    }

    /// `writeMetadata`; returns the sessions folder AO wrote into.
    pub fn write(&self, id: &str, data: &Value) -> PathBuf {
        PathBuf::from(self.run("write", id, data)["dataDir"].as_str().unwrap())
    }

    pub fn update(&self, id: &str, data: &Value) {
        self.run("update", id, data);
    }

    /// `deleteMetadata` with archiving (`sessions/archive/<id>_<ts>`).
    pub fn delete(&self, id: &str) {
        self.run("delete", id, &Value::Null);
    }
}
