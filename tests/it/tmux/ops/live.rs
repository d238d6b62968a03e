//! kill, send, attach and ID resolution through ops: never the wrong session.

use super::actions_support::{assert_contents, cat_to, has_session, row, rows, server};
use super::support::World;
use super::{request, sleeper, tmux_of, workdir};
use greenroom::model::Status;
use greenroom::ops::{self, Launch, OpsError};
use greenroom::sources::sidecar::SidecarStore;

#[test]
fn kill_and_send_never_confuse_api_1_with_api_10() {
    let world = World::new();
    let tmux = server();
    let config = world.config(Some(&tmux), &[]);
    let t = tmux_of(&config);
    let store = SidecarStore::new(&config.sidecar_dir);
    let cwd = workdir(&world);
    let (out1, out10) = (world.path("one.txt"), world.path("ten.txt"));
    for (name, out) in [("api-10", &out10), ("api-1", &out1)] {
        let cmd = Launch::Command(cat_to(out));
        ops::spawn(&t, &config, &request(Some(name), &cwd, cmd)).unwrap();
    }
    let rows = rows(&config);
    ops::send(&t, row(&rows, "api-1"), "for one").unwrap();
    ops::send(&t, row(&rows, "api-10"), "for ten").unwrap();
    assert_contents(&out1, "for one\n");
    assert_contents(&out10, "for ten\n");

    ops::kill(&t, &store, row(&rows, "api-1")).unwrap();
    assert!(!has_session(&tmux, "gr-api-1"));
    assert!(has_session(&tmux, "gr-api-10"), "api-10 untouched");
    let after = super::actions_support::rows(&config);
    assert_eq!(row(&after, "api-1").status, Status::Killed);
    assert_eq!(row(&after, "api-10").status, Status::Running);
    let id1 = row(&after, "api-1").id.parse().unwrap();
    assert_eq!(store.read(id1).unwrap().status, Status::Killed);

    // api-1 is gone: send and kill refuse, and never reach api-10.
    let err = ops::send(&t, row(&after, "api-1"), "lost").unwrap_err();
    assert_eq!(
        err.to_string(),
        "api-1 is not running; restore it first (r, or `greenroom restore api-1`)"
    );
    assert_eq!(
        ops::kill(&t, &store, row(&after, "api-1"))
            .unwrap_err()
            .to_string(),
        "api-1 is not running (killed), so there is nothing to kill; dismiss it \
         (D, or `greenroom dismiss api-1`) or restore it (r, or `greenroom restore api-1`)"
    );
    // A stale row (it looked live) is refused by tmux's exact target.
    let err = ops::send(&t, row(&rows, "api-1"), "lost").unwrap_err();
    assert!(matches!(err, OpsError::NotLive(_)), "{err}");
    ops::send(&t, row(&after, "api-10"), "still ten").unwrap();
    assert_contents(&out10, "for ten\nstill ten\n");
}

#[test]
fn messages_reach_the_pane_literally() {
    let world = World::new();
    let tmux = server();
    let config = world.config(Some(&tmux), &[]);
    let t = tmux_of(&config);
    let out = world.path("pane.txt");
    let pwned = world.path("pwned");
    let cmd = Launch::Command(cat_to(&out));
    ops::spawn(&t, &config, &request(Some("lit"), &workdir(&world), cmd)).unwrap();
    let session = row(&rows(&config), "lit").clone();
    let messages = [
        "it's \"quoted\" and 'single'".to_owned(),
        format!(
            "$(touch {}) and `touch {}`",
            pwned.display(),
            pwned.display()
        ),
        "a; b && c | d > e".into(),
        "ends with;".into(),
        ";".into(),
        "ends with \\;".into(),
        "-n --flag".into(),
        "Enter C-c \\n %1 #{session_name} ~".into(),
        "héllo → 世界 🚀".into(),
        "line one\nline 'two' $(three)\n  indented;".into(),
    ];
    let mut expected = String::new();
    for m in &messages {
        ops::send(&t, &session, m).unwrap();
        expected.push_str(m);
        expected.push('\n');
        assert_contents(&out, &expected);
    }
    assert!(!pwned.exists(), "nothing was run by a shell");
}

#[test]
fn ids_resolve_by_name_then_id_then_unique_prefix() {
    let world = World::new();
    let tmux = server();
    let config = world.config(Some(&tmux), &[]);
    let store = SidecarStore::new(&config.sidecar_dir);
    let cwd = workdir(&world);
    let mk = |name: &str, id: &str| {
        let mut s =
            greenroom::sources::sidecar::Sidecar::new(name, &cwd, "sleep 600", chrono::Utc::now());
        s.id = id.parse().unwrap();
        s.tmux_session = Some(format!("gr-{name}"));
        store.create(&s).unwrap();
    };
    mk("api-1", "aaaa1111-0000-4000-8000-000000000001");
    mk("api-10", "aaaa2222-0000-4000-8000-000000000010");
    mk("dead", "bbbb0000-0000-4000-8000-000000000000");
    mk("beef", "deadbeef-0000-4000-8000-000000000000");
    let rows = rows(&config);
    let name_of = |id: &str| ops::resolve(&rows, id).map(|s| s.name.clone());
    assert_eq!(name_of("api-1").unwrap(), "api-1");
    assert_eq!(name_of("api-10").unwrap(), "api-10");
    assert_eq!(name_of("gr-api-1").unwrap(), "api-1");
    assert_eq!(name_of("aaaa1").unwrap(), "api-1");
    assert_eq!(name_of("AAAA2").unwrap(), "api-10");
    assert_eq!(
        name_of("aaaa2222-0000-4000-8000-000000000010").unwrap(),
        "api-10"
    );
    // A name wins over a uuid prefix it happens to spell.
    assert_eq!(name_of("dead").unwrap(), "dead");
    assert_eq!(name_of("deadb").unwrap(), "beef");
    let err = ops::resolve(&rows, "aaaa").unwrap_err().to_string();
    assert_eq!(
        err,
        "\"aaaa\" matches several sessions: api-1 (aaaa1111), api-10 (aaaa2222); use the full id"
    );
    for unknown in ["api", "api-", "aaa", "", "api-100", "zzzz"] {
        let err = ops::resolve(&rows, unknown).unwrap_err();
        assert!(matches!(err, OpsError::UnknownId(_)), "{unknown:?}: {err}");
    }
}

#[test]
fn attach_refuses_what_is_not_live_and_knows_its_own_server() {
    let world = World::new();
    let tmux = server();
    let config = world.config(Some(&tmux), &[]);
    let t = tmux_of(&config);
    let store = SidecarStore::new(&config.sidecar_dir);
    let cwd = workdir(&world);
    ops::spawn(&t, &config, &sleeper("api-10", &cwd)).unwrap();
    ops::spawn(&t, &config, &sleeper("api-1", &cwd)).unwrap();
    ops::kill(&t, &store, row(&rows(&config), "api-1")).unwrap();
    let rows = rows(&config);
    let err = ops::attach(&t, &store, row(&rows, "api-1"), None).unwrap_err();
    assert!(matches!(err, OpsError::NotLive(_)), "{err}");
    assert_eq!(
        row(&rows, "api-1").last_focused_at,
        None,
        "no focus recorded"
    );

    let name = &tmux.name;
    let here = format!("/tmp/tmux-1000/{name},4242,0");
    assert!(t.is_current_server(Some(&here)));
    assert!(!t.is_current_server(Some(&format!("/tmp/tmux-1000/{name}0,4242,0"))));
    assert!(!t.is_current_server(Some("/tmp/tmux-1000/default,1,0")));
    assert!(!t.is_current_server(Some("")));
    assert!(!t.is_current_server(None));
}
