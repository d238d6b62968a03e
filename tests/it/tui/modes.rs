//! The dashboard's input modes, without a terminal: what a key means in
//! each mode (`input::key_action`), Esc in every mode, pastes as text
//! (never commands), and the one pane beside.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic: that is how they fail

use crate::support::key_in;
use greenroom::tui::action::UiEffect;

use chrono::{DateTime, TimeZone, Utc};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use greenroom::model::{Health, RowKey, Session};
use greenroom::tmux::Beside;
use greenroom::tui::action::{Action, Command, Effect};
use greenroom::tui::keymap::Keymap;
use greenroom::tui::model::state::{AppState, BesidePane, Mode, Overlay};
use greenroom::tui::reduce::dialog::{Dialog, SpawnField, SpawnForm};
use greenroom::tui::reduce::update::update;
use greenroom::tui::shell::input::{key_action, terminal_action};

pub(crate) fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).unwrap()
}

fn session(name: &str, health: Health) -> Session {
    crate::support::session::session(name)
        .health(health)
        .build()
}

pub(crate) fn loaded() -> AppState {
    let mut s = AppState::new(now(), vec![]);
    let rows = vec![
        session("alpha", Health::Idle),
        session("bravo", Health::Waiting),
        session("charlie", Health::Killed),
    ];
    update(
        &mut s,
        Action::Rows {
            rows,
            problems: vec![],
        },
    );
    s
}

fn cmd(s: &mut AppState, c: Command) -> Vec<Effect> {
    update(s, Action::Command(c))
}

fn esc(s: &mut AppState) -> Vec<Effect> {
    key_in(s, KeyCode::Esc)
}

fn shown(s: &AppState) -> usize {
    s.list.visible.len()
}

fn typed(s: &mut AppState, text: &str) {
    for c in text.chars() {
        key_in(s, KeyCode::Char(c));
    }
}

fn press(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

#[test]
fn what_a_key_means_depends_only_on_the_mode() {
    let km = Keymap::default();
    let x = press(KeyCode::Char('x'));
    let esc_key = press(KeyCode::Esc);
    assert_eq!(
        key_action(&x, &Mode::Normal, &km),
        Some(Action::Command(Command::Kill))
    );
    assert_eq!(key_action(&x, &Mode::Filter, &km), Some(Action::Type('x')));
    let send = Mode::Dialog(Dialog::Send {
        id: RowKey::here("id-alpha"),
        name: "alpha".into(),
        text: String::new(),
    });
    assert_eq!(key_action(&x, &send, &km), Some(Action::Type('x')));
    for (mode, own) in [
        (Mode::Normal, Command::ClearFilter),
        (Mode::Filter, Command::Cancel),
        (Mode::Overlay(Overlay::Help), Command::Close),
        (send.clone(), Command::Cancel),
    ] {
        assert_eq!(
            key_action(&esc_key, &mode, &km),
            Some(Action::Command(own)),
            "Esc is the mode's own key in {mode:?}"
        );
    }
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert_eq!(
        key_action(&ctrl_c, &send, &km),
        Some(Action::Command(Command::Quit))
    );
    // A paste is text in every mode, never a key.
    let paste = Event::Paste("xy".into());
    for mode in [Mode::Normal, send] {
        assert_eq!(
            terminal_action(paste.clone(), &mode, &km, None),
            vec![Action::Paste("xy".into())]
        );
    }
}

#[test]
fn esc_in_normal_mode_clears_a_kept_filter() {
    let mut s = loaded();
    cmd(&mut s, Command::Filter);
    typed(&mut s, "alp");
    key_in(&mut s, KeyCode::Enter);
    assert_eq!((s.mode.clone(), shown(&s)), (Mode::Normal, 1), "kept");
    cmd(&mut s, Command::CycleHealthFilter);
    esc(&mut s);
    assert_eq!(s.nav.filter, "");
    assert_eq!(s.nav.health_filter, None);
    assert_eq!(shown(&s), 3, "every row again");
    assert_eq!(s.mode, Mode::Normal);
    // With nothing to clear Esc does nothing.
    let before = s.clone();
    assert!(esc(&mut s).is_empty());
    assert_eq!(s, before);
}

#[test]
fn esc_while_typing_the_filter_clears_it_and_stops_typing() {
    let mut s = loaded();
    cmd(&mut s, Command::Filter);
    typed(&mut s, "bra");
    assert_eq!(shown(&s), 1);
    esc(&mut s);
    assert_eq!(s.mode, Mode::Normal);
    assert_eq!((s.nav.filter.as_str(), shown(&s)), ("", 3));
}

#[test]
fn esc_closes_help_and_problems_even_with_a_kept_filter() {
    let mut s = loaded();
    cmd(&mut s, Command::Filter);
    typed(&mut s, "alp");
    key_in(&mut s, KeyCode::Enter);
    for (open, overlay) in [
        (Command::Help, Overlay::Help),
        (Command::ShowProblems, Overlay::Problems),
    ] {
        cmd(&mut s, open);
        assert_eq!(s.mode, Mode::Overlay(overlay));
        esc(&mut s);
        assert_eq!(s.mode, Mode::Normal, "Esc closes {overlay:?}");
        assert_eq!(s.nav.filter, "alp", "the filter under it stays");
    }
    // The next Esc, with nothing open, clears the filter.
    esc(&mut s);
    assert_eq!(s.nav.filter, "");
}

#[test]
fn esc_cancels_every_dialog() {
    let mut s = loaded();
    cmd(&mut s, Command::Send);
    assert!(matches!(s.mode, Mode::Dialog(Dialog::Send { .. })));
    typed(&mut s, "hello");
    assert!(esc(&mut s).is_empty());
    assert_eq!(s.mode, Mode::Normal);
    cmd(&mut s, Command::Kill);
    assert!(matches!(s.mode, Mode::Dialog(Dialog::Confirm { .. })));
    assert!(esc(&mut s).is_empty());
    assert_eq!(s.mode, Mode::Normal);
    let form = SpawnForm::new("agent-1".into(), "/work".into(), vec!["claude".into()]);
    s.mode = Mode::Dialog(Dialog::Spawn(form));
    assert!(esc(&mut s).is_empty());
    assert_eq!(s.mode, Mode::Normal);
}

#[test]
fn a_paste_is_text_for_the_send_dialog_never_commands() {
    let mut s = loaded();
    cmd(&mut s, Command::Send);
    // What tmux's `paste-buffer -p` delivers: line breaks as CR.
    let effects = update(
        &mut s,
        Action::Paste("here is the plan\rxylophone practice\r".into()),
    );
    assert!(effects.is_empty(), "nothing is sent, killed or confirmed");
    assert!(
        matches!(s.dialog(), Some(Dialog::Send { text, .. }) if text == "here is the plan\nxylophone practice\n"),
        "{:?}",
        s.mode
    );
    let sent = key_in(&mut s, KeyCode::Enter);
    assert_eq!(
        sent,
        vec![crate::support::here(
            greenroom::tui::reduce::op::Verb::Send("here is the plan\nxylophone practice".into()),
            &["id-alpha"]
        )]
    );
}

#[test]
fn a_paste_with_no_input_focused_does_nothing() {
    let mut s = loaded();
    let before = s.clone();
    for mode in [Mode::Normal, Mode::Overlay(Overlay::Help)] {
        s.mode = mode.clone();
        let mut expected = before.clone();
        expected.mode = mode;
        assert!(update(&mut s, Action::Paste("xy\rq\r".into())).is_empty());
        assert_eq!(s, expected, "a paste is not keys");
    }
    // A confirmation takes nothing from a paste: `y` in it is no yes.
    s.mode = Mode::Normal;
    cmd(&mut s, Command::Kill);
    assert!(update(&mut s, Action::Paste("y".into())).is_empty());
    assert!(matches!(s.dialog(), Some(Dialog::Confirm { .. })));
}

#[test]
fn a_paste_into_a_one_line_input_is_one_line_and_clean() {
    let mut s = loaded();
    cmd(&mut s, Command::Filter);
    update(&mut s, Action::Paste("bra\r".into()));
    assert_eq!(s.nav.filter, "bra");
    assert_eq!(shown(&s), 1);
    key_in(&mut s, KeyCode::Esc);

    let form = SpawnForm::new(String::new(), "/work".into(), vec!["claude".into()]);
    s.mode = Mode::Dialog(Dialog::Spawn(form));
    update(&mut s, Action::Paste("fix\r\nthe\x1b[31m bug\r".into()));
    key_in(&mut s, KeyCode::Up); // prompt (wraps round)
    update(&mut s, Action::Paste("step one\rstep two\r".into()));
    let Some(Dialog::Spawn(f)) = s.dialog() else {
        panic!("{:?}", s.mode)
    };
    assert_eq!(f.name, "fix the[31m bug", "one line, no escape character");
    assert_eq!(f.focus, SpawnField::Prompt);
    assert_eq!(
        f.prompt, "step one\nstep two\n",
        "the prompt keeps its lines"
    );
}

fn pane(n: u8) -> Beside {
    Beside {
        pane_id: format!("%{n}"),
        tty: format!("/dev/pts/{n}"),
    }
}

#[test]
fn one_pane_beside_at_most_and_o_again_closes_it() {
    let mut s = loaded();
    assert_eq!(
        cmd(&mut s, Command::OpenBeside),
        vec![crate::support::here(
            greenroom::tui::reduce::op::Verb::OpenBeside,
            &["id-alpha"]
        )]
    );
    assert!(
        cmd(&mut s, Command::OpenBeside).is_empty(),
        "a second o while it opens opens nothing more"
    );
    update(&mut s, Action::BesideOpened(Ok(pane(3))));
    assert_eq!(s.link.beside, BesidePane::Open(pane(3)));
    assert_eq!(
        cmd(&mut s, Command::OpenBeside),
        vec![Effect::Ui(UiEffect::CloseBeside { pane: pane(3) })]
    );
    assert_eq!(s.link.beside, BesidePane::Closed);
    // A failed open says why and leaves it closed.
    cmd(&mut s, Command::OpenBeside);
    update(&mut s, Action::BesideOpened(Err("no tmux".into())));
    assert_eq!(s.link.beside, BesidePane::Closed);
    assert_eq!(s.status.as_ref().unwrap().text, "no tmux");
}

#[test]
fn quitting_closes_the_pane_beside_first() {
    let mut s = loaded();
    assert_eq!(cmd(&mut s, Command::Quit), vec![Effect::Ui(UiEffect::Quit)]);
    cmd(&mut s, Command::OpenBeside);
    update(&mut s, Action::BesideOpened(Ok(pane(4))));
    assert_eq!(
        cmd(&mut s, Command::Quit),
        vec![
            Effect::Ui(UiEffect::CloseBeside { pane: pane(4) }),
            Effect::Ui(UiEffect::Quit)
        ]
    );
    // A signal ends the dashboard whatever the mode, closing it too.
    let mut s = loaded();
    cmd(&mut s, Command::OpenBeside);
    update(&mut s, Action::BesideOpened(Ok(pane(5))));
    cmd(&mut s, Command::Help);
    assert_eq!(
        update(&mut s, Action::Shutdown),
        vec![
            Effect::Ui(UiEffect::CloseBeside { pane: pane(5) }),
            Effect::Ui(UiEffect::Quit)
        ]
    );
}

#[test]
fn ctrl_c_quits_from_the_filter_and_dialogs_but_q_is_text_there() {
    let mut s = loaded();
    cmd(&mut s, Command::Filter);
    assert!(key_in(&mut s, KeyCode::Char('q')).is_empty());
    assert_eq!(s.nav.filter, "q", "q is text while typing");
    assert_eq!(
        cmd(&mut s, Command::Quit),
        vec![Effect::Ui(UiEffect::Quit)],
        "Ctrl-C"
    );
    let mut s = loaded();
    cmd(&mut s, Command::Send);
    assert!(key_in(&mut s, KeyCode::Char('q')).is_empty());
    assert!(matches!(s.dialog(), Some(Dialog::Send { text, .. }) if text == "q"));
    assert_eq!(
        cmd(&mut s, Command::Quit),
        vec![Effect::Ui(UiEffect::Quit)],
        "Ctrl-C"
    );
}

/// A message that arrives while the operator types the filter (a host over
/// its row cap, say) must not hide what they type for its seconds on
/// screen: the bottom line stays the filter's.
#[test]
fn a_message_does_not_hide_the_filter_being_typed() {
    let mut s = loaded();
    cmd(&mut s, Command::Filter);
    typed(&mut s, "alp");
    s.say("huge has more than 5000 sessions: only 5000 are shown");
    let screen = crate::tui::snapshots::screen(&crate::tui::snapshots::draw(&s, 100, 30));
    let bottom = screen.lines().last().unwrap_or("").to_owned();
    assert!(bottom.contains("/alp"), "{bottom}");
    // Typing done, the message shows.
    key_in(&mut s, KeyCode::Enter);
    let screen = crate::tui::snapshots::screen(&crate::tui::snapshots::draw(&s, 100, 30));
    assert!(screen.contains("only 5000 are shown"), "{screen}");
}

/// `C-w` takes back a word and `C-u` the line, as in a shell, in every
/// input: the filter, a message, the new-session form. In the list they
/// keep their own meaning (`C-u` pages up).
#[test]
fn inputs_take_back_a_word_with_ctrl_w_and_the_line_with_ctrl_u() {
    use greenroom::tui::action::Erase;
    let km = Keymap::default();
    let ctrl = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
    let alt_bs = KeyEvent::new(KeyCode::Backspace, KeyModifiers::ALT);
    assert_eq!(
        key_action(&ctrl('u'), &Mode::Normal, &km),
        Some(Action::Command(Command::PageUp))
    );
    let mut s = loaded();
    cmd(&mut s, Command::Filter);
    typed(&mut s, "fix the  tests  ");
    for (key, left) in [(ctrl('w'), "fix the  "), (ctrl('w'), "fix "), (alt_bs, "")] {
        let action = key_action(&key, &s.mode, &km).unwrap();
        update(&mut s, action);
        assert_eq!(s.nav.filter, left);
    }
    typed(&mut s, "alp");
    assert_eq!(
        key_action(&ctrl('u'), &s.mode, &km),
        Some(Action::Erase(Erase::Line))
    );
    update(&mut s, Action::Erase(Erase::Line));
    assert_eq!(s.nav.filter, "");

    let mut send = Mode::Dialog(Dialog::Send {
        id: RowKey::here("id-alpha"),
        name: "alpha".into(),
        text: "run the tests".into(),
    });
    std::mem::swap(&mut s.mode, &mut send);
    let action = key_action(&ctrl('w'), &s.mode, &km).unwrap();
    update(&mut s, action);
    assert!(
        matches!(&s.mode, Mode::Dialog(Dialog::Send { text, .. }) if text == "run the "),
        "{:?}",
        s.mode
    );
}
