//! The marked block: written, found, removed, the user's lines kept.

use super::*;

const EXE: &str = "/home/me/.cargo/bin/greenroom";

#[test]
fn install_appends_once_and_uninstall_restores_the_file_exactly() {
    let mine = "set -g mouse on\nbind r source-file ~/.tmux.conf";
    let block = block(EXE, &[]).unwrap();
    let once = install(mine, &block).unwrap();
    assert!(once.starts_with("set -g mouse on\nbind r source-file ~/.tmux.conf\n\n# >>>"));
    assert_eq!(install(&once, &block).unwrap(), once, "idempotent");
    let back = remove(&once).unwrap();
    assert_eq!(back.text, format!("{mine}\n"));
    assert_eq!(back.removed.first().map(String::as_str), Some(BEGIN));
    assert_eq!(back.removed.last().map(String::as_str), Some(END));
    assert_eq!(remove(mine).unwrap().removed, Vec::<String>::new());
    assert_eq!(install("", &block).unwrap(), block);
}

#[test]
fn an_older_block_is_replaced_and_moved_to_the_end() {
    let old = block("/old/greenroom", &[]).unwrap();
    let text = format!("a\n\n{old}set -g status-right 'x'\n");
    let new = install(&text, &block(EXE, &[]).unwrap()).unwrap();
    assert!(!new.contains("/old/greenroom"));
    assert!(
        new.starts_with("a\nset -g status-right 'x'\n\n# >>>"),
        "{new}"
    );
}

#[test]
fn a_block_with_no_end_is_refused() {
    let text = format!("a\n{BEGIN}\nbind-key g x\nmine\n");
    assert!(remove(&text).unwrap_err().contains("by hand"));
    assert!(install(&text, "x").is_err());
}

#[test]
fn a_path_tmux_or_a_shell_would_read_as_syntax_is_refused() {
    for bad in [
        "/a'b/greenroom",
        "/a\"b",
        "/a#b",
        "/$HOME/g",
        "/a\\b",
        "/a;b",
        "",
    ] {
        assert!(block(bad, &[]).is_err(), "{bad}");
    }
    assert!(block("/opt/my tools/greenroom", &[]).is_ok());
    assert!(block(EXE, &["bind-key g x\u{1b}[m".into()]).is_err());
}

#[test]
fn the_user_s_lines_inside_the_block_are_kept_where_it_was() {
    let block = block(EXE, &[]).unwrap();
    let (head, tail) = block.split_once("bind-key b").unwrap();
    let edited = format!("a\n\n{head}set -g mouse on\nbind-key b{tail}z\n");
    let back = remove(&edited).unwrap();
    assert_eq!(back.text, "a\nset -g mouse on\nz\n");
    assert_eq!(back.kept, vec!["set -g mouse on".to_owned()]);
    let again = install(&edited, &block).unwrap();
    assert_eq!(again, format!("a\nset -g mouse on\nz\n\n{block}"));
}

#[test]
fn an_older_block_s_lines_are_greenroom_s() {
    let older = format!(
        "{BEGIN}\n# prefix G: the dashboard\n\
         bind-key G display-popup -E -w 90% -h 90% -d \"#{{pane_current_path}}\" \"'/old/greenroom'\"\n\
         bind-key g run-shell \"'/old/greenroom' next\"\n\
         # prefix b: back to the previous session (the dashboard, after Enter took you to an agent)\n\
         bind-key b switch-client -l\n{END}\n"
    );
    let back = remove(&older).unwrap();
    assert_eq!(back.text, "");
    assert!(back.kept.is_empty(), "{:?}", back.kept);
}

#[test]
fn replaced_bindings_are_recorded_and_bound_back() {
    let mine = "bind-key -T prefix g display-message \"hi there\"".to_owned();
    let block = block(EXE, std::slice::from_ref(&mine)).unwrap();
    let back = remove(&block).unwrap();
    assert_eq!(back.replaced, vec![mine.clone()]);
    assert!(back.kept.is_empty());
    let undo = undo_commands(&back.replaced);
    let unbind = undo.find("unbind-key g").unwrap();
    assert!(undo.find(&mine).unwrap() > unbind, "{undo}");
}

#[test]
fn the_user_s_own_bindings_of_greenroom_s_keys_are_found() {
    let text = format!(
        "bind g display-message a\nbind-key -n g x\nbind -r 'b' y\n\
         bind-key -T copy-mode g z\n{}",
        block(EXE, &[]).unwrap()
    );
    assert_eq!(
        user_bindings(&text, "g"),
        vec![(1, "bind g display-message a".to_owned())]
    );
    assert_eq!(
        user_bindings(&text, "b"),
        vec![(3, "bind -r 'b' y".to_owned())]
    );
    assert!(user_bindings(&text, "G").is_empty());
}

#[test]
fn uninstall_binds_back_what_was_recorded_else_what_the_file_binds() {
    let recorded = "bind-key -T prefix g display-message hi".to_owned();
    let block = block(EXE, &[recorded.clone(), unbound_record("b")]).unwrap();
    let text = format!("bind g display-message file\nbind G display-message file\n{block}");
    let found = remove(&text).unwrap();
    assert_eq!(
        bindings_to_restore(&found),
        [
            recorded,
            "bind G display-message file".to_owned(),
            unbound_record("b")
        ]
    );
    let multi = remove("bind G if -F 1 {\n display-message x\n}\n").unwrap();
    assert!(bindings_to_restore(&multi).is_empty());
}
