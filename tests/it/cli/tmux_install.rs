//! `greenroom tmux install|uninstall` on the user's tmux config file and a
//! real tmux server, through the built binary: the user's own lines and
//! key bindings are kept or given back, each write is backed up, a file
//! keeps its mode and its hard links, a read-only one is refused, and a
//! bare `--file` name is a file in the current folder.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::TmuxServer;

const BIN: &str = env!("CARGO_BIN_EXE_greenroom");

/// `greenroom tmux ARGS` run in `cwd` with `home` as HOME, against the
/// private server `socket`.
fn greenroom_tmux(home: &Path, cwd: &Path, socket: &str, args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("tmux")
        .args(args)
        .args(["--tmux-socket", socket])
        .current_dir(cwd)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .env_remove("TMUX")
        .output()
        .unwrap()
}

fn ok(out: Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

fn backups(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains(".greenroom-backup-"))
        .collect();
    found.sort();
    found
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

const NO_SERVER: &str = "greenroom-test-no-server";

#[test]
fn uninstall_keeps_the_users_lines_written_inside_the_block_and_each_write_is_backed_up() {
    let home = tempfile::tempdir().unwrap();
    let conf = home.path().join(".tmux.conf");
    fs::write(&conf, "set -g mouse on\n").unwrap();
    ok(greenroom_tmux(
        home.path(),
        home.path(),
        NO_SERVER,
        &["install"],
    ));
    let installed = fs::read_to_string(&conf).unwrap();
    // The user adds a line of their own inside greenroom's block.
    let b_line = installed
        .lines()
        .find(|l| l.starts_with("bind-key b "))
        .unwrap();
    let edited = installed.replace(
        &format!("{b_line}\n"),
        &format!("{b_line}\nset -g history-limit 50000\n"),
    );
    assert_ne!(edited, installed);
    fs::write(&conf, &edited).unwrap();
    let said = ok(greenroom_tmux(
        home.path(),
        home.path(),
        NO_SERVER,
        &["uninstall"],
    ));
    assert!(
        said.lines()
            .any(|l| l.contains("kept your line") && l.contains("set -g history-limit 50000")),
        "{said}"
    );
    assert_eq!(
        fs::read_to_string(&conf).unwrap(),
        "set -g mouse on\nset -g history-limit 50000\n"
    );
    let saved: Vec<String> = backups(home.path())
        .iter()
        .map(|b| fs::read_to_string(b).unwrap())
        .collect();
    assert_eq!(saved.len(), 2, "one backup for each write");
    assert!(saved.contains(&"set -g mouse on\n".to_owned()));
    assert!(saved.contains(&edited));
}

#[test]
fn install_apply_names_the_bindings_it_replaces_and_uninstall_binds_them_back() {
    let tmux = TmuxServer::new();
    tmux.spawn("keep", &["sleep", "600"]);
    tmux.run(&["bind-key", "g", "display-message", "mine g"]);
    tmux.run(&["bind-key", "b", "display-message", "mine b"]);
    let binding = |key: &str| tmux.run(&["list-keys", "-T", "prefix", key]);
    let (before_g, before_b) = (binding("g"), binding("b"));
    let home = tempfile::tempdir().unwrap();
    let conf = home.path().join(".tmux.conf");
    fs::write(&conf, "set -g mouse on\n").unwrap();

    let said = ok(greenroom_tmux(
        home.path(),
        home.path(),
        &tmux.name,
        &["install", "--apply"],
    ));
    for mine in ["mine g", "mine b"] {
        let lines: Vec<&str> = said.lines().filter(|l| l.contains(mine)).collect();
        assert_eq!(lines.len(), 1, "one line names {mine}: {said}");
        assert!(lines[0].contains("replaces"), "{said}");
    }
    assert!(binding("g").contains("next"), "{}", binding("g"));
    // Installing again records the same, not greenroom's own keys.
    let again = ok(greenroom_tmux(
        home.path(),
        home.path(),
        &tmux.name,
        &["install", "--apply"],
    ));
    assert!(again.contains("already up to date"), "{again}");

    ok(greenroom_tmux(
        home.path(),
        home.path(),
        &tmux.name,
        &["uninstall", "--apply"],
    ));
    assert_eq!(binding("g"), before_g);
    assert_eq!(binding("b"), before_b);
    let big_g = tmux
        .cmd()
        .args(["list-keys", "-T", "prefix", "G"])
        .output()
        .unwrap();
    assert!(!big_g.status.success(), "G was not bound before");
    assert_eq!(fs::read_to_string(&conf).unwrap(), "set -g mouse on\n");
}

#[test]
fn a_bare_file_name_is_in_the_current_folder_and_keeps_its_mode() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let conf = dir.path().join("my.conf");
    fs::write(&conf, "set -g mouse on\n").unwrap();
    fs::set_permissions(&conf, fs::Permissions::from_mode(0o640)).unwrap();
    let said = ok(greenroom_tmux(
        home.path(),
        dir.path(),
        NO_SERVER,
        &["install", "--file", "my.conf"],
    ));
    assert!(said.contains("added to my.conf"), "{said}");
    assert!(
        fs::read_to_string(&conf)
            .unwrap()
            .contains("# >>> greenroom")
    );
    assert_eq!(mode(&conf), 0o640, "an existing file keeps its mode");
    ok(greenroom_tmux(
        home.path(),
        dir.path(),
        NO_SERVER,
        &["uninstall", "--file", "my.conf"],
    ));
    assert_eq!(fs::read_to_string(&conf).unwrap(), "set -g mouse on\n");
    assert_eq!(mode(&conf), 0o640);
    // A file greenroom creates is 0644, as tmux configs are.
    ok(greenroom_tmux(
        home.path(),
        dir.path(),
        NO_SERVER,
        &["install", "--file", "new.conf"],
    ));
    assert_eq!(mode(&dir.path().join("new.conf")), 0o644);
}

#[test]
fn a_read_only_config_is_refused_with_one_line() {
    let home = tempfile::tempdir().unwrap();
    let conf = home.path().join(".tmux.conf");
    fs::write(&conf, "set -g mouse on\n").unwrap();
    fs::set_permissions(&conf, fs::Permissions::from_mode(0o444)).unwrap();
    let out = greenroom_tmux(home.path(), home.path(), NO_SERVER, &["install"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("read-only") && err.contains("chmod u+w"),
        "{err}"
    );
    assert_eq!(fs::read_to_string(&conf).unwrap(), "set -g mouse on\n");
    assert_eq!(mode(&conf), 0o444);
    assert!(backups(home.path()).is_empty());
}

#[test]
fn a_hard_linked_config_keeps_its_link() {
    let home = tempfile::tempdir().unwrap();
    let conf = home.path().join(".tmux.conf");
    fs::write(&conf, "set -g mouse on\n").unwrap();
    let other = home.path().join("dotfiles-tmux.conf");
    fs::hard_link(&conf, &other).unwrap();
    ok(greenroom_tmux(
        home.path(),
        home.path(),
        NO_SERVER,
        &["install"],
    ));
    assert!(
        fs::read_to_string(&other)
            .unwrap()
            .contains("# >>> greenroom")
    );
    assert_eq!(
        fs::metadata(&conf).unwrap().ino(),
        fs::metadata(&other).unwrap().ino()
    );
    ok(greenroom_tmux(
        home.path(),
        home.path(),
        NO_SERVER,
        &["uninstall"],
    ));
    assert_eq!(fs::read_to_string(&other).unwrap(), "set -g mouse on\n");
}

#[test]
fn uninstall_apply_after_a_plain_install_binds_the_file_s_own_keys_back() {
    let tmux = TmuxServer::new();
    tmux.spawn("keep", &["sleep", "600"]);
    let home = tempfile::tempdir().unwrap();
    let conf = home.path().join(".tmux.conf");
    fs::write(&conf, "bind g display-message \"file g\"\n").unwrap();
    let said = ok(greenroom_tmux(
        home.path(),
        home.path(),
        &tmux.name,
        &["install"],
    ));
    let lines: Vec<&str> = said.lines().filter(|l| l.contains("file g")).collect();
    assert_eq!(lines.len(), 1, "one line names the file's binding: {said}");
    assert!(
        lines[0].contains("line 1") && lines[0].contains("replaces"),
        "{said}"
    );
    // The server as tmux would start it with the file: greenroom's keys last.
    tmux.run(&["source-file", conf.to_str().unwrap()]);
    let binding = |key: &str| tmux.run(&["list-keys", "-T", "prefix", key]);
    assert!(binding("g").contains("next"), "{}", binding("g"));
    ok(greenroom_tmux(
        home.path(),
        home.path(),
        &tmux.name,
        &["uninstall", "--apply"],
    ));
    assert!(binding("g").contains("file g"), "{}", binding("g"));
}
