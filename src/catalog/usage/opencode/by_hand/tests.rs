use super::*;
use crate::sources::opencode_db::OpencodeTokens;

fn session(id: &str, cwd: &str, created_s: i64, updated_s: i64) -> OpencodeSession {
    OpencodeSession {
        id: id.into(),
        parent_id: None,
        directory: cwd.into(),
        title: String::new(),
        model: Some("m".into()),
        cost: Some(0.5),
        tokens: OpencodeTokens::default(),
        created_ms: created_s * 1000,
        updated_ms: updated_s * 1000,
    }
}

fn pane(n: u32) -> PaneId {
    PaneId::parse(&format!("%{n}")).unwrap()
}

/// A store that found OpenCodes in panes `%0`, `%1`… (folder, start in
/// seconds, session named) and last read `sessions`.
fn store(found: &[(&str, i64, Option<&str>)], mut sessions: Vec<OpencodeSession>) -> OpencodeStore {
    let mut st = OpencodeStore::new(None);
    for (n, (cwd, started_s, named)) in found.iter().enumerate() {
        let h = ByHand {
            pid: 1000 + n as u32,
            cwd: Some(PathBuf::from(cwd)),
            started_ms: started_s * 1000,
            named: named.map(str::to_owned),
        };
        st.by_hand.insert(pane(n as u32), h);
    }
    sessions.sort_by_key(|o| std::cmp::Reverse(o.updated_ms));
    st.sessions = sessions;
    st
}

fn id_of(st: &OpencodeStore, n: u32) -> Option<&str> {
    st.session_of_pane(&pane(n)).map(|o| o.id.as_str())
}

#[test]
fn the_latest_session_in_its_folder_since_it_started_is_its_own() {
    let st = store(
        &[("/w", 100, None)],
        vec![
            session("ses_before", "/w", 10, 90),
            session("ses_first", "/w", 110, 120),
            session("ses_new", "/w", 130, 140),
            session("ses_elsewhere", "/x", 150, 160),
        ],
    );
    assert_eq!(id_of(&st, 0), Some("ses_new"));
    // One started before it, written to since (a session picked to resume).
    let st = store(
        &[("/w", 100, None)],
        vec![session("ses_resumed", "/w", 10, 200)],
    );
    assert_eq!(id_of(&st, 0), Some("ses_resumed"));
    let st = store(&[("/w", 100, None)], vec![session("ses_old", "/w", 10, 90)]);
    assert_eq!(id_of(&st, 0), None, "nothing written since it started");
}

#[test]
fn the_session_its_argv_names_wins_and_is_no_one_elses() {
    let st = store(
        &[("/w", 100, Some("ses_named")), ("/w", 100, None)],
        vec![
            session("ses_named", "/w", 10, 300),
            session("ses_mine", "/w", 110, 120),
        ],
    );
    assert_eq!(id_of(&st, 0), Some("ses_named"));
    assert_eq!(id_of(&st, 1), Some("ses_mine"), "the named one is not its");
    let st = store(
        &[("/w", 100, Some("ses_gone"))],
        vec![session("s", "/w", 110, 120)],
    );
    assert_eq!(id_of(&st, 0), None, "not read: unknown, never another");
}

#[test]
fn two_in_one_folder_with_nothing_named_are_not_guessed() {
    let st = store(
        &[("/w", 100, None), ("/w", 105, None), ("/x", 100, None)],
        vec![
            session("ses_w", "/w", 110, 120),
            session("ses_x", "/x", 110, 120),
        ],
    );
    assert_eq!((id_of(&st, 0), id_of(&st, 1)), (None, None));
    assert_eq!(id_of(&st, 2), Some("ses_x"));
}

#[test]
fn greenrooms_own_opencode_in_the_folder_is_another() {
    let at = chrono::DateTime::from_timestamp(50, 0).unwrap();
    let mut own =
        crate::sources::sidecar::Sidecar::new("own", std::path::Path::new("/w"), "opencode", at);
    own.agent = Some("opencode".into());
    own.status = Status::Running;
    let mut st = store(&[("/w", 100, None)], vec![session("ses_w", "/w", 110, 120)]);
    st.follow(&own);
    assert_eq!(id_of(&st, 0), None);
    // And a session found to be a hand-started one's is not greenroom's.
    own.status = Status::Exited;
    let st2 = {
        let mut st = store(&[("/w", 100, None)], vec![session("ses_w", "/w", 110, 120)]);
        st.follow(&own);
        st
    };
    assert_eq!(id_of(&st2, 0), Some("ses_w"));
    assert_eq!(st2.session_of(&own), None);
}
