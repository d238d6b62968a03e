//! `greenroom ls --all-hosts` against two real sshd on loopback, each a
//! "host" with its own sidecar folder and tmux server: both hosts' rows
//! listed with the local ones, and a host that is down is one line.

use serde_json::Value;

use crate::support::actions::Greenroom;
use crate::support::sshd::{Host, sshd_or_skip};
use crate::support::{TmuxServer, World};

#[test]
fn every_hosts_rows_with_the_local_ones_and_a_host_down_is_one_line() {
    if !sshd_or_skip() {
        return;
    }
    let local = World::new();
    let local_tmux = TmuxServer::new();
    local.running(&local_tmux, "here");
    let keys = local.path("keys");
    let a = Host::start("alpha", &keys);
    let b = Host::start("beta", &keys);
    a.world.running(&a.tmux, "on-alpha");
    b.world.running(&b.tmux, "on-beta");
    let down = {
        let mut d = Host::start("gone", &keys);
        d.stop_sshd();
        d
    };
    std::fs::write(
        local.path("config.toml"),
        format!("{}{}{}", a.toml(), b.toml(), down.toml()),
    )
    .unwrap();
    let gr = Greenroom::new(&local, &local_tmux);
    let run = |args: &[&str]| {
        let out = gr
            .command(args)
            .env("XDG_RUNTIME_DIR", local.path("run"))
            .output()
            .unwrap();
        std::fs::create_dir_all(local.path("run")).ok();
        out
    };
    std::fs::create_dir_all(local.path("run")).unwrap();
    let out = run(&["ls", "--all-hosts", "--json"]);
    assert!(out.status.success(), "{out:?}");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut rows: Vec<(String, String)> = doc["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["host"].as_str().unwrap_or("-").to_owned(),
                r["name"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    rows.sort();
    assert_eq!(
        rows,
        [("-", "here"), ("alpha", "on-alpha"), ("beta", "on-beta")]
            .map(|(h, n)| (h.to_owned(), n.to_owned()))
    );
    for r in doc["sessions"].as_array().unwrap() {
        assert_eq!(r["status"], "Running", "{r}");
    }
    let hosts = doc["hosts"].as_array().unwrap();
    assert_eq!(hosts.len(), 3);
    assert_eq!(hosts[2]["name"], "gone");
    assert_eq!(hosts[2]["ok"], false);
    assert!(
        hosts[2]["error"]
            .as_str()
            .unwrap()
            .starts_with("cannot reach gone"),
        "{}",
        hosts[2]
    );
    // The control folder is private.
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(local.path("run/greenroom-ssh"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o700);

    // The table: a HOST column; the host that is down is one line on stderr.
    let out = run(&["ls", "--all-hosts"]);
    assert!(out.status.success(), "{out:?}");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.starts_with("HOST "), "{table}");
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("alpha") && l.contains("on-alpha")),
        "{table}"
    );
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("local") && l.contains("here")),
        "{table}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("gone: cannot reach gone"), "{err}");
}
