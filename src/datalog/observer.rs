//! What a solve reports as it goes: each stratum as it begins, each
//! iteration of a recursive stratum as it ends.
//!
//! The solver calls the [`Observer`] it is given ([`super::solver::Solver::observer`])
//! between iterations, outside the evaluation's own work; the command
//! line draws its progress line from these reports (`src/cli/progress.rs`).

use std::time::Duration;

/// A stratum about to be evaluated.
#[derive(Debug)]
pub struct StratumStart<'a> {
    /// Its number, from 1.
    pub stratum: usize,
    /// How many strata the program has.
    pub strata: usize,
    /// The relations it derives.
    pub relations: &'a [&'a str],
    /// Whether it iterates (some rule reads what the stratum derives).
    pub recursive: bool,
    /// Time since the solve began.
    pub elapsed: Duration,
}

/// An iteration of a recursive stratum, ended.
#[derive(Debug)]
pub struct IterationEnd<'a> {
    /// The stratum's number, from 1.
    pub stratum: usize,
    /// How many strata the program has.
    pub strata: usize,
    /// The iteration's number within its stratum, from 1.
    pub iteration: u64,
    /// The relations that grew in this iteration, with their sizes in BDD
    /// nodes after it, largest first.
    pub growing: &'a [(&'a str, usize)],
    /// Time since the solve began.
    pub elapsed: Duration,
}

/// Receives a solve's reports. Both methods do nothing by default.
pub trait Observer: Send + Sync {
    /// A stratum begins.
    fn stratum_started(&self, _start: &StratumStart) {}
    /// An iteration of a recursive stratum ended.
    fn iteration_ended(&self, _end: &IterationEnd) {}
}

/// An observer to hand on, or none: what options that are cloned and
/// printed hold.
#[derive(Clone, Default)]
pub struct SharedObserver(pub Option<std::sync::Arc<dyn Observer>>);

impl std::fmt::Debug for SharedObserver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = if self.0.is_some() { "some" } else { "none" };
        write!(f, "SharedObserver({what})")
    }
}
