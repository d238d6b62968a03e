use super::*;

fn record(path: &str, session_id: &str, pane: &str, minute: u32) -> RegistryEntry {
    RegistryEntry {
        path: PathBuf::from(path),
        pid: 1,
        session_id: session_id.into(),
        cwd: None,
        status: None,
        waiting_for: None,
        status_at: chrono::TimeZone::with_ymd_and_hms(&Utc, 2026, 12, 3, 8, minute, 0).single(),
        tmux_session: None,
        tmux_pane: Some(pane.into()),
        name: None,
        version: None,
        ancestry: vec![1, 2],
    }
}

fn keep(r: &mut Registry, e: RegistryEntry) {
    let path = e.path.clone();
    r.insert_entry(&path, e);
}

#[test]
fn a_record_is_found_by_its_session_id_as_it_now_says() {
    let mut r = Registry::default();
    keep(&mut r, record("/s/1.json", "a", "%1", 1));
    keep(&mut r, record("/s/2.json", "a", "%2", 5));
    keep(&mut r, record("/s/3.json", "b", "%3", 9));
    // The newest of a session's live records speaks for it.
    let of = |r: &Registry, id| r.of_session(Some(id)).map(|e| e.path.clone());
    assert_eq!(of(&r, "a"), Some(PathBuf::from("/s/2.json")));
    // Rewritten for another conversation: no longer found under the old id.
    keep(&mut r, record("/s/2.json", "b", "%2", 7));
    assert_eq!(of(&r, "a"), Some(PathBuf::from("/s/1.json")));
    assert_eq!(of(&r, "b"), Some(PathBuf::from("/s/3.json")));
    assert!(r.remove_entry(Path::new("/s/1.json")));
    assert!(!r.remove_entry(Path::new("/s/1.json")));
    assert_eq!(of(&r, "a"), None);
    assert!(!r.by_session.contains_key("a"));
    assert_eq!(r.by_pane.get("%2").map(BTreeSet::len), Some(1));
    assert!(!r.by_pane.contains_key("%1"));
}
