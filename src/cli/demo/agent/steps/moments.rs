//! The two longer moments of the demo: asking the operator's permission
//! (the agent really waits for the answer), and a training run.

use super::{B, CYN, D, GRN, Played, Player, R, RED, Stop, YEL};
use crate::cli::demo::agent::Step;

impl Player<'_> {
    pub(super) fn permission(&mut self, command: &str, why: &str, ran: &'static [Step]) -> Played {
        self.line(&format!("{YEL}⏺{R} {B}Bash{R}({command})"));
        let edge = |text: String| format!("{YEL}│{R} {text}{YEL}│{R}");
        self.line(&format!("{YEL}╭{}╮{R}", "─".repeat(62)));
        self.line(&edge(format!("{B}Bash command{R}{}", " ".repeat(49))));
        self.line(&edge(format!("  {command:<59}")));
        self.line(&edge(format!("  {D}{why:<59}{R}")));
        self.line(&edge(format!("Do you want to proceed?{}", " ".repeat(38))));
        self.line(&edge(format!("{B}❯ 1. Yes{R}{}", " ".repeat(53))));
        self.line(&edge(format!(
            "  2. No, and tell Claude what to do differently{}",
            " ".repeat(14)
        )));
        self.line(&format!("{YEL}╰{}╯{R}", "─".repeat(62)));
        let name = self.session_name();
        self.hint(&[
            "This agent waits for you. In its pane Enter or 1 allows, Esc or 2 denies;",
            &format!("from greenroom, select {name}, press s and send 1 (yes) or 2 (no)."),
        ]);
        let (sid, transcript, cwd, env) = (
            self.sid.clone(),
            self.transcript.clone(),
            self.setup.cwd.clone(),
            self.setup.env,
        );
        let mut asked = || {
            super::report_hook(
                env,
                &sid,
                &cwd,
                &transcript,
                "Notification",
                &[
                    ("message", "Claude needs your permission to use Bash"),
                    ("notification_type", "permission_prompt"),
                ],
            );
        };
        if self.operator.permission(&mut asked).ok_or(Stop::Gone)? {
            self.hook("PostToolUse", &[("tool_name", "Bash")]);
            self.steps(ran)
        } else {
            self.hook(
                "PostToolUseFailure",
                &[
                    ("tool_name", "Bash"),
                    (
                        "error",
                        "The user doesn't want to proceed with this tool use.",
                    ),
                ],
            );
            self.line(&format!(
                "{B}⏺{R} Understood, I won't run that. Continuing with the unit tests only."
            ));
            Ok(())
        }
    }

    /// The demo names its sessions `<role>-<n>`; the hint says which.
    fn session_name(&self) -> String {
        let n = crate::cli::demo::agents::AGENTS
            .iter()
            .find(|a| a.role == self.role.name)
            .map_or(self.role.name, |a| a.name);
        n.to_owned()
    }

    pub(super) fn train(&mut self) {
        let (run, lr) = (self.run, self.lr);
        self.tool(
            "Bash",
            &format!("python train.py --config configs/small.yaml --lr {lr}e-4"),
        );
        self.line(&format!(
            "  {D}⎿{R}  run {run} · 12 epochs · 48,220 training pairs · cuda:0"
        ));
        let (mut loss, mut acc) = (9400u64, 552u64);
        for epoch in 1..=12u64 {
            loss = loss * 86 / 100 + self.between(0, 239);
            acc = (acc + 28 - epoch + self.between(0, 29) / 3).min(941);
            self.line(&format!(
                "     epoch {epoch:2}/12  loss {B}0.{loss:04}{R}  val_loss 0.{:04}  ndcg@10 {CYN}0.{acc:03}{R}",
                loss + 310
            ));
            if epoch % 4 == 0 {
                self.think();
                self.hook("PostToolUse", &[("tool_name", "Bash")]);
            }
            self.pause(1200);
        }
        self.more(&format!("saved checkpoints/run-{run}/best.pt"));
        self.tool("Update", "configs/small.yaml");
        self.line(&format!(
            "  {D}⎿{R}  Updated configs/small.yaml with 2 additions and 2 removals"
        ));
        self.line(&format!("     {RED}   9 -  lr: {lr}e-4{R}"));
        self.lr = lr * 2 / 3 + 1;
        self.line(&format!("     {GRN}   9 +  lr: {}e-4{R}", self.lr));
        self.line(&format!("     {GRN}  10 +  schedule: cosine{R}"));
        self.write_ml_config(self.lr);
        self.run += 1;
        self.hook("PostToolUse", &[("tool_name", "Update")]);
    }
}
