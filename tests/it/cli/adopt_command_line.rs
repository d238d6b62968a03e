//! An agent run by a shell's command line, as a pane's own program
//! (`tmux new-session "claude 'prompt'; exec sh"`): the shell keeps the
//! terminal while the agent works, so tmux names the shell; the agent's
//! hooked row stays all the same. A prompt shell back in front still ends
//! it (`an_agent_that_exits_without_its_hook_ends_its_row_at_the_shell`).

use super::adopt::{Setup, fake_agent, fixture};
use crate::support::wait_for;

#[test]
fn an_agent_run_by_a_shells_command_line_keeps_its_hooked_row() {
    let s = Setup::new();
    let claude = fake_agent(s.world.dir.path(), "claude");
    // The hook reports from inside the pane, naming it as tmux does.
    let (report, done) = s.report_line(Some("$TMUX_PANE"), &fixture("SessionStart__startup"));
    let report = report.replace("TMUX_PANE='$TMUX_PANE'", "TMUX_PANE=\"$TMUX_PANE\"");
    let line = format!("({report}) & {claude} 600; exec sh");
    let pane = s.window(&["sh", "-c", &line]);
    s.report_done(&done);
    let shown = s.tmux.run(&[
        "display-message",
        "-p",
        "-t",
        &pane,
        "#{pane_current_command}",
    ]);
    assert_eq!(shown.trim(), "sh", "tmux names the shell");
    let r = wait_for(10, "the hooked row", || {
        s.row(&pane).filter(|r| r["adopted"]["hooks"] == true)
    });
    assert_eq!(r["activity"]["state"], "idle", "{r:#}");
}
