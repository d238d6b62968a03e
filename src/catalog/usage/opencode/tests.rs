use super::*;
use crate::sources::opencode_db::OpencodeTokens;
use chrono::DateTime;

fn sidecar(name: &str, cwd: &str, started_s: i64) -> Sidecar {
    let at = DateTime::from_timestamp(started_s, 0).unwrap();
    let mut s = Sidecar::new(name, Path::new(cwd), "opencode", at);
    s.agent = Some("opencode".into());
    s
}

fn session(id: &str, cwd: &str, created_s: i64, updated_s: i64) -> OpencodeSession {
    OpencodeSession {
        id: id.into(),
        parent_id: None,
        directory: cwd.into(),
        title: String::new(),
        model: Some("m".into()),
        cost: Some(0.0),
        tokens: OpencodeTokens {
            input: 100,
            output: 20,
            reasoning: 5,
            cache_read: 40,
            cache_write: 0,
        },
        created_ms: created_s * 1000,
        updated_ms: updated_s * 1000,
    }
}

/// A store following `sidecars` (no database: nothing is read) that last
/// read `sessions`, most recently updated first as the reader gives them.
fn store(sidecars: &[&Sidecar], mut sessions: Vec<OpencodeSession>) -> OpencodeStore {
    let mut st = OpencodeStore::new(None);
    for s in sidecars {
        st.follow(s);
    }
    sessions.sort_by_key(|o| std::cmp::Reverse(o.updated_ms));
    st.sessions = sessions;
    st
}

#[test]
fn each_session_is_the_latest_greenroom_session_started_before_it_in_its_folder() {
    let (a, b) = (
        sidecar("a", "/nowhere/w", 100),
        sidecar("b", "/nowhere/w", 200),
    );
    let other = sidecar("c", "/nowhere/x", 150);
    let st = store(
        &[&a, &b, &other],
        vec![
            session("ses_a", "/nowhere/w", 101, 300),
            session("ses_b", "/nowhere/w", 201, 250),
            session("ses_old", "/nowhere/w", 50, 400),
        ],
    );
    assert_eq!(st.session_of(&a).map(|o| o.id.as_str()), Some("ses_a"));
    assert_eq!(st.session_of(&b).map(|o| o.id.as_str()), Some("ses_b"));
    assert_eq!(st.session_of(&other), None, "none in its folder");
    // `/new` in OpenCode: the most recently updated of its own is its
    // conversation.
    let st = store(
        &[&a],
        vec![
            session("ses_first", "/nowhere/w", 101, 120),
            session("ses_new", "/nowhere/w", 130, 140),
        ],
    );
    assert_eq!(st.session_of(&a).map(|o| o.id.as_str()), Some("ses_new"));
    // An id a report named wins over the folder.
    let mut named = a.clone();
    named.agent_session_id = Some("ses_first".into());
    assert_eq!(
        st.session_of(&named).map(|o| o.id.as_str()),
        Some("ses_first")
    );
}

#[test]
fn usage_adds_sub_agents_and_counts_reasoning_in_the_output() {
    let a = sidecar("a", "/nowhere/w", 100);
    let mut child = session("ses_child", "/nowhere/w", 102, 103);
    child.parent_id = Some("ses_a".into());
    let st = store(&[&a], vec![session("ses_a", "/nowhere/w", 101, 300), child]);
    let u = st.usage(&a, &Prices::default()).unwrap();
    assert_eq!((u.input, u.output, u.cache_read), (200, 50, 80));
    assert_eq!(u.reasoning, 10);
    assert_eq!(u.cost_usd, None, "no price for `m` anywhere");
    assert_eq!(u.unpriced_models, ["m"]);
    // OpenCode's own cost, where it priced the model.
    let mut priced = session("ses_a", "/nowhere/w", 101, 300);
    priced.cost = Some(0.25);
    let st = store(&[&a], vec![priced]);
    let u = st.usage(&a, &Prices::default()).unwrap();
    assert_eq!(u.cost_usd, Some(0.25));
    assert_eq!(u.cost_source.as_deref(), Some("opencode"));
    assert!(u.unpriced_models.is_empty());
}

#[test]
fn only_opencode_sessions_are_followed() {
    let mut claude = sidecar("c", "/nowhere/w", 100);
    claude.agent = Some("claude".into());
    claude.command = "claude".into();
    assert!(!is_opencode(&claude));
    let mut by_path = claude.clone();
    by_path.agent = None;
    by_path.command = "/opt/bin/opencode --model x".into();
    assert!(is_opencode(&by_path));
    let mut st = OpencodeStore::new(Some("/nowhere/opencode/opencode.db".into()));
    st.follow(&claude);
    assert_eq!(st.folder(), None, "nothing followed, nothing watched");
    st.follow(&by_path);
    assert_eq!(st.folder(), Some(PathBuf::from("/nowhere/opencode")));
    // The database is missing: said once, as the database's problem.
    let (path, why) = st.problem().unwrap();
    assert_eq!(path, PathBuf::from("/nowhere/opencode/opencode.db"));
    assert!(why.contains("does not exist"), "{why}");
    assert_eq!(
        st.apply(Path::new("/nowhere/opencode/opencode.db-wal")),
        Some(false)
    );
    assert_eq!(st.apply(Path::new("/nowhere/opencode/x")), None);
}
