//! The key table holds itself together: one name per command, a key for
//! every command, one row per (layer, command) and per (layer, key), and
//! defaults that always build (so `Keymap::default` never falls back).

use std::collections::{BTreeMap, HashMap, HashSet};

use super::{BINDINGS, Key, Keymap, Layer};
use crate::tui::action::Command;

/// Commands the table deliberately gives no key (none today).
const KEYLESS: &[Command] = &[];

/// Every command. `listed` below matches each variant, so a new one stops
/// this test compiling until it is added here (and to the table).
const ALL: &[Command] = &[
    Command::Up,
    Command::Down,
    Command::Top,
    Command::Bottom,
    Command::PageUp,
    Command::PageDown,
    Command::Attach,
    Command::New,
    Command::Kill,
    Command::Restore,
    Command::Dismiss,
    Command::Send,
    Command::OpenBeside,
    Command::Mark,
    Command::TogglePreview,
    Command::ToggleTriage,
    Command::ToggleSpendSort,
    Command::Filter,
    Command::CycleHealthFilter,
    Command::ToggleArchived,
    Command::NextTab,
    Command::ShowProblems,
    Command::Help,
    Command::Quit,
    Command::ClearFilter,
    Command::Keep,
    Command::Cancel,
    Command::Yes,
    Command::Submit,
    Command::NextField,
    Command::PrevField,
    Command::NextChoice,
    Command::PrevChoice,
    Command::Complete,
    Command::Close,
    Command::NextPage,
    Command::RemoveWorktree,
    Command::Review,
    Command::Comment,
    Command::NextInQueue,
    Command::PrevInQueue,
    Command::JumpBack,
    Command::Snooze,
    Command::Allow,
    Command::Deny,
    Command::Choice(1),
    Command::Choice(2),
    Command::Choice(3),
    Command::Choice(4),
    Command::Choice(5),
    Command::Choice(6),
    Command::Choice(7),
    Command::Choice(8),
    Command::Choice(9),
];

/// Exhaustive on purpose: no `_` arm.
fn listed(c: Command) -> bool {
    match c {
        Command::Up
        | Command::Down
        | Command::Top
        | Command::Bottom
        | Command::PageUp
        | Command::PageDown
        | Command::Attach
        | Command::New
        | Command::Kill
        | Command::Restore
        | Command::Dismiss
        | Command::Send
        | Command::OpenBeside
        | Command::Mark
        | Command::TogglePreview
        | Command::ToggleTriage
        | Command::ToggleSpendSort
        | Command::Filter
        | Command::CycleHealthFilter
        | Command::ToggleArchived
        | Command::NextTab
        | Command::ShowProblems
        | Command::Help
        | Command::Quit
        | Command::ClearFilter
        | Command::Keep
        | Command::Cancel
        | Command::Yes
        | Command::Submit
        | Command::NextField
        | Command::PrevField
        | Command::NextChoice
        | Command::PrevChoice
        | Command::Complete
        | Command::Close
        | Command::NextPage
        | Command::RemoveWorktree
        | Command::Review
        | Command::Comment
        | Command::NextInQueue
        | Command::PrevInQueue
        | Command::JumpBack
        | Command::Snooze
        | Command::Allow
        | Command::Deny
        | Command::Choice(_) => ALL.contains(&c),
    }
}

#[test]
fn every_command_has_exactly_one_name_and_a_key() {
    let mut owner: HashMap<&str, Command> = HashMap::new();
    for &c in ALL {
        assert!(listed(c));
        let rows: Vec<_> = BINDINGS.iter().filter(|b| b.command == c).collect();
        let names: HashSet<&str> = rows.iter().map(|b| b.name).collect();
        assert_eq!(names.len(), 1, "{c:?} has the names {names:?}");
        assert_eq!(Some(&c.name()), names.iter().next(), "{c:?}");
        let name = c.name();
        assert!(
            !name.is_empty()
                && name
                    .chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_'),
            "{c:?}'s name {name:?} is not a [keys] name"
        );
        if let Some(other) = owner.insert(name, c) {
            panic!("{other:?} and {c:?} share the name {name:?}");
        }
        let keyed = rows.iter().any(|b| !b.defaults.is_empty());
        assert!(
            keyed != KEYLESS.contains(&c),
            "{c:?}: a key, or listed as deliberately keyless, not both"
        );
    }
    for b in BINDINGS {
        assert!(
            ALL.contains(&b.command),
            "{:?} is missing from ALL",
            b.command
        );
    }
}

#[test]
fn one_row_per_binding_and_no_key_claimed_twice_in_a_layer() {
    let mut commands = HashSet::new();
    let mut keys = HashSet::new();
    for b in BINDINGS {
        assert!(
            commands.insert((b.layer, b.command)),
            "{:?} has two rows in {:?}",
            b.command,
            b.layer
        );
        assert!(
            !b.description.is_empty(),
            "{:?} is not described",
            b.command
        );
        for k in b.defaults {
            let key = Key::parse(k).unwrap();
            assert!(
                keys.insert((b.layer, key)),
                "{k} is claimed twice in {:?}",
                b.layer
            );
        }
    }
}

#[test]
fn the_default_table_builds_so_the_fallback_never_runs() {
    let km = Keymap::new(&BTreeMap::new()).unwrap();
    for b in BINDINGS {
        assert_eq!(km.keys_in(b.layer, b.command).len(), b.defaults.len());
    }
    // Only the list's names are `[keys]` names a config may set.
    let mut over = BTreeMap::new();
    over.insert(Command::Keep.name().to_owned(), vec!["k".to_owned()]);
    assert!(Keymap::new(&over).unwrap_err().contains("\"keep\""));
    assert_eq!(
        Keymap::default().lookup_in(Layer::Confirm, Key::parse("ctrl-c").unwrap()),
        Some(Command::Quit),
        "the keys every mode shares"
    );
}
