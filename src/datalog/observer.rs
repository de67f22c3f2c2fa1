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
    /// The relations that grew in this iteration, in the stratum's order.
    pub growing: &'a [Growth<'a>],
    /// The iteration's own time.
    pub time: Duration,
    /// Of which: the merge of the new tuples into the relations.
    pub merge: Duration,
    /// Of which: the inner saturation loop, and its number of steps.
    pub saturation: Duration,
    /// The saturation's steps.
    pub saturation_steps: usize,
    /// Time since the solve began.
    pub elapsed: Duration,
}

/// A relation that grew in an iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Growth<'a> {
    /// Its name.
    pub relation: &'a str,
    /// The BDD nodes of its new tuples.
    pub new_nodes: usize,
    /// The BDD nodes of the whole relation after the iteration.
    pub nodes: usize,
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
