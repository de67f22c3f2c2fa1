//! A one-line progress indicator on stderr, shown only on a terminal.

use refract::datalog::observer::{IterationEnd, Observer, StratumStart};
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

    /// Whether the line shows at all (a terminal, not quiet).
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Shows `label [#####     ] done/total`, at most ten times a second.
    pub fn show(&self, label: &str, done: usize, total: usize) {
        if !self.enabled {
            return;
        }
        let width = 30;
        let filled = (done * width).checked_div(total).unwrap_or(width);
        let bar: String = "#".repeat(filled) + &" ".repeat(width - filled.min(width));
        self.write(&format!("{label} [{bar}] {done}/{total}"), done >= total);
    }

    /// Shows `text` in place, at most ten times a second.
    pub fn say(&self, text: &str) {
        if self.enabled {
            self.write(&format!("{text:79}"), false);
        }
    }

    /// Writes `text` over the line, unless the last write was under a
    /// tenth of a second ago and this is not the `last` one.
    fn write(&self, text: &str, last: bool) {
        if let Ok(mut at) = self.last.lock() {
            if !last && at.elapsed().as_millis() < 100 {
                return;
            }
            *at = std::time::Instant::now();
        }
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r{text}");
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

/// The solver's reports as a progress line: the stratum, the iteration,
/// the largest relations that grew (in BDD nodes) and the elapsed time.
pub struct SolveProgress(pub ProgressLine);

impl Observer for SolveProgress {
    fn stratum_started(&self, s: &StratumStart) {
        let first = s.relations.first().copied().unwrap_or("");
        let more = match s.relations.len() {
            0 | 1 => String::new(),
            n => format!(" and {} more", n - 1),
        };
        self.0.say(&format!(
            "solving: stratum {}/{} ({first}{more}) {}",
            s.stratum,
            s.strata,
            seconds(s.elapsed)
        ));
    }

    fn iteration_ended(&self, it: &IterationEnd) {
        let mut largest = it.growing.to_vec();
        largest.sort_by_key(|g| (std::cmp::Reverse(g.nodes), g.relation));
        let sizes: Vec<String> = (largest.iter().take(3))
            .map(|g| format!("{} {}", g.relation, nodes_text(g.nodes)))
            .collect();
        self.0.say(&format!(
            "solving: stratum {}/{}, iteration {}: {} {}",
            it.stratum,
            it.strata,
            it.iteration,
            sizes.join(", "),
            seconds(it.elapsed)
        ));
    }
}

/// `12 s`, `3 min 05 s`.
fn seconds(d: std::time::Duration) -> String {
    let s = d.as_secs();
    if s < 60 {
        format!("{s} s")
    } else {
        format!("{} min {:02} s", s / 60, s % 60)
    }
}

/// A node count as `820 nodes`, `14k nodes`, `3.1M nodes`.
fn nodes_text(n: usize) -> String {
    if n < 1_000 {
        format!("{n} nodes")
    } else if n < 1_000_000 {
        format!("{}k nodes", n / 1_000)
    } else {
        format!("{:.1}M nodes", n as f64 / 1e6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_times_read_short() {
        assert_eq!(nodes_text(820), "820 nodes");
        assert_eq!(nodes_text(14_399), "14k nodes");
        assert_eq!(nodes_text(3_080_000), "3.1M nodes");
        assert_eq!(seconds(std::time::Duration::from_secs(12)), "12 s");
        assert_eq!(seconds(std::time::Duration::from_secs(185)), "3 min 05 s");
    }
}
