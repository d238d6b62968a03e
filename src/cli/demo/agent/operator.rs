//! The operator at the agent's pane: the lines they send and their answer
//! to a permission question. Tests play a scripted operator instead.

use std::io::BufRead;
use std::time::Duration;

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind};
use crossterm::terminal;

/// Who answers the agent.
pub trait Operator {
    /// The next line the operator sends; `None` when they are gone.
    fn line(&mut self) -> Option<String>;
    /// Allowed (`true`) or denied; `None` when they are gone. `asked` runs
    /// once the answer can be taken (it reports the agent waiting), so an
    /// operator who answers as soon as they see that is never missed.
    fn permission(&mut self, asked: &mut dyn FnMut()) -> Option<bool>;
}

/// The pane's terminal: lines in cooked mode (the terminal echoes them),
/// a permission answer as one key in raw mode, like a real agent's menu.
pub struct Terminal;

impl Operator for Terminal {
    fn line(&mut self) -> Option<String> {
        let mut line = String::new();
        match std::io::stdin().lock().read_line(&mut line) {
            // No more input (the pane's input closed): an agent waits for
            // ever rather than ending its session.
            Ok(0) | Err(_) => loop {
                std::thread::sleep(Duration::from_secs(3600));
            },
            Ok(_) => Some(line.trim_end_matches(['\r', '\n']).to_owned()),
        }
    }

    fn permission(&mut self, asked: &mut dyn FnMut()) -> Option<bool> {
        if terminal::enable_raw_mode().is_err() {
            // Not a terminal: a line answers, `2`/`n` denying.
            asked();
            let line = self.line()?;
            return Some(!denies(&line));
        }
        // Keys typed before the question was asked do not answer it.
        while event::poll(Duration::ZERO).unwrap_or(false) {
            let _ = event::read();
        }
        asked();
        let answer = loop {
            match event::read() {
                Ok(Event::Key(key)) if key.kind != KeyEventKind::Release => {
                    if let Some(answer) = answer_key(&key) {
                        break Some(answer);
                    }
                }
                Ok(_) => {}
                Err(_) => break None,
            }
        };
        // A digit sent as a line (greenroom's `s` sends "1" and Enter)
        // leaves its Enter behind: it must not answer the next question.
        if event::poll(Duration::from_millis(300)).unwrap_or(false)
            && let Ok(Event::Key(key)) = event::read()
            && key.code != KeyCode::Enter
        {
            tracing::debug!(?key, "key after the answer dropped");
        }
        let _ = terminal::disable_raw_mode();
        answer
    }
}

/// Enter, `1` or `y` allow; Esc, `2` or `n` deny; other keys are not an answer.
pub fn answer_key(key: &KeyEvent) -> Option<bool> {
    match key.code {
        KeyCode::Enter | KeyCode::Char('1' | 'y' | 'Y') => Some(true),
        KeyCode::Esc | KeyCode::Char('2' | 'n' | 'N') => Some(false),
        _ => None,
    }
}

/// A line that answers no.
pub fn denies(line: &str) -> bool {
    matches!(line.trim().chars().next(), Some('2' | 'n' | 'N'))
}
