//! `greenroom hooks install|uninstall --agent opencode` as an operator runs
//! it: greenroom's plugin file `plugins/greenroom.js` in OpenCode's config
//! folder (`$XDG_CONFIG_HOME/opencode`, `~/.config/opencode`, or the
//! project's `.opencode`), written once, rewritten when greenroom's plugin
//! changes, removed on uninstall; the operator's own plugins and config
//! are never touched, nor a `greenroom.js` that is not greenroom's.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use super::stdout;

const BIN: &str = env!("CARGO_BIN_EXE_greenroom");

fn run(args: &[&str], home: &Path, xdg: Option<&Path>, cwd: &Path) -> Output {
    super::hooks(args, home, ("XDG_CONFIG_HOME", xdg), cwd)
}

const INSTALL: &[&str] = &["install", "--agent", "opencode"];
const UNINSTALL: &[&str] = &["uninstall", "--agent", "opencode"];

/// The operator's own OpenCode setup: a config, two plugins of theirs.
fn operator_files(opencode: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let files = [
        (
            "opencode.json",
            "{\n  \"autoupdate\": false,\n  \"plugin\": [\"opencode-wakatime\"]\n}\n",
        ),
        (
            "plugins/mine.js",
            "export default { id: \"mine\", server: async () => ({}) }\n",
        ),
        (
            "plugin/notify.ts",
            "export const Notify = async () => ({})\n",
        ),
    ];
    files
        .iter()
        .map(|(rel, text)| {
            let path = opencode.join(rel);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(&path, text).unwrap();
            (path, text.as_bytes().to_vec())
        })
        .collect()
}

fn assert_untouched(files: &[(PathBuf, Vec<u8>)]) {
    for (path, bytes) in files {
        assert_eq!(&fs::read(path).unwrap(), bytes, "{}", path.display());
    }
}

#[test]
fn install_writes_greenroom_s_plugin_once_and_uninstall_takes_it_away() {
    let home = tempfile::tempdir().unwrap();
    let opencode = home.path().join(".config/opencode");
    let mine = operator_files(&opencode);
    let plugin = opencode.join("plugins/greenroom.js");

    let out = stdout(&run(INSTALL, home.path(), None, home.path()));
    assert!(
        out.contains(&format!(
            "greenroom hooks installed into {}",
            plugin.display()
        )),
        "{out}"
    );
    assert!(out.contains("OpenCode loads it when it starts"), "{out}");
    let text = fs::read_to_string(&plugin).unwrap();
    assert!(text.starts_with("// greenroom's OpenCode plugin, format 1."));
    // It runs this very binary, its path a JavaScript string.
    let literal = serde_json::to_string(BIN).unwrap();
    assert!(
        text.contains(&format!("const GREENROOM = {literal}")),
        "{text}"
    );
    assert!(text.contains("export default {\n  id: \"greenroom\","));
    assert_untouched(&mine);

    // Again: nothing to do, the file as it was.
    let before = fs::metadata(&plugin).unwrap().modified().unwrap();
    let out = stdout(&run(INSTALL, home.path(), None, home.path()));
    assert!(out.contains("already up to date"), "{out}");
    assert_eq!(fs::read_to_string(&plugin).unwrap(), text);
    assert_eq!(fs::metadata(&plugin).unwrap().modified().unwrap(), before);

    let out = stdout(&run(UNINSTALL, home.path(), None, home.path()));
    assert!(
        out.contains(&format!(
            "greenroom hooks removed from {}",
            plugin.display()
        )),
        "{out}"
    );
    assert!(!plugin.exists());
    assert!(
        opencode.join("plugins").is_dir(),
        "the folder is the operator's too"
    );
    assert_untouched(&mine);
    let out = stdout(&run(UNINSTALL, home.path(), None, home.path()));
    assert!(out.contains("already up to date"), "{out}");
}

#[test]
fn an_older_greenroom_plugin_is_replaced_by_this_one() {
    let home = tempfile::tempdir().unwrap();
    let plugin = home.path().join(".config/opencode/plugins/greenroom.js");
    fs::create_dir_all(plugin.parent().unwrap()).unwrap();
    let old = "// greenroom's OpenCode plugin, format 0. Written by an older greenroom.\n\
               export default { id: \"greenroom\", server: async () => ({}) }\n";
    fs::write(&plugin, old).unwrap();
    let out = stdout(&run(INSTALL, home.path(), None, home.path()));
    assert!(out.contains("greenroom hooks installed into"), "{out}");
    let text = fs::read_to_string(&plugin).unwrap();
    assert!(text.starts_with("// greenroom's OpenCode plugin, format 1."));
    assert!(text.contains("permission.asked"));

    // The same format with another binary's path is out of date too.
    let moved = text.replace(
        &serde_json::to_string(BIN).unwrap(),
        "\"/old/bin/greenroom\"",
    );
    fs::write(&plugin, &moved).unwrap();
    stdout(&run(INSTALL, home.path(), None, home.path()));
    assert_eq!(fs::read_to_string(&plugin).unwrap(), text);
}

#[test]
fn xdg_config_home_and_the_project_scope_are_where_opencode_looks() {
    let home = tempfile::tempdir().unwrap();
    let xdg = home.path().join("xdg");
    stdout(&run(INSTALL, home.path(), Some(&xdg), home.path()));
    assert!(xdg.join("opencode/plugins/greenroom.js").is_file());
    assert!(!home.path().join(".config").exists());

    let project = home.path().join("shop");
    fs::create_dir_all(&project).unwrap();
    let args = ["install", "--agent", "opencode", "--scope", "project"];
    stdout(&run(&args, home.path(), Some(&xdg), &project));
    let plugin = project.join(".opencode/plugins/greenroom.js");
    assert!(plugin.is_file());

    // A dry run shows the file and changes nothing.
    let dry = [
        "uninstall",
        "--agent",
        "opencode",
        "--scope",
        "project",
        "--dry-run",
    ];
    let out = run(&dry, home.path(), Some(&xdg), &project);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("dry run"));
    assert!(plugin.is_file());
    let undo = ["uninstall", "--agent", "opencode", "--scope", "project"];
    stdout(&run(&undo, home.path(), Some(&xdg), &project));
    assert!(!plugin.exists());
}

#[test]
fn a_greenroom_js_that_is_not_greenroom_s_is_left_alone() {
    let home = tempfile::tempdir().unwrap();
    let plugin = home.path().join(".config/opencode/plugins/greenroom.js");
    fs::create_dir_all(plugin.parent().unwrap()).unwrap();
    let theirs =
        "// my own greenroom helper\nexport default { id: \"gr\", server: async () => ({}) }\n";
    fs::write(&plugin, theirs).unwrap();
    for args in [INSTALL, UNINSTALL] {
        let out = run(args, home.path(), None, home.path());
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("is not greenroom's plugin"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert_eq!(fs::read_to_string(&plugin).unwrap(), theirs);
    }
}
