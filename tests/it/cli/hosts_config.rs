//! `[[hosts]]` in config.toml, through the built binary: a mistake is one
//! line naming the file and the entry, for every command.

use crate::support::actions::Greenroom;
use crate::support::{TmuxServer, World};

fn refused(config: &str) -> String {
    let world = World::new();
    let tmux = TmuxServer::new();
    std::fs::write(world.path("config.toml"), config).unwrap();
    let out = Greenroom::new(&world, &tmux).run(&["ls"]);
    assert!(!out.status.success(), "{config}");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("config.toml"), "{err}");
    err
}

#[test]
fn bad_host_entries_are_one_line_each() {
    let err = refused("[[hosts]]\nname = \"build\"\nssh = \"-oProxyCommand=sh\"\n");
    assert!(err.contains("is not a destination"), "{err}");
    let err = refused("[[hosts]]\nname = \"a b\"\nssh = \"x\"\n");
    assert!(err.contains("name \"a b\""), "{err}");
    let err =
        refused("[[hosts]]\nname = \"a\"\nssh = \"x\"\n[[hosts]]\nname = \"a\"\nssh = \"y\"\n");
    assert!(err.contains("used twice"), "{err}");
    let err = refused("[[hosts]]\nname = \"a\"\nssh = \"x\"\nport = 22\n");
    assert!(err.contains("port"), "{err}");
}

#[test]
fn a_good_entry_is_read() {
    let world = World::new();
    let tmux = TmuxServer::new();
    std::fs::write(
        world.path("config.toml"),
        "[[hosts]]\nname = \"build\"\nssh = \"me@build\"\nssh_options = [\"-p\", \"2222\"]\ngreenroom = \"~/bin/greenroom\"\n",
    )
    .unwrap();
    let out = Greenroom::new(&world, &tmux).run(&["ls", "--json"]);
    assert!(out.status.success(), "{out:?}");
}
