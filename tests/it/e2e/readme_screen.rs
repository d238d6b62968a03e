//! The README's picture of the dashboard is the demo's real screen: the
//! built binary's `greenroom demo` in a real tmux pane of a fixed size,
//! read back with `capture-pane`, what varies from run to run made stable
//! ([`normalise`]), compared with the block between `<!-- screen -->` and
//! `<!-- /screen -->` in README.md.
//!
//! After a change to what the dashboard shows, regenerate the block with
//! one command (it rewrites README.md in place; review the diff):
//!
//! ```sh
//! GREENROOM_UPDATE_README=1 cargo test --test it readme_screen
//! ```

use std::path::Path;

use super::demo::{DemoRun, header, one_demo, selected_line};
use crate::support::wait_for;

const README: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
/// The pane's size: wide enough for the detail pane's lines, as short as
/// the picture allows.
const SIZE: (&str, &str) = ("120", "30");
const OPEN: &str = "<!-- screen -->\n";
const CLOSE: &str = "<!-- /screen -->\n";
const INTRO: &str =
    "`greenroom demo`, read back with `tmux capture-pane` (blank rows trimmed):\n\n";
/// The demo's folder as the picture names it.
const SHOWN_ROOT: &str = "/tmp/greenroom-demo-4242";

/// The moment the picture shows: every health the demo promises, and the
/// agents that work all the time at work. The first row (the waiting
/// agent, pinned on top) is selected.
fn the_moment(screen: &str) -> bool {
    every_health(screen)
        && screen.contains("changes   1 file")
        && screen.contains("● data-6")
        && screen.contains("▷ mobile-7")
        && selected_line(screen).contains("web-2")
}

/// The header counts errored, waiting, stuck, ready and active sessions
/// (by their glyphs: a narrow header leaves the words out).
fn every_health(screen: &str) -> bool {
    let h = header(screen);
    ['✖', '◆', '⧗', '▷', '●'].iter().all(|g| h.contains(*g))
}

#[test]
fn the_readme_s_screen_is_the_demo_s() {
    let _one = one_demo();
    let update = std::env::var_os("GREENROOM_UPDATE_README").is_some();
    let readme = std::fs::read_to_string(README).unwrap();
    let (before, shown, after) = split_readme(&readme);
    let demo = DemoRun::start_with(true, SIZE, |_| {});
    demo.until(30, "every health state the demo promises", every_health);
    demo.keys(&["g"]);
    let root = demo.root.clone();
    let picture = if update {
        // Twice the same, so not a frame caught half drawn.
        let mut last = String::new();
        let picture = wait_for(60, "the moment the picture shows", || {
            let screen = demo.screen();
            let now = normalise(&screen, &root);
            let steady = the_moment(&screen) && now == last;
            last = now;
            steady.then(|| last.clone())
        });
        std::fs::write(README, format!("{before}{picture}{after}")).unwrap();
        picture
    } else {
        // Polled: the agents that keep working pass through the moment
        // the picture shows.
        // The closest screen seen is the one shown when none matches.
        let mut last = String::new();
        let mut closest = usize::MAX;
        let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            wait_for(60, "the demo's screen to be the README's", || {
                let now = normalise(&demo.screen(), &root);
                let differ = now
                    .lines()
                    .zip(shown.lines())
                    .filter(|(a, b)| a != b)
                    .count()
                    + now.lines().count().abs_diff(shown.lines().count());
                if differ < closest {
                    (closest, last) = (differ, now.clone());
                }
                (now == shown).then_some(())
            })
        }));
        if found.is_err() {
            panic!(
                "README.md's screen block is out of date; \
                 `GREENROOM_UPDATE_README=1 cargo test --test it readme_screen` rewrites it.\n\
                 README:\n{shown}\nthe closest screen of the demo:\n{last}"
            );
        }
        last
    };
    assert!(picture.contains("web-2"), "{picture}");
    demo.keys(&["q"]);
    demo.until(20, "the demo to exit", |s| s.contains("[demo exited: "));
}

/// README.md around its screen block: what comes before the block's text,
/// the text, and what comes after.
fn split_readme(readme: &str) -> (String, String, String) {
    let open = readme.find(OPEN).expect("README has <!-- screen -->");
    let close = readme.find(CLOSE).expect("README has <!-- /screen -->");
    let head = format!("{}{OPEN}{INTRO}```text\n", &readme[..open]);
    let shown = readme[open + OPEN.len()..close]
        .strip_prefix(&format!("{INTRO}```text\n"))
        .and_then(|b| b.strip_suffix("```\n"))
        .expect("the screen block is the intro and one ```text block")
        .to_owned();
    (head, shown, format!("```\n{}", &readme[close..]))
}

/// The screen with what differs between runs made stable: the demo's
/// folder, ids, ages, costs, rates and the sidebar's changed-file counts; the tmux version's note; blank rows and
/// trailing spaces dropped. Each replacement gives the width it changes
/// back to the next gap after it, so the boxes stay closed.
fn normalise(screen: &str, root: &Path) -> String {
    let root = root.to_string_lossy();
    let mut out = String::new();
    for line in screen.lines() {
        let mut chars: Vec<char> = tmux_note(line).chars().collect();
        replace_text(&mut chars, &root, SHOWN_ROOT);
        replace_uuids(&mut chars);
        replace_numbers(&mut chars);
        let line: String = chars.into_iter().collect();
        let line = line.trim_end();
        if !line.chars().all(|c| c == ' ' || c == '│') {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Replaces `line[start..end]` with `with`; the difference in width is
/// given to (or taken from) the next run of two or more spaces after it,
/// else put before it.
fn splice(line: &mut Vec<char>, start: usize, end: usize, with: &str) {
    let with: Vec<char> = with.chars().collect();
    let gap = (end..line.len().saturating_sub(1)).find(|&i| line[i] == ' ' && line[i + 1] == ' ');
    let (old, new) = (end - start, with.len());
    if let Some(gap) = gap {
        if new < old {
            line.splice(gap..gap, std::iter::repeat_n(' ', old - new));
        } else {
            let run = (gap..line.len()).take_while(|&i| line[i] == ' ').count();
            let cut = (new - old).min(run - 1);
            line.drain(gap..gap + cut);
        }
    }
    line.splice(start..end, with);
    if gap.is_none() && new < old {
        // Nothing to give it to after: right-aligned, as a column is.
        line.splice(start..start, std::iter::repeat_n(' ', old - new));
    }
}

fn replace_text(line: &mut Vec<char>, from: &str, to: &str) {
    let from: Vec<char> = from.chars().collect();
    let mut i = 0;
    while !from.is_empty() && i + from.len() <= line.len() {
        if line[i..i + from.len()] == from[..] {
            splice(line, i, i + from.len(), to);
            i += to.chars().count();
        } else {
            i += 1;
        }
    }
}

/// Agent ids (uuids) are new on every run.
fn replace_uuids(line: &mut Vec<char>) {
    const SHOWN: &str = "5f0c2a8e-3b1d-4c6e-9a7f-2d4b6e8a0c1e";
    let is_uuid = |w: &[char]| {
        w.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == '-',
            _ => c.is_ascii_hexdigit(),
        })
    };
    for i in 0..line.len().saturating_sub(35) {
        if is_uuid(&line[i..i + 36]) {
            splice(line, i, i + 36, SHOWN);
        }
    }
}

/// Ages (`13s`, right-aligned in the sidebar: the spaces before belong to
/// it), costs (`$0.75`), rates (`59k tokens/min`) and changed-file counts
/// (`~3`), each made one text.
fn replace_numbers(line: &mut Vec<char>) {
    let mut i = 0;
    while i < line.len() {
        let prev = i.checked_sub(1).map(|p| line[p]);
        let number_at = |j: usize| {
            (j..line.len())
                .find(|&k| !(line[k].is_ascii_digit() || line[k] == '.'))
                .unwrap_or(line.len())
        };
        if (line[i] == '$' || line[i] == '~') && line.get(i + 1).is_some_and(char::is_ascii_digit) {
            let end = number_at(i + 1);
            // Whether an agent that keeps working has changed files yet
            // (`~3`) depends on the moment: the column is left blank.
            let shown = if line[i] == '$' { "$1.00" } else { "  " };
            splice(line, i, end, shown);
            i += shown.len();
            continue;
        }
        let word_start = !prev.is_some_and(|p| p.is_alphanumeric() || p == '.');
        if !(line[i].is_ascii_digit() && word_start) {
            i += 1;
            continue;
        }
        let end = number_at(i);
        let after: String = line[end..].iter().take(14).collect();
        if after.starts_with("k tokens/min") || after.starts_with(" tokens/min") {
            let unit = usize::from(line[end] == 'k');
            splice(line, i, end + unit, "9k");
            i += 2;
        } else if let Some(unit) = after.chars().next().filter(|u| "smhd".contains(*u))
            && !after.chars().nth(1).is_some_and(char::is_alphanumeric)
        {
            // Right-aligned: the spaces before it are its column's.
            let mut from = i;
            while from > 0 && line[from - 1] == ' ' {
                from -= 1;
            }
            if from == 0 || line[from - 1] == '│' || from == i {
                from = i;
            } else {
                from = i - 1;
                while from > 0 && line[from - 1] == ' ' {
                    from -= 1;
                }
            }
            // In the sidebar's column (then `•` or the box's edge), the
            // age is right-aligned in its width; in text, it is one word.
            let next: String = line[end + 1..].iter().take(3).collect();
            let column = next.starts_with(" •") || next.trim_start().starts_with('│');
            let shown = match (column, from < i) {
                (true, _) => format!("{:>w$}", format!("5{unit}"), w = end + 1 - from),
                (false, true) => format!(" 5{unit}"),
                (false, false) => format!("5{unit}"),
            };
            splice(line, from, end + 1, &shown);
            i = from + shown.chars().count();
        } else {
            i = end;
        }
    }
}

/// The header's note that this tmux is polled depends on the machine's tmux.
fn tmux_note(line: &str) -> String {
    match line.find("  tmux ").filter(|_| line.contains(": polling")) {
        Some(at) => {
            let end = line[at..]
                .find(": polling")
                .map_or(line.len(), |e| at + e + 9);
            format!("{}{}", &line[..at], &line[end..])
        }
        None => line.to_owned(),
    }
}

#[test]
fn normalising_keeps_the_columns() {
    let root = Path::new("/tmp/x/greenroom-demo-test-1-0");
    let line = "│ cwd  /tmp/x/greenroom-demo-test-1-0/work/api-1       │";
    assert_eq!(
        normalise(line, root),
        "│ cwd  /tmp/greenroom-demo-4242/work/api-1             │\n"
    );
    // Whatever the ages, costs and counts, the same line.
    let a = normalise(
        "│ ● ml-8 demo ~3 $0.05 13s  │ │ ○ data-6 demo $0.18  0s •│",
        root,
    );
    let b = normalise(
        "│ ● ml-8 demo ~1 $0.95  9s  │ │ ○ data-6 demo $0.20 11s •│",
        root,
    );
    assert_eq!(a, b);
    assert_eq!(
        a,
        "│ ● ml-8 demo    $1.00  5s  │ │ ○ data-6 demo $1.00  5s •│\n"
    );
    let a = normalise(
        "greenroom  oldest 17s ✖1      sort  tmux 3.3a: polling",
        root,
    );
    let b = normalise("greenroom  oldest 9s ✖1       sort", root);
    assert_eq!(a, b);
    let a = normalise(
        "││           59k tokens/min over the last 5 minutes   │",
        root,
    );
    let b = normalise(
        "││           102k tokens/min over the last 5 minutes  │",
        root,
    );
    assert_eq!(a, b);
    assert!(
        a.starts_with("││           9k tokens/min over the last 5 minutes"),
        "{a}"
    );
}
