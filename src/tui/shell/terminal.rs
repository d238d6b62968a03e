//! The one terminal setup: raw mode, the alternate screen, mouse reporting,
//! bracketed paste and focus reports, always undone together — when the dashboard ends
//! (quit, error, SIGTERM/SIGHUP), on a panic, and around attaching outside
//! tmux. Bracketed paste is what keeps a paste from being read as keys.

use std::io::{Stdout, stdout};
use std::mem::ManuallyDrop;
use std::sync::Once;

use crossterm::cursor::Show;
use crossterm::event::{
    DisableBracketedPaste, DisableFocusChange, DisableMouseCapture, EnableBracketedPaste,
    EnableFocusChange, EnableMouseCapture,
};
use crossterm::terminal::{
    Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

pub type Term = Terminal<CrosstermBackend<Stdout>>;

static PANIC_HOOK: Once = Once::new();

/// The dashboard's terminal; dropping it restores the screen.
pub struct Screen {
    /// Never dropped: ratatui's `Terminal` shows the cursor when dropped
    /// and, should that fail (the window was closed, the pty is gone),
    /// prints to stderr, which fails too and panics, and then aborts.
    /// [`restore`] shows the cursor already; the process is ending.
    pub terminal: ManuallyDrop<Term>,
}

impl Screen {
    /// Takes over the terminal (once per process, a panic hook restores it).
    pub fn enter() -> std::io::Result<Self> {
        PANIC_HOOK.call_once(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                restore();
                previous(info);
            }));
        });
        setup()?;
        let terminal = ManuallyDrop::new(Terminal::new(CrosstermBackend::new(stdout()))?);
        Ok(Self { terminal })
    }

    /// Hands the terminal back as it was (to `tmux attach`).
    pub fn suspend(&mut self) {
        restore();
    }

    /// Takes the terminal again after [`Self::suspend`]; the next draw is
    /// whole. A fresh `Terminal` over a cleared screen, rather than
    /// `Terminal::clear`, which asks the terminal for its cursor and waits
    /// for an answer on a stdin no one reads between event streams.
    pub fn resume(&mut self) -> std::io::Result<()> {
        setup()?;
        crossterm::execute!(stdout(), Clear(ClearType::All))?;
        // The terminal answers again: the one replaced may show its cursor.
        *self.terminal = Terminal::new(CrosstermBackend::new(stdout()))?;
        Ok(())
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        restore();
    }
}

fn setup() -> std::io::Result<()> {
    enable_raw_mode()?;
    crossterm::execute!(
        stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste,
        // Whether the operator looks at the dashboard: notifications skip
        // its selection only while it has the focus.
        EnableFocusChange
    )
}

/// Undoes [`setup`]. Every step is tried: the terminal may be gone (SIGHUP
/// from a closed window), and that is fine.
fn restore() {
    let _ = crossterm::execute!(
        stdout(),
        DisableFocusChange,
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        Show
    );
    let _ = disable_raw_mode();
}
