//! The demo's agents work in small git repositories of their own, one in a
//! worktree as `greenroom spawn --worktree` makes it, so the Changes tab,
//! `c` review and the worktree offer on dismiss work on them; the demo's
//! commits never read the operator's git config.

use std::path::Path;
use std::process::Command;

use super::demo::{DemoRun, one_demo, selected_line};
use crate::support::wait_for;

/// git as the test reads the demo's repositories (none of the machine's config).
fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// An operator's git config that would show in the demo's commits, or
/// make them fail (signing with a program that fails), were it read.
const OPERATORS_GITCONFIG: &str = "[user]\n\tname = The Operator\n\temail = op@example.com\n\
[init]\n\tdefaultBranch = trunk\n[commit]\n\tgpgSign = true\n[gpg]\n\tprogram = false\n";

#[test]
fn the_demo_s_agents_commit_and_change_files_in_repositories_of_their_own() {
    let _one = one_demo();
    let demo = DemoRun::start_with(true, ("160", "48"), |home| {
        std::fs::write(home.join(".gitconfig"), OPERATORS_GITCONFIG).unwrap();
    });
    demo.until(30, "the demo's agents", |s| s.contains("ml-8"));
    let work = demo.root.join("work");
    for name in [
        "api-1", "web-2", "docs-3", "infra-4", "tests-5", "data-6", "mobile-7", "ml-8",
    ] {
        let first = git(
            &work.join(name),
            &["log", "--reverse", "--format=%an <%ae> %s", "main"],
        );
        assert_eq!(
            first.lines().next(),
            Some("greenroom demo <demo@greenroom.invalid> Initial commit"),
            "{name}: {first}"
        );
    }
    // web-2 runs in a worktree beside its repository, on its own branch,
    // where spawn --worktree puts one.
    let worktree = work.join("web-2-fix-safari-postcode");
    assert_eq!(
        git(&worktree, &["rev-parse", "--abbrev-ref", "HEAD"]).trim(),
        "fix/safari-postcode"
    );

    // Its real uncommitted change: `c` lists the file, Enter shows git's diff.
    demo.keys(&["/", "w", "e", "b", "-", "2", "Enter"]);
    demo.until(10, "web-2 selected", |s| selected_line(s).contains("web-2"));
    wait_for(30, "web-2's change on disk", || {
        git(&worktree, &["status", "--porcelain"])
            .contains(" M src/checkout/validate.ts")
            .then_some(())
    });
    // The review's own keys in the last line say `c` opened it.
    let footer = |s: &str| s.trim_end().lines().last().unwrap_or("").to_owned();
    // `c` before the dashboard has read the change opens no review (or one
    // without the file): it is pressed again, each press given 3 s to show
    // (a press every poll would pile up behind a busy dashboard), and a
    // review without the file is closed first.
    let mut pressed: Option<std::time::Instant> = None;
    wait_for(60, "web-2's changed file, in review", || {
        let s = demo.screen();
        let listed = s.contains(" M  src/checkout/validate.ts");
        let reviewing = footer(&s).contains("Enter diff");
        if listed && reviewing {
            return Some(());
        }
        if pressed.is_none_or(|at| at.elapsed() > std::time::Duration::from_secs(3)) {
            if reviewing {
                demo.keys(&["q"]);
                demo.until(10, "the review closed", |s| {
                    !footer(s).contains("Enter diff")
                });
            }
            demo.keys(&["c"]);
            pressed = Some(std::time::Instant::now());
        }
        None
    });
    demo.keys(&["Enter"]);
    demo.until(10, "its diff", |s| {
        s.contains("diff --git a/src/checkout/validate.ts")
            && s.contains("+const norm = (s: string)")
            && s.contains("-const UK_POSTCODE")
    });
    demo.keys(&["q"]);
    demo.until(10, "the list of changed files", |s| {
        !s.contains("+const norm") && s.contains("Enter shows the diff")
    });
    demo.keys(&["q"]);
    demo.until(10, "the review closed", |s| footer(s).contains("x kill"));

    // A real commit as an agent works: docs-3's when its orchestration completes.
    wait_for(60, "docs-3's commit", || {
        git(&work.join("docs-3"), &["log", "--format=%an %s"])
            .contains("greenroom demo Document the pagination parameters of the /v2 API")
            .then_some(())
    });

    // Dismissing the killed web-2 offers to remove its worktree, and names
    // the uncommitted change before it goes.
    demo.keys(&["x"]);
    demo.until(10, "the kill dialog", |s| s.contains("Kill web-2?"));
    demo.keys(&["y"]);
    // Killed by its own word and by the row (the next poll): dismiss
    // refuses a row the list still shows running.
    demo.until(10, "web-2 killed", |s| {
        s.contains("killed web-2") && s.contains("× web-2")
    });
    demo.keys(&["D"]);
    demo.until(10, "the worktree offer", |s| {
        s.contains("greenroom made its worktree")
    });
    demo.keys(&["w"]);
    demo.until(10, "the second question, with the file", |s| {
        s.contains("changed src/checkout/validate.ts")
    });
    demo.keys(&["w"]);
    wait_for(20, "the worktree to go", || {
        (!worktree.exists()).then_some(())
    });
    demo.keys(&["q"]);
    demo.until(20, "the demo to exit", |s| s.contains("[demo exited: "));
}
