//! A one-line progress indicator on stderr, shown only on a terminal.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;

/// Prints `label: done/total` in place while work goes on.
pub struct ProgressLine {
    enabled: bool,
    last: Mutex<std::time::Instant>,
}

impl ProgressLine {
    /// A progress line, silent when stderr is not a terminal or `quiet`.
    pub fn new(quiet: bool) -> Self {
        ProgressLine {
            enabled: !quiet && std::io::stderr().is_terminal(),
            last: Mutex::new(std::time::Instant::now()),
        }
    }

    /// Shows `label [#####     ] done/total`, at most ten times a second.
    pub fn show(&self, label: &str, done: usize, total: usize) {
        if !self.enabled {
            return;
        }
        if let Ok(mut last) = self.last.lock() {
            if done < total && last.elapsed().as_millis() < 100 {
                return;
            }
            *last = std::time::Instant::now();
        }
        let width = 30;
        let filled = (done * width).checked_div(total).unwrap_or(width);
        let bar: String = "#".repeat(filled) + &" ".repeat(width - filled.min(width));
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r{label} [{bar}] {done}/{total}");
        let _ = err.flush();
    }

    /// Clears the line.
    pub fn finish(&self) {
        if self.enabled {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r{:80}\r", "");
            let _ = err.flush();
        }
    }
}
